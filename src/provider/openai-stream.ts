/**
 * An OpenAI chat-completions stream, chunk by chunk, as the Messages API's stream events, so the one
 * `StreamAccumulator` checks and reduces every protocol the same way (the loop sees the same neutral events).
 *
 * - The first chunk opens the message (`message_start`, its id and model).
 * - `delta.content` fragments stream into a text block; each new `tool_calls[].index` closes the open block and
 *   starts a `tool_use` block whose `function.arguments` fragments are its `input_json_delta`s. A tool block
 *   ends (`content_block_stop`, so the tool may start) as soon as the next block starts or the choice finishes,
 *   as a tool_use does on the Messages API; a fragment for a call already closed is a stream error (retryable
 *   before any call completed, never after: docs/EXACTLY-ONCE.md).
 * - `finish_reason` maps to a stop reason (`FINISH_REASONS`); the usage chunk (`stream_options.include_usage`:
 *   `choices: []`) may come after it, so the message ends (`message_delta`, `message_stop`) when the stream does.
 *   A stream that ends without a finish reason ends without `message_stop`: a cut stream, as on the Messages API.
 * - Usage: `prompt_tokens` less `prompt_tokens_details.cached_tokens` is the uncached input, the cached tokens
 *   are cache reads, `completion_tokens` the output; nothing is a cache write (these servers bill none).
 */
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { CompletionUsage } from "openai/resources/completions";
import type { StopReason } from "../messages/index.js";
import { streamError } from "./stream-accumulator.js";
import type { RawStreamEvent } from "./types.js";

/** `finish_reason` → stop reason. A reason not listed (a server's own) ends the turn as `end_turn`. */
export const FINISH_REASONS: Readonly<Record<string, StopReason>> = Object.freeze({
  stop: "end_turn",
  length: "max_tokens",
  tool_calls: "tool_use",
  function_call: "tool_use",
  content_filter: "refusal",
});

/**
 * The stop reason for a choice that finished with `finish_reason` after streaming `toolCalls` calls. Some servers
 * (Ollama) answer `stop` even when the reply calls tools; a reply cut at its length limit stays `max_tokens`
 * whatever it streamed, so a cut call never runs.
 */
export function stopReasonOf(finishReason: string, toolCalls: number): StopReason {
  const mapped = FINISH_REASONS[finishReason] ?? "end_turn";
  return toolCalls > 0 && mapped === "end_turn" ? "tool_use" : mapped;
}

/** The Messages API's usage for a chat-completions `usage` object. */
export function messagesUsage(usage: CompletionUsage): {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
} {
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  return {
    input_tokens: Math.max(0, usage.prompt_tokens - cached),
    output_tokens: usage.completion_tokens,
    cache_read_input_tokens: cached,
    cache_creation_input_tokens: 0,
  };
}

type Open = { kind: "text"; index: number } | { kind: "tool"; index: number; call: number };

/** Translates one response's chunks; feed each to `push`, then call `end` once the stream is over. */
export class ChatStreamTranslator {
  private started = false;
  private open: Open | null = null;
  private nextIndex = 0;
  private readonly closedCalls = new Set<number>();
  private toolCalls = 0;
  private finishReason: string | null = null;
  private usage: CompletionUsage | null = null;

  push(chunk: ChatCompletionChunk): RawStreamEvent[] {
    const out: RawStreamEvent[] = [];
    if (!this.started) {
      this.started = true;
      out.push({
        type: "message_start",
        message: {
          id: chunk.id,
          type: "message",
          role: "assistant",
          model: chunk.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 0, output_tokens: 0 },
        },
      });
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (choice === undefined) return out;
    const delta = choice.delta;
    if (typeof delta.content === "string" && delta.content !== "") {
      if (this.open?.kind !== "text") {
        this.close(out);
        this.open = { kind: "text", index: this.nextIndex++ };
        out.push({ type: "content_block_start", index: this.open.index, content_block: { type: "text", text: "" } });
      }
      out.push({
        type: "content_block_delta",
        index: this.open.index,
        delta: { type: "text_delta", text: delta.content },
      });
    }
    for (const call of delta.tool_calls ?? []) {
      if (this.open?.kind !== "tool" || this.open.call !== call.index) {
        if (this.closedCalls.has(call.index)) {
          throw streamError(`tool call ${call.index} continued after the next block began`);
        }
        this.close(out);
        this.open = { kind: "tool", index: this.nextIndex++, call: call.index };
        this.toolCalls++;
        out.push({
          type: "content_block_start",
          index: this.open.index,
          content_block: {
            type: "tool_use",
            id: call.id ?? `call_${chunk.id}_${call.index}`,
            name: call.function?.name ?? "",
            input: {},
          },
        });
      }
      const fragment = call.function?.arguments;
      if (fragment !== undefined && fragment !== "") {
        out.push({
          type: "content_block_delta",
          index: this.open.index,
          delta: { type: "input_json_delta", partial_json: fragment },
        });
      }
    }
    if (choice.finish_reason !== null && choice.finish_reason !== undefined) {
      this.finishReason = choice.finish_reason;
      this.close(out);
    }
    return out;
  }

  /** The events that end the message: none (a cut stream) when no choice finished. */
  end(): RawStreamEvent[] {
    if (!this.started) throw streamError("the stream ended before its first chunk");
    if (this.finishReason === null) return [];
    const usage = this.usage === null ? { input_tokens: 0, output_tokens: 0 } : messagesUsage(this.usage);
    return [
      {
        type: "message_delta",
        delta: { stop_reason: stopReasonOf(this.finishReason, this.toolCalls), stop_sequence: null },
        usage,
      },
      { type: "message_stop" },
    ];
  }

  private close(out: RawStreamEvent[]): void {
    if (this.open === null) return;
    if (this.open.kind === "tool") this.closedCalls.add(this.open.call);
    out.push({ type: "content_block_stop", index: this.open.index });
    this.open = null;
  }
}
