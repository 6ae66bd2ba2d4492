/**
 * Recorded-shape SSE event sequences (the field layout the Messages API sends) and byte-level chunking.
 */
export type SseEvent = { type: string; [key: string]: unknown };

/** `event: NAME\ndata: JSON\n\n`. */
export function sseFrame(event: SseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function sseText(events: readonly SseEvent[]): string {
  return events.map(sseFrame).join("");
}

/** Splits the UTF-8 bytes of `text` every `size` bytes (multi-byte characters get cut in half). */
export function splitBytes(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text, "utf8");
  const chunks: Buffer[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
  return chunks;
}

export function messageStart(id: string, model = "claude-test-1", inputTokens = 100): SseEvent {
  return {
    type: "message_start",
    message: {
      id,
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: inputTokens,
        output_tokens: 1,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 50,
      },
    },
  };
}

export function messageEnd(stopReason: string, outputTokens: number): SseEvent[] {
  return [
    {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: outputTokens },
    },
    { type: "message_stop" },
  ];
}

export function textBlock(index: number, pieces: readonly string[]): SseEvent[] {
  return [
    { type: "content_block_start", index, content_block: { type: "text", text: "" } },
    ...pieces.map((text) => ({ type: "content_block_delta", index, delta: { type: "text_delta", text } })),
    { type: "content_block_stop", index },
  ];
}

export function thinkingBlock(index: number, pieces: readonly string[], signature: string): SseEvent[] {
  return [
    { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } },
    ...pieces.map((thinking) => ({ type: "content_block_delta", index, delta: { type: "thinking_delta", thinking } })),
    { type: "content_block_delta", index, delta: { type: "signature_delta", signature } },
    { type: "content_block_stop", index },
  ];
}

export function toolUseBlock(index: number, id: string, name: string, jsonPieces: readonly string[]): SseEvent[] {
  return [
    { type: "content_block_start", index, content_block: { type: "tool_use", id, name, input: {} } },
    ...jsonPieces.map((partial_json) => ({
      type: "content_block_delta",
      index,
      delta: { type: "input_json_delta", partial_json },
    })),
    { type: "content_block_stop", index },
  ];
}

/** A thinking block, a text block with multi-byte text, and a tool_use: three blocks, one message. */
export function threeBlockResponse(id = "msg_three"): SseEvent[] {
  return [
    messageStart(id),
    { type: "ping" },
    ...thinkingBlock(0, ["Let me ", "think… 🤔"], "sig_abc123"),
    ...textBlock(1, ["Grüße, ", "世界 ", "🌍!"]),
    ...toolUseBlock(2, "toolu_01", "Read", ['{"file_', 'path": "/tmp/ä.txt"', ', "limit": 5}']),
    ...messageEnd("tool_use", 42),
  ];
}

export function errorEvent(type: string, message: string): SseEvent {
  return { type: "error", error: { type, message } };
}

export function errorBody(type: string, message: string): unknown {
  return { type: "error", error: { type, message }, request_id: "req_replay" };
}
