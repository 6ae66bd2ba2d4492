/**
 * The stream reducer: raw SSE events in, neutral response events out. Pure (no I/O, no clock), and it
 * checks event order: a delta for a block never started, a second message_start, a block left open at
 * message_delta all throw a retryable `stream_error`.
 *
 * Timing: `block_end` at each content_block_stop (so a tool can start at once); `message_end` at
 * message_delta, when the stop reason and the final usage are known; message_stop only closes the stream.
 *
 * Invalid tool input JSON (a truncated or garbled `input_json_delta` concatenation) yields the tool_use
 * with input `{}` plus a warning: `{}` is always valid for the API, whereas keeping the raw string would
 * make every later request fail. The tool then rejects the empty input and the model sees why.
 */
import {
  type AssistantContentBlock,
  checkNever,
  type StopReason,
  type TextCitation,
  type Usage,
  type WebSearchToolResultBlock,
  webSearchResultBlock,
} from "../messages/index.js";
import { ProviderError } from "./errors.js";
import { emptyUsage, mergeUsage, streamEventSchemas, toStopReason } from "./stream-events.js";
import type { CacheMissReason, InputTransformation, RawStreamEvent, ResponseEvent } from "./types.js";

/** What the reducer says after one event (the provider adds the request id and the raw passthrough). */
export type AccumulatorOutput = Exclude<ResponseEvent, { type: "sse_passthrough" }>;

type OpenBlock =
  | { type: "text"; text: string; citations: TextCitation[] }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; json: string; startInput: unknown }
  /** A server tool's call: its input streams as `input_json_delta` like a tool_use's (docs/API-SURFACE.md). */
  | { type: "server_tool_use"; id: string; name: string; json: string; startInput: unknown }
  /** A server web search's result: whole in content_block_start, no deltas. */
  | { type: "web_search_tool_result"; block: WebSearchToolResultBlock }
  /** Server-side compaction's summary: `compaction_delta` carries the content (docs/API-SURFACE.md). */
  | { type: "compaction"; content: string | null; encrypted_content: string | null }
  /** A block type threadline does not model (server tools, …): tolerated and skipped. */
  | { type: "skipped"; blockType: string };

type Phase = "before_start" | "streaming" | "after_delta" | "stopped";

/** Accumulates one response. Feed every parsed event to `push`; call `finish` when the stream ends. */
export class StreamAccumulator {
  private phase: Phase = "before_start";
  private messageId = "";
  private model = "";
  private usage: Usage = emptyUsage();
  /** The latest cache_miss_reason the response carried (message_start, or a later message_delta). */
  private cacheMiss: CacheMissReason | null = null;
  /** The response's `input_transformations`: final in message_start, replaced by a message_delta that carries one. */
  private inputTransformations: InputTransformation[] = [];
  private stopReason: StopReason | null = null;
  private nextIndex = 0;
  private open: { index: number; block: OpenBlock } | null = null;
  private readonly completed: AssistantContentBlock[] = [];

  /** Blocks finished so far, in order. */
  get blocks(): readonly AssistantContentBlock[] {
    return this.completed;
  }

  push(event: RawStreamEvent): AccumulatorOutput[] {
    switch (event.type) {
      case "message_start":
        return this.onMessageStart(event);
      case "content_block_start":
        return this.onBlockStart(event);
      case "content_block_delta":
        return this.onBlockDelta(event);
      case "content_block_stop":
        return this.onBlockStop(event);
      case "message_delta":
        return this.onMessageDelta(event);
      case "message_stop":
        return this.onMessageStop();
      default:
        // ping and any event the API adds later: tolerated, passed through by the caller.
        return [];
    }
  }

  /** Call when the byte stream ends: a response without message_stop is a (retryable) stream error. */
  finish(): void {
    if (this.phase !== "stopped") throw streamError(`stream ended before message_stop (${this.phase})`);
  }

  private onMessageStart(event: RawStreamEvent): AccumulatorOutput[] {
    if (this.phase !== "before_start") throw streamError("message_start received twice");
    const parsed = parse(streamEventSchemas().messageStartSchema, event);
    this.messageId = parsed.message.id;
    this.model = parsed.message.model;
    this.usage = mergeUsage(emptyUsage(), parsed.message.usage);
    this.cacheMiss = cacheMissOf(parsed.message.diagnostics) ?? this.cacheMiss;
    this.inputTransformations = transformationsOf(parsed.message.input_transformations) ?? [];
    this.phase = "streaming";
    return [{ type: "message_start", messageId: this.messageId, model: this.model }];
  }

