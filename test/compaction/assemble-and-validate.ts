/** Assembles a compaction output with the real request assembly and runs the emulator's contract validator. */

import { validateRequest } from "@threadline/emulator";
import type { CompactionOutput } from "../../src/compaction/index.js";
import type { CacheEditPin, RequestSettings } from "../../src/request/index.js";
import { assembleRequest, emptyLatches } from "../../src/request/index.js";
import { MODEL } from "../../support/timeline-builder.js";

const TOOL_NAMES = ["Agent", "Bash", "Grep", "Read", "Snip"];

export function assembleAndValidate(
  output: Pick<CompactionOutput, "messages" | "newCacheEdits" | "cacheEditing" | "snipTags"> & {
    contextManagement?: CompactionOutput["contextManagement"];
  },
  pins: readonly CacheEditPin[] = [],
) {
  const settings: RequestSettings = {
    model: MODEL,
    systemPrompt: ["You are a test agent."],
    tools: TOOL_NAMES.map((name) => ({
      name,
      description: `${name} tool`,
      input_schema: { type: "object", properties: {} },
    })),
    snipTags: output.snipTags,
    cacheEditing: output.cacheEditing,
  };
  if (output.contextManagement !== undefined) settings.contextManagement = output.contextManagement;
  const assembled = assembleRequest({
    messages: output.messages,
    settings,
    latches: emptyLatches(),
    pins,
    newCacheEdits: output.newCacheEdits,
  });
  const violations = validateRequest(JSON.parse(assembled.request.json), {
    cacheEditing: output.cacheEditing,
    betas: assembled.request.betas,
  });
  return { assembled, violations };
}
