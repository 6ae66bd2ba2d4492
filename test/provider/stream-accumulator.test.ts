import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { AssistantEntries } from "../../src/loop/assistant-entries.js";
import { type AccumulatorOutput, ProviderError, StreamAccumulator } from "../../src/provider/index.js";
import type { RawStreamEvent } from "../../src/provider/types.js";
import {
  messageEnd,
  messageStart,
  type SseEvent,
  textBlock,
  thinkingBlock,
  threeBlockResponse,
  toolUseBlock,
} from "./helpers/sse-fixtures.js";

function run(events: readonly SseEvent[]): { outputs: AccumulatorOutput[]; accumulator: StreamAccumulator } {
  const accumulator = new StreamAccumulator();
  const outputs: AccumulatorOutput[] = [];
  for (const event of events) outputs.push(...accumulator.push(event as RawStreamEvent));
  return { outputs, accumulator };
}

/** The entries the loop makes of the reducer's outputs; `final` ones carry the stop reason and usage. */
function entriesOf(outputs: readonly AccumulatorOutput[]) {
  const builder = new AssistantEntries(() => ({ sessionId: "s", parentUuid: null }));
  return outputs
    .flatMap((output) => builder.push(output))
    .map((entry) => ({
      messageId: entry.message.id,
      block: entry.message.content[0],
      final: entry.message.usage === undefined ? null : { usage: entry.message.usage },
    }));
}

