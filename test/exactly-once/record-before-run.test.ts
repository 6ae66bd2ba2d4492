/**
 * Side effects wait for the transcript (docs/EXACTLY-ONCE.md): a tool that is not read-only starts only once
 * its tool_use entry is on disk; a read-only one may start as soon as its block ends. The proxy holds the
 * stream for a moment right after the tool_use block closes (the entry is written when the next block starts);
 * the oracle is the transcript file as each tool finds it when it runs.
 */
import { readFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import type { Tool } from "../../src/tools/types.js";
import { collect } from "../../support/collect.js";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";
import { type SseFaultProxy, startSseFaultProxy } from "../../support/sse-fault-proxy.js";

let harness: Harness | undefined;
let proxy: SseFaultProxy | undefined;
afterEach(async () => {
  await harness?.close();
  await proxy?.close();
});

/** A tool that notes whether its own tool_use was in the transcript file when it started. */
function observer(name: string, readOnly: boolean, seen: Record<string, boolean>): Tool<Record<string, never>> {
  return {
    name,
    description: `Notes what the transcript held when it ran (${readOnly ? "read-only" : "side effects"}).`,
    inputSchema: z.strictObject({}),
    compactable: false,
    isReadOnly: () => readOnly,
    async call(_input, context) {
      const path = harness?.engine.transcript.path ?? "";
      seen[name] = (await readFile(path, "utf8")).includes(context.toolUseId);
      return { content: "noted" };
    },
  };
}

describe("when a tool starts", () => {
  it("a tool with side effects waits for its entry on disk; a read-only one starts at its block's end", async () => {
    const seen: Record<string, boolean> = {};
    proxy = await startSseFaultProxy((request) =>
      request <= 2 ? { afterToolUseStop: true, pauseMs: 500 } : undefined,
    );
    const own = proxy;
    harness = await startHarness(
      {
        scenario: [
          {
            content: [
              { type: "tool_use", name: "Mark", input: {} },
              { type: "text", text: "after" },
            ],
          },
          {
            content: [
              { type: "tool_use", name: "Peek", input: {} },
              { type: "text", text: "after" },
            ],
          },
          "Done.",
        ],
      },
      { tools: [observer("Mark", false, seen), observer("Peek", true, seen)] },
      (emulator) => {
        own.target = emulator.url;
        return fastProvider(own.url);
      },
    );
    const events = await collect(harness.engine.submitMessage("Go."));
    expect(events.at(-1)).toMatchObject({ type: "turn_end", reason: "completed" });
    expect(seen).toEqual({ Mark: true, Peek: false });
  });
});
