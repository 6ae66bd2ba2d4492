import { validateRequest } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import {
  API_ERROR_TEXT,
  createApiErrorEntry,
  createAssistantEntry,
  createUserEntry,
  imageBlock,
  textBlock,
} from "../../src/messages/index.js";
import { assembleRequest, CONTINUE_TEXT, emptyLatches, type RequestSettings } from "../../src/request/index.js";
import { buildTimeline, TINY_PNG, TOOLS } from "../../support/messy-timeline.js";
import { SESSION_ID } from "../../support/timeline-builder.js";

const fixed = (uuid: string) => ({
  sessionId: SESSION_ID,
  parentUuid: null,
  uuid,
  now: new Date(Date.UTC(2025, 0, 2)),
});

const settings: RequestSettings = {
  model: "claude-sonnet-4-5",
  systemPrompt: ["You are threadline.", "Environment: test"],
  tools: TOOLS,
};

/**
 * The exact request bytes, then the same body pretty-printed so snapshot diffs are readable.
 * Stored as .txt so formatters leave the bytes alone.
 */
function render(output: ReturnType<typeof assembleRequest>): string {
  expect(output.request.json).toBe(JSON.stringify(output.request.body));
  return [
    `anthropic-beta: ${output.request.betas.join(",")}`,
    output.request.json,
    JSON.stringify(output.request.body, null, 2),
    "",
  ].join("\n");
}

describe("byte-exact request snapshots", () => {
  it("a plain tool loop with thinking, snip tags and a reminder", async () => {
    const builder = buildTimeline([
      { kind: "user", text: "read the file", meta: false },
      { kind: "attachment", text: "CLAUDE.md: be brief" },
      { kind: "response", thinking: 1, redacted: false, text: "Reading.", tools: 1, cutAfter: undefined },
      { kind: "results", answer: 0, shuffle: false, error: false, image: false, orphan: false, reminder: true },
    ]);
    const output = assembleRequest({
      messages: builder.entries,
      settings: { ...settings, snipTags: true, thinking: { type: "enabled", budgetTokens: 2_048 } },
      latches: emptyLatches(),
      pins: [],
    });
    await expect(render(output)).toMatchFileSnapshot("__snapshots__/tool-loop.request.txt");
  });

  it("a messy timeline: cut stream, orphan result, whitespace text", async () => {
    const builder = buildTimeline([
      { kind: "user", text: "go", meta: false },
      { kind: "response", thinking: 1, redacted: false, text: "\n", tools: 2, cutAfter: 3 },
      { kind: "results", answer: 1, shuffle: false, error: true, image: true, orphan: true, reminder: false },
      { kind: "noise", which: "progress" },
      { kind: "user", text: "  ", meta: false },
      { kind: "user", text: "still there?", meta: false },
      { kind: "response", thinking: 2, redacted: false, text: undefined, tools: 0, cutAfter: undefined },
    ]);
    const output = assembleRequest({ messages: builder.entries, settings, latches: emptyLatches(), pins: [] });
    await expect(render(output)).toMatchFileSnapshot("__snapshots__/messy.request.txt");
  });

  it("cache editing with a pinned edit, 1h TTL and a refused image", async () => {
    const builder = buildTimeline([
      { kind: "user", text: "look", meta: false },
      { kind: "response", thinking: 0, redacted: false, text: "Reading both.", tools: 2, cutAfter: undefined },
      { kind: "results", answer: 0, shuffle: false, error: false, image: false, orphan: false, reminder: false },
      { kind: "response", thinking: 0, redacted: false, text: "Done.", tools: 0, cutAfter: undefined },
    ]);
    const entries = [
      ...builder.entries,
      createUserEntry(
        fixed("aaaaaaaa-0000-4000-8000-000000000001"),
        [textBlock("shot"), imageBlock("image/png", TINY_PNG)],
        {
          isMeta: true,
        },
      ),
      createApiErrorEntry(fixed("aaaaaaaa-0000-4000-8000-000000000002"), API_ERROR_TEXT.imageTooLarge),
      createUserEntry(fixed("aaaaaaaa-0000-4000-8000-000000000003"), "try again without it"),
    ];
    const [first, second] = builder.toolUseIds();
    const output = assembleRequest({
      messages: entries,
      settings: { ...settings, cacheEditing: true, cacheTtl: "1h", snipTags: true },
      latches: emptyLatches(),
      pins: [{ messageIndex: 2, block: { type: "cache_edits", edits: [{ type: "delete", cache_reference: first! }] } }],
      newCacheEdits: [{ type: "delete", cache_reference: second! }],
    });
    expect(output.newPins).toHaveLength(1);
    await expect(render(output)).toMatchFileSnapshot("__snapshots__/cache-editing.request.txt");
  });
});

describe("prefill", () => {
  const ending = [
    createUserEntry(fixed("00000000-0000-4000-8000-0000000000a1"), "Write the summary."),
    createAssistantEntry(fixed("00000000-0000-4000-8000-0000000000a2"), textBlock("Summary so far:"), {
      messageId: "msg_prefill",
      model: "claude-sonnet-4-6",
    }),
  ];
  it('prevents "This model does not support assistant message prefill": newer models get a user turn last', () => {
    const output = assembleRequest({
      messages: ending,
      settings: { ...settings, model: "claude-sonnet-4-6" },
      latches: emptyLatches(),
      pins: [],
    });
    const last = output.request.body.messages.at(-1)!;
    expect(last.role).toBe("user");
    expect(JSON.stringify(last.content)).toContain(CONTINUE_TEXT);
    expect(validateRequest(output.request.body)).toEqual([]);
  });
  it("older models keep the prefill as it is", () => {
    const output = assembleRequest({ messages: ending, settings, latches: emptyLatches(), pins: [] });
    expect(output.request.body.messages.at(-1)?.role).toBe("assistant");
    expect(validateRequest(output.request.body)).toEqual([]);
  });
});
