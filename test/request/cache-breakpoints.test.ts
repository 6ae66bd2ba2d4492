import { describe, expect, it } from "vitest";
import type { ApiMessage } from "../../src/messages/index.js";
import { textBlock, toolResultBlock, toolUseBlock } from "../../src/messages/index.js";
import { addCacheBreakpoints, systemBlocks } from "../../src/request/index.js";

/** The API accepts at most 4 `cache_control` markers in one request (Anthropic prompt-caching docs). */
const API_MARKER_LIMIT = 4;

import { snapshotOf } from "./helpers.js";

const conversation: ApiMessage[] = [
  { role: "user", content: [textBlock("q")] },
  { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }, toolUseBlock("a", "Read", {})] },
  { role: "user", content: [toolResultBlock("a", "ok"), textBlock("more")] },
  { role: "assistant", content: [textBlock("answer"), toolUseBlock("b", "Read", {})] },
  { role: "user", content: [toolResultBlock("b", "ok")] },
];
const markers = (value: unknown) => (JSON.stringify(value).match(/cache_control/g) ?? []).length;

describe("addCacheBreakpoints", () => {
  it("puts exactly one message marker on the last block of the last message, and never mutates input", () => {
    const before = snapshotOf(conversation);
    const { messages } = addCacheBreakpoints([], conversation);
    expect(markers(messages)).toBe(1);
    expect(messages[4]!.content).toEqual([{ ...toolResultBlock("b", "ok"), cache_control: { type: "ephemeral" } }]);
    expect(snapshotOf(conversation)).toBe(before);
  });
  it("marks the second-to-last message when the request must not write cache, skipping thinking", () => {
    const { messages } = addCacheBreakpoints(
      [],
      conversation.slice(0, 3).concat([{ role: "assistant", content: [toolUseBlock("c", "Read", {})] }]),
      {
        skipCacheWrite: true,
      },
    );
    expect(JSON.stringify(messages[2])).toContain('"text":"more","cache_control"');
    const thinkingLast = addCacheBreakpoints(
      [],
      [
        conversation[0]!,
        { role: "assistant", content: [textBlock("x"), { type: "thinking", thinking: "t", signature: "s" }] },
      ],
    );
    expect(JSON.stringify(thinkingLast.messages[1])).toContain('"text":"x","cache_control"');
  });
  it('prevents "A maximum of 4 blocks with cache_control may be provided" with many system segments', () => {
    const { system, messages } = addCacheBreakpoints(["a", "b", "c", "d", "e", " "], conversation);
    expect(system).toHaveLength(5);
    expect(markers(system) + markers(messages)).toBe(API_MARKER_LIMIT);
    expect(system.map((block) => block.cache_control !== undefined)).toEqual([true, true, false, false, true]);
  });
  it("uses one TTL everywhere, so a 1h marker never follows a 5m one", () => {
    const { system, messages } = addCacheBreakpoints(["a"], conversation, { ttl: "1h" });
    expect(JSON.stringify([system, messages]).match(/"ttl":"1h"/g)).toHaveLength(2);
    expect(systemBlocks(["a"], "5m", 3)).toEqual([{ type: "text", text: "a", cache_control: { type: "ephemeral" } }]);
  });
  it("adds cache_reference to tool results up to the marked message, re-inserts pins and pins new edits", () => {
    const pin = {
      messageIndex: 2,
      block: { type: "cache_edits" as const, edits: [{ type: "delete" as const, cache_reference: "a" }] },
    };
    const { messages, newPins } = addCacheBreakpoints([], conversation, {
      cacheEditing: true,
      pins: [pin],
      newCacheEdits: [
        { type: "delete", cache_reference: "a" },
        { type: "delete", cache_reference: "b" },
        { type: "delete", cache_reference: "unknown" },
      ],
    });
    expect(messages[2]!.content).toEqual([
      { ...toolResultBlock("a", "ok"), cache_reference: "a" },
      pin.block,
      textBlock("more"),
    ]);
    const block = { type: "cache_edits", edits: [{ type: "delete", cache_reference: "b" }] };
    expect(newPins).toEqual([{ messageIndex: 4, block }]);
    expect(messages[4]!.content[1]).toEqual(block);
    expect(JSON.stringify(messages[4]!.content[0])).toContain('"cache_reference":"b","cache_control"');
  });
  it("ignores pins and edits when cache editing is off", () => {
    const pin = {
      messageIndex: 2,
      block: { type: "cache_edits" as const, edits: [{ type: "delete" as const, cache_reference: "a" }] },
    };
    const { messages, newPins } = addCacheBreakpoints([], conversation, {
      pins: [pin],
      newCacheEdits: pin.block.edits,
    });
    expect(JSON.stringify(messages)).not.toMatch(/cache_edits|cache_reference/);
    expect(newPins).toEqual([]);
  });
  it("reuses last turn's references only while the messages are the same objects: a changed message's ids are gone", () => {
    const edits = [{ type: "delete" as const, cache_reference: "a" }];
    const options = { cacheEditing: true, newCacheEdits: edits };
    const longer = [...conversation, { role: "assistant" as const, content: [textBlock("done")] }, conversation[0]!];
    // Turn 1 references "a" (message 2); the memo for this conversation (keyed by its first message) keeps it.
    expect(JSON.stringify(addCacheBreakpoints([], longer, options).messages)).toContain('"cache_edits"');
    // Turn 2: message 2 was rebuilt without the result for "a" (say, the tool call was snipped): no edit for it.
    const changed = longer.slice();
    changed[2] = { role: "user", content: [textBlock("more")] };
    changed[1] = { role: "assistant", content: [textBlock("no tool after all")] };
    const { messages, newPins } = addCacheBreakpoints([], changed, options);
    expect(JSON.stringify(messages)).not.toContain('"cache_edits"');
    expect(newPins).toEqual([]);
  });
  it("puts relay markers on the block just before each named tool_result, taking markers from the system", () => {
    // Literal positions, not recomputed: result "a" follows the tool_use in message 1, result "b" the
    // tool_use in message 3. Mutation `relay-markers-off` leaves only the last message marked.
    const { system, messages } = addCacheBreakpoints(["one", "two"], conversation, { relayBefore: ["a", "b", "zz"] });
    expect(messages[1]!.content[1]).toEqual({ ...toolUseBlock("a", "Read", {}), cache_control: { type: "ephemeral" } });
    expect(messages[3]!.content[1]).toEqual({ ...toolUseBlock("b", "Read", {}), cache_control: { type: "ephemeral" } });
    expect(messages[4]!.content).toEqual([{ ...toolResultBlock("b", "ok"), cache_control: { type: "ephemeral" } }]);
    // 4 in all: the three message markers and the last system segment.
    expect(system.map((block) => block.cache_control !== undefined)).toEqual([false, true]);
    expect(markers(system) + markers(messages)).toBe(API_MARKER_LIMIT);
    // Without relays the request is as before: both system segments marked, one message marker.
    const plain = addCacheBreakpoints(["one", "two"], conversation);
    expect(markers(plain.system)).toBe(2);
    expect(markers(plain.messages)).toBe(1);
  });
});