  private onBlockStart(event: RawStreamEvent): AccumulatorOutput[] {
    this.expectPhase("streaming", "content_block_start");
    const parsed = parse(streamEventSchemas().contentBlockStartSchema, event);
    if (this.open !== null)
      throw streamError(`content_block_start ${parsed.index} while block ${this.open.index} is open`);
    if (parsed.index !== this.nextIndex) {
      throw streamError(`content_block_start index ${parsed.index}, expected ${this.nextIndex}`);
    }
    this.nextIndex++;
    const outputs: AccumulatorOutput[] = [
      { type: "block_start", index: parsed.index, blockType: parsed.content_block.type },
    ];
    const start = parsed.content_block;
    let block: OpenBlock;
    switch (start.type) {
      case "text":
        block = { type: "text", text: parse(streamEventSchemas().textStartSchema, start).text, citations: [] };
        break;
      case "thinking": {
        const thinking = parse(streamEventSchemas().thinkingStartSchema, start);
        block = { type: "thinking", thinking: thinking.thinking, signature: thinking.signature };
        break;
      }
      case "redacted_thinking":
        block = {
          type: "redacted_thinking",
          data: parse(streamEventSchemas().redactedThinkingStartSchema, start).data,
        };
        break;
      case "tool_use": {
        const tool = parse(streamEventSchemas().toolUseStartSchema, start);
        block = { type: "tool_use", id: tool.id, name: tool.name, json: "", startInput: tool.input ?? {} };
        break;
      }
      case "server_tool_use": {
        const tool = parse(streamEventSchemas().serverToolUseStartSchema, start);
        block = { type: "server_tool_use", id: tool.id, name: tool.name, json: "", startInput: tool.input ?? {} };
        break;
      }
      case "web_search_tool_result": {
        const result = parse(streamEventSchemas().webSearchToolResultStartSchema, start);
        block = { type: "web_search_tool_result", block: webSearchResultBlock(result) };
        break;
      }
      case "compaction": {
        const compaction = parse(streamEventSchemas().compactionStartSchema, start);
        block = {
          type: "compaction",
          content: compaction.content ?? null,
          encrypted_content: compaction.encrypted_content ?? null,
        };
        break;
      }
      default:
        block = { type: "skipped", blockType: start.type };
        outputs.push({
          type: "stream_warning",
          message: `skipped unsupported content block type "${start.type}"`,
          index: parsed.index,
        });
    }
    this.open = { index: parsed.index, block };
    return outputs;
  }

  private onBlockDelta(event: RawStreamEvent): AccumulatorOutput[] {
    this.expectPhase("streaming", "content_block_delta");
    const parsed = parse(streamEventSchemas().contentBlockDeltaSchema, event);
    const open = this.requireOpen(parsed.index, "content_block_delta");
    const delta = parsed.delta;
    const block = open.block;
    const index = parsed.index;
    if (block.type === "skipped") return [];
    switch (delta.type) {
      case "text_delta": {
        if (block.type !== "text") throw mismatch(delta.type, block);
        const text = parse(streamEventSchemas().textDeltaSchema, delta).text;
        block.text += text;
        return [{ type: "text_delta", index, text }];
      }
      case "input_json_delta": {
        if (block.type !== "tool_use" && block.type !== "server_tool_use") throw mismatch(delta.type, block);
        const partialJson = parse(streamEventSchemas().inputJsonDeltaSchema, delta).partial_json;
        block.json += partialJson;
        return block.type === "tool_use" ? [{ type: "tool_input_delta", index, partialJson }] : [];
      }
      case "citations_delta": {
        if (block.type !== "text") throw mismatch(delta.type, block);
        block.citations.push(parse(streamEventSchemas().citationsDeltaSchema, delta).citation as TextCitation);
        return [];
      }
      case "thinking_delta": {
        if (block.type !== "thinking") throw mismatch(delta.type, block);
        const thinking = parse(streamEventSchemas().thinkingDeltaSchema, delta).thinking;
        block.thinking += thinking;
        return [{ type: "thinking_delta", index, thinking }];
      }
      case "signature_delta":
        if (block.type !== "thinking") throw mismatch(delta.type, block);
        block.signature = parse(streamEventSchemas().signatureDeltaSchema, delta).signature;
        return [];
      case "compaction_delta": {
        if (block.type !== "compaction") throw mismatch(delta.type, block);
        const compaction = parse(streamEventSchemas().compactionDeltaSchema, delta);
        // The delta carries the whole summary (not a fragment); a later one replaces it.
        if (compaction.content !== undefined) block.content = compaction.content;
        if (compaction.encrypted_content !== undefined) block.encrypted_content = compaction.encrypted_content;
        return [];
      }
      default:
        // Deltas the API adds later change nothing threadline stores.
        return [];
    }
  }

  private onBlockStop(event: RawStreamEvent): AccumulatorOutput[] {
    this.expectPhase("streaming", "content_block_stop");
    const parsed = parse(streamEventSchemas().contentBlockStopSchema, event);
    const open = this.requireOpen(parsed.index, "content_block_stop");
    this.open = null;
    const outputs: AccumulatorOutput[] = [];
    let inputInvalid = false;
    const block = finalizeBlock(open.block, (message) => {
      inputInvalid = true;
      outputs.push({ type: "stream_warning", message, index: open.index });
    });
    if (block === null) return outputs;
    this.completed.push(block);
    outputs.push({
      type: "block_end",
      index: open.index,
      block,
      messageId: this.messageId,
      ...(inputInvalid ? { inputInvalid: true as const } : {}),
    });
    return outputs;
  }

