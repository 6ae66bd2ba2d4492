/**
 * Server-sent events exactly like the API's: message_start (input and cache usage), ping, then per block
 * content_block_start → deltas → content_block_stop, message_delta (stop_reason, cumulative usage),
 * message_stop. Text and thinking are split into several deltas; tool input arrives as partial JSON.
 */

import type { ServerResponse } from "node:http";
import type { CompactionResponseBlock } from "../billing/server-compaction.js";
import { type AssistantContentBlock, checkNever } from "../content.js";
import type { ResponseMessage } from "./response.js";

/** Characters per text or thinking delta. */
export const DEFAULT_DELTA_CHARS = 24;
/** Characters per `input_json_delta` fragment. */
export const DEFAULT_JSON_FRAGMENT_CHARS = 16;

export interface StreamEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Splits `text` into pieces of at most `size` code points (never inside a surrogate pair). */
function splitText(text: string, size: number): string[] {
  const points = Array.from(text);
  const pieces: string[] = [];
  for (let index = 0; index < points.length; index += size) pieces.push(points.slice(index, index + size).join(""));
  return pieces;
}

function emptyBlock(block: AssistantContentBlock | CompactionResponseBlock): Record<string, unknown> {
  switch (block.type) {
    case "compaction":
      return { type: "compaction", content: null, encrypted_content: null };
    case "text":
      // A cited text opens with `citations: []` and gets each citation as a citations_delta before its text.
      return block.citations ? { type: "text", text: "", citations: [] } : { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: {} };
    case "server_tool_use":
      // The query streams as input_json_delta, like a client tool's input.
      return { type: "server_tool_use", id: block.id, name: block.name, input: {} };
    case "web_search_tool_result":
      // Sent whole in content_block_start (no delta type exists for it).
      return { type: "web_search_tool_result", tool_use_id: block.tool_use_id, content: block.content };
    default:
      return checkNever(block);
  }
}

function deltas(
  block: AssistantContentBlock | CompactionResponseBlock,
  deltaChars: number,
  partialJson?: string,
): Array<Record<string, unknown>> {
  switch (block.type) {
    case "compaction":
      // One delta carries the whole summary (SDK `BetaCompactionContentBlockDelta`).
      return [{ type: "compaction_delta", content: block.content, encrypted_content: block.encrypted_content }];
    case "text":
      return [
        ...(block.citations ?? []).map((citation) => ({ type: "citations_delta", citation })),
        ...splitText(block.text, deltaChars).map((text) => ({ type: "text_delta", text })),
      ];
    case "thinking":
      return [
        ...splitText(block.thinking, deltaChars).map((thinking) => ({ type: "thinking_delta", thinking })),
        { type: "signature_delta", signature: block.signature },
      ];
    case "redacted_thinking":
      return [];
    case "web_search_tool_result":
      return [];
    case "tool_use":
    case "server_tool_use": {
      const json = partialJson ?? JSON.stringify(block.input ?? {});
      // The API opens with an empty fragment; the concatenation of all fragments is the input JSON.
      return ["", ...splitText(json, DEFAULT_JSON_FRAGMENT_CHARS)].map((partial_json) => ({
        type: "input_json_delta",
        partial_json,
      }));
    }
    default:
      return checkNever(block);
  }
}

/** The whole event sequence for `message` (pure: the writer decides timing and faults). */
export function buildStreamEvents(
  message: ResponseMessage,
  deltaChars = DEFAULT_DELTA_CHARS,
  /** Block index → unfinished input JSON of a tool_use cut at max_tokens (see `output-limit.ts`). Default none. */
  partialInputs: ReadonlyMap<number, string> = new Map(),
): StreamEvent[] {
  const { usage } = message;
  const events: StreamEvent[] = [
    {
      event: "message_start",
      data: {
        type: "message_start",
        message: {
          id: message.id,
          type: "message",
          role: "assistant",
          model: message.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          stop_details: null,
          container: null,
          diagnostics: message.diagnostics ?? null,
          usage: { ...usage, output_tokens: 1 },
          // Final in message_start when streaming (SDK `BetaMessage.input_transformations`).
          ...(message.input_transformations !== undefined
            ? { input_transformations: message.input_transformations }
            : {}),
        },
      },
    },
    { event: "ping", data: { type: "ping" } },
  ];
  message.content.forEach((block, index) => {
    events.push({
      event: "content_block_start",
      data: { type: "content_block_start", index, content_block: emptyBlock(block) },
    });
    for (const delta of deltas(block, deltaChars, partialInputs.get(index))) {
      events.push({ event: "content_block_delta", data: { type: "content_block_delta", index, delta } });
    }
    events.push({ event: "content_block_stop", data: { type: "content_block_stop", index } });
  });
  const messageDelta: Record<string, unknown> = {
    type: "message_delta",
    delta: {
      stop_reason: message.stop_reason,
      stop_sequence: message.stop_sequence,
      stop_details: message.stop_details ?? null,
      container: message.container ?? null,
    },
    usage,
  };
  if (message.context_management) messageDelta.context_management = message.context_management;
  events.push({ event: "message_delta", data: messageDelta });
  events.push({ event: "message_stop", data: { type: "message_stop" } });
  return events;
}

/** The wire form of one event. */
export function encodeEvent(event: StreamEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Writes SSE headers. */
export function startStream(response: ServerResponse, requestId: string): void {
  response.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-cache",
    connection: "keep-alive",
    "request-id": requestId,
  });
  response.flushHeaders();
}

/**
 * Writes events one by one, each split in two writes at a seeded byte offset (sometimes inside a multi-byte
 * character), yielding to the event loop between writes so they leave as separate chunks.
 */
export async function writeEvents(
  response: ServerResponse,
  events: readonly StreamEvent[],
  random: () => number,
): Promise<boolean> {
  for (const event of events) {
    if (response.destroyed || response.writableEnded) return false;
    const bytes = Buffer.from(encodeEvent(event), "utf8");
    const cut = 1 + Math.floor(random() * (bytes.length - 1));
    response.write(bytes.subarray(0, cut));
    await nextTick();
    if (response.destroyed) return false;
    response.write(bytes.subarray(cut));
    await nextTick();
  }
  return true;
}

function nextTick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