function failure(events: readonly SseEvent[]): ProviderError {
  try {
    const { accumulator } = run(events);
    accumulator.finish();
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error("expected a stream error");
}

describe("StreamAccumulator", () => {
  it("passes the server's cache_miss_reason to message_end (a pending null is no reason)", () => {
    const start = messageStart("msg_d") as unknown as SseEvent & { message: Record<string, unknown> };
    start.message.diagnostics = {
      cache_miss_reason: { type: "system_changed", cache_missed_input_tokens: 12_000 },
    };
    const end = run([start, ...textBlock(0, ["hi"]), ...messageEnd("end_turn", 3)]).outputs.at(-1);
    expect(end).toMatchObject({
      type: "message_end",
      cacheMiss: { type: "system_changed", cache_missed_input_tokens: 12_000 },
    });
    const pending = messageStart("msg_e") as unknown as SseEvent & { message: Record<string, unknown> };
    pending.message.diagnostics = { cache_miss_reason: null };
    const none = run([pending, ...textBlock(0, ["hi"]), ...messageEnd("end_turn", 3)]).outputs.at(-1);
    expect(none).not.toHaveProperty("cacheMiss");
  });

  it("accumulates thinking with its signature, text, and tool input fragments", () => {
    const { outputs, accumulator } = run(threeBlockResponse("msg_1"));
    accumulator.finish();
    expect(accumulator.blocks).toEqual([
      { type: "thinking", thinking: "Let me think… 🤔", signature: "sig_abc123" },
      { type: "text", text: "Grüße, 世界 🌍!" },
      { type: "tool_use", id: "toolu_01", name: "Read", input: { file_path: "/tmp/ä.txt", limit: 5 } },
    ]);
    const entries = entriesOf(outputs);
    expect(entries.map((entry) => entry.final === null)).toEqual([true, true, false]);
  });

  it("keeps the start input when a tool_use has no input_json_delta", () => {
    const { accumulator } = run([
      messageStart("m"),
      { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "t", name: "Glob", input: {} } },
      { type: "content_block_stop", index: 0 },
      ...messageEnd("tool_use", 1),
    ]);
    expect(accumulator.blocks[0]).toEqual({ type: "tool_use", id: "t", name: "Glob", input: {} });
  });

  it("skips unsupported block types with a warning and keeps going", () => {
    const { outputs, accumulator } = run([
      messageStart("m"),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "mcp_tool_use", id: "s", name: "lookup", server_name: "docs" },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: "{}" } },
      { type: "content_block_stop", index: 0 },
      ...textBlock(1, ["after"]),
      ...messageEnd("end_turn", 2),
    ]);
    accumulator.finish();
    expect(accumulator.blocks).toEqual([{ type: "text", text: "after" }]);
    expect(outputs.filter((output) => output.type === "stream_warning")).toHaveLength(1);
  });

  it("keeps a server web search whole: the call's streamed input, the results, the cited text", () => {
    const hit = {
      type: "web_search_result",
      url: "https://a.example",
      title: "A",
      encrypted_content: "e",
      page_age: null,
    };
    const citation = {
      type: "web_search_result_location",
      url: "https://a.example",
      title: "A",
      cited_text: "a",
      encrypted_index: "i",
    };
    const { accumulator } = run([
      messageStart("m"),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
      },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":' } },
      { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"tides"}' } },
      { type: "content_block_stop", index: 0 },
      {
        type: "content_block_start",
        index: 1,
        content_block: {
          type: "web_search_tool_result",
          tool_use_id: "srvtoolu_1",
          caller: { type: "direct" },
          content: [hit],
        },
      },
      { type: "content_block_stop", index: 1 },
      { type: "content_block_start", index: 2, content_block: { type: "text", text: "", citations: [] } },
      { type: "content_block_delta", index: 2, delta: { type: "citations_delta", citation } },
      { type: "content_block_delta", index: 2, delta: { type: "text_delta", text: "A says a." } },
      { type: "content_block_stop", index: 2 },
      ...messageEnd("end_turn", 3),
    ]);
    accumulator.finish();
    expect(accumulator.blocks).toEqual([
      { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "tides" } },
      { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [hit] },
      { type: "text", text: "A says a.", citations: [citation] },
    ]);
  });

  // Mutation caught (applied once): skipping compaction blocks as unsupported drops the summary from the timeline.
  it("keeps a compaction block whole (content from its compaction_delta) and stop_reason compaction", () => {
    const { outputs } = run([
      messageStart("m"),
      {
        type: "content_block_start",
        index: 0,
        content_block: { type: "compaction", content: null, encrypted_content: null },
      },
      {
        type: "content_block_delta",
        index: 0,
        delta: { type: "compaction_delta", content: "Summary.", encrypted_content: null },
      },
      { type: "content_block_stop", index: 0 },
      ...messageEnd("compaction", 1),
    ]);
    const block = outputs.find((output) => output.type === "block_end");
    expect(block?.type === "block_end" && block.block).toEqual({
      type: "compaction",
      content: "Summary.",
      encrypted_content: null,
    });
    const end = outputs.find((output) => output.type === "message_end");
    expect(end?.type === "message_end" && end.stopReason).toBe("compaction");
    expect(outputs.some((output) => output.type === "stream_warning")).toBe(false);
  });

  it("warns on an unknown stop_reason and records null", () => {
    const { outputs } = run([messageStart("m"), ...textBlock(0, ["x"]), ...messageEnd("a_later_reason", 1)]);
    const end = outputs.find((output) => output.type === "message_end");
    expect(end?.type === "message_end" && end.stopReason).toBeNull();
    expect(outputs.some((output) => output.type === "stream_warning")).toBe(true);
  });

  it.each([
    [
      "a delta for a block never started",
      [messageStart("m"), { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } }],
    ],
    ["a second message_start", [messageStart("m"), messageStart("m")]],
    ["an event before message_start", [...textBlock(0, ["x"])]],
    ["a skipped index", [messageStart("m"), ...textBlock(1, ["x"])]],
    [
      "a block left open at message_delta",
      [messageStart("m"), textBlock(0, ["x"])[0] as SseEvent, ...messageEnd("end_turn", 1)],
    ],
    [
      "a delta of the wrong kind",
      [
        messageStart("m"),
        ...toolUseBlock(0, "t", "Read", []).slice(0, 1),
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "x" } },
      ],
    ],
    ["a malformed known event", [{ type: "message_start", message: { id: 42 } }]],
    ["no message_stop", [messageStart("m"), ...textBlock(0, ["x"])]],
    ["message_stop before message_delta", [messageStart("m"), ...textBlock(0, ["x"]), { type: "message_stop" }]],
  ] as const)("rejects %s as a retryable stream_error", (_name, events) => {
    const error = failure(events as readonly SseEvent[]);
    expect(error.kind).toBe("stream_error");
    expect(error.retryable).toBe(true);
  });

  it("property: any response gives one entry per block, in order, the last one final, all with one message id", () => {
    const blockArbitrary = fc.oneof(
      fc.array(fc.string(), { maxLength: 4 }).map((pieces) => ({ kind: "text" as const, pieces })),
      fc
        .tuple(fc.array(fc.string(), { maxLength: 4 }), fc.string({ minLength: 1 }))
        .map(([pieces, signature]) => ({ kind: "thinking" as const, pieces, signature })),
      fc
        .tuple(fc.dictionary(fc.string(), fc.jsonValue()), fc.integer({ min: 1, max: 5 }))
        .map(([input, parts]) => ({ kind: "tool" as const, input, parts })),
    );
    fc.assert(
      fc.property(fc.array(blockArbitrary, { minLength: 1, maxLength: 6 }), (blocks) => {
        const events: SseEvent[] = [messageStart("msg_p")];
        blocks.forEach((block, index) => {
          if (block.kind === "text") events.push(...textBlock(index, block.pieces));
          else if (block.kind === "thinking") events.push(...thinkingBlock(index, block.pieces, block.signature));
          else {
            const json = JSON.stringify(block.input);
            const size = Math.ceil(json.length / block.parts);
            const pieces = Array.from({ length: block.parts }, (_, part) => json.slice(part * size, (part + 1) * size));
            events.push(...toolUseBlock(index, `toolu_${index}`, "Tool", pieces));
          }
        });
        events.push(...messageEnd("end_turn", 9));
        const { outputs, accumulator } = run(events);
        accumulator.finish();
        const entries = entriesOf(outputs);
        expect(entries).toHaveLength(blocks.length);
        expect(entries.every((entry) => entry.messageId === "msg_p")).toBe(true);
        expect(entries.map((entry) => entry.final !== null)).toEqual(
          blocks.map((_, index) => index === blocks.length - 1),
        );
        expect(entries.at(-1)?.final?.usage.output_tokens).toBe(9);
        blocks.forEach((block, index) => {
          const made = entries[index]?.block;
          if (block.kind === "text") expect(made).toEqual({ type: "text", text: block.pieces.join("") });
          else if (block.kind === "thinking")
            expect(made).toEqual({ type: "thinking", thinking: block.pieces.join(""), signature: block.signature });
          // Compared with the JSON round trip: that is what the wire carries (-0 becomes 0, and so on).
          else
            expect(made).toEqual({
              type: "tool_use",
              id: `toolu_${index}`,
              name: "Tool",
              input: JSON.parse(JSON.stringify(block.input)),
            });
        });
      }),
    );
  });
});