  private onMessageDelta(event: RawStreamEvent): AccumulatorOutput[] {
    this.expectPhase("streaming", "message_delta");
    if (this.open !== null) throw streamError(`message_delta while block ${this.open.index} is open`);
    const parsed = parse(streamEventSchemas().messageDeltaSchema, event);
    this.usage = mergeUsage(this.usage, parsed.usage);
    this.cacheMiss = cacheMissOf(parsed.diagnostics) ?? this.cacheMiss;
    // Only a server-side model fallback mid-stream sends it here: the serving model's list replaces the first.
    this.inputTransformations = transformationsOf(parsed.input_transformations) ?? this.inputTransformations;
    const outputs: AccumulatorOutput[] = [];
    const reason = parsed.delta.stop_reason ?? null;
    this.stopReason = toStopReason(reason);
    if (reason !== null && this.stopReason === null) {
      outputs.push({ type: "stream_warning", message: `unknown stop_reason "${reason}" recorded as null` });
    }
    this.phase = "after_delta";
    outputs.push({
      type: "message_end",
      messageId: this.messageId,
      model: this.model,
      stopReason: this.stopReason,
      stopSequence: parsed.delta.stop_sequence ?? null,
      usage: this.usage,
      ...(this.cacheMiss !== null ? { cacheMiss: this.cacheMiss } : {}),
      ...(this.inputTransformations.length > 0 ? { inputTransformations: this.inputTransformations } : {}),
    });
    return outputs;
  }

  private onMessageStop(): AccumulatorOutput[] {
    this.expectPhase("after_delta", "message_stop");
    this.phase = "stopped";
    return [];
  }

  private requireOpen(index: number, eventType: string): { index: number; block: OpenBlock } {
    if (this.open === null || this.open.index !== index) {
      throw streamError(`${eventType} for block ${index}, which is not open`);
    }
    return this.open;
  }

  private expectPhase(phase: Phase, eventType: string): void {
    if (this.phase !== phase) throw streamError(`${eventType} out of order (stream is ${this.phase})`);
  }
}

function finalizeBlock(block: OpenBlock, warn: (message: string) => void): AssistantContentBlock | null {
  switch (block.type) {
    case "text":
      return block.citations.length > 0
        ? { type: "text", text: block.text, citations: block.citations }
        : { type: "text", text: block.text };
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: parseToolInput(block, warn) };
    case "server_tool_use":
      return { type: "server_tool_use", id: block.id, name: block.name, input: parseToolInput(block, warn) };
    case "web_search_tool_result":
      return block.block;
    case "compaction":
      return { type: "compaction", content: block.content, encrypted_content: block.encrypted_content };
    case "skipped":
      return null;
    default:
      return checkNever(block);
  }
}

function parseToolInput(block: { name: string; json: string; startInput: unknown }, warn: (message: string) => void) {
  if (block.json.trim() === "") return block.startInput;
  try {
    const value: unknown = JSON.parse(block.json);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return value;
    warn(`tool_use ${block.name}: input JSON is not an object; using {}`);
  } catch {
    warn(`tool_use ${block.name}: invalid input JSON (${block.json.length} characters); using {}`);
  }
  return {};
}

interface Parser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}

function parse<T>(schema: Parser<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (!result.success) {
    const type = typeof value === "object" && value !== null ? (value as { type?: unknown }).type : undefined;
    throw streamError(`malformed ${String(type)} event: ${result.error.message.slice(0, 200)}`);
  }
  return result.data;
}

function mismatch(deltaType: string, block: OpenBlock): ProviderError {
  return streamError(`${deltaType} for a ${block.type} block`);
}

/** A malformed or out-of-order stream: worth another attempt. */
export function streamError(message: string): ProviderError {
  return new ProviderError("stream_error", `Stream error: ${message}`, { retryable: true });
}

/** A response's `input_transformations`, entries without a string type, path and reason skipped; null when absent. */
function transformationsOf(value: unknown): InputTransformation[] | null {
  if (!Array.isArray(value)) return null;
  const entries: InputTransformation[] = [];
  for (const item of value as unknown[]) {
    if (item === null || typeof item !== "object") continue;
    const { type, path, reason } = item as { type?: unknown; path?: unknown; reason?: unknown };
    if (typeof type === "string" && typeof path === "string" && typeof reason === "string")
      entries.push({ type, path, reason });
  }
  return entries;
}

/** The `cache_miss_reason` of a response's `diagnostics`, or null when absent or still pending. */
function cacheMissOf(diagnostics: unknown): CacheMissReason | null {
  if (diagnostics === null || typeof diagnostics !== "object") return null;
  const reason = (diagnostics as { cache_miss_reason?: unknown }).cache_miss_reason;
  if (reason === null || typeof reason !== "object") return null;
  const { type, cache_missed_input_tokens: missed } = reason as { type?: unknown; cache_missed_input_tokens?: unknown };
  if (typeof type !== "string") return null;
  return typeof missed === "number" ? { type, cache_missed_input_tokens: missed } : { type };
}
