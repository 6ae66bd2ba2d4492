/**
 * Server-side compaction as the SDK types and the compaction docs describe it (beta `compact-2026-01-12`, edit
 * `compact_20260112` in `context_management.edits`): when a request's input is over the edit's trigger (default
 * 150,000 input tokens) the response opens with a `compaction` block holding a summary of the conversation;
 * with `pause_after_compaction` the response stops there (`stop_reason: "compaction"`), else the model's answer
 * follows in the same response. `usage.iterations` lists the compaction pass and the message pass. On every
 * request, the API drops all message blocks before the last compaction block the client sent back, so the
 * conversation continues from the summary (a compaction block with null content is a no-op).
 */
import type { ApiMessage, ContentBlock } from "../content.js";
import { defaultSummary } from "../model/summary-text.js";
import type { EmulatorCompactEdit, EmulatorRequest } from "../request-types.js";
import { TokenRuler } from "../ruler.js";

/** The API's default `trigger` of a compact_20260112 edit, in input tokens. */
export const DEFAULT_COMPACT_TRIGGER_TOKENS = 150_000;

/** A compaction block as the response carries it (SDK `BetaCompactionBlock`). */
export interface CompactionResponseBlock {
  type: "compaction";
  content: string | null;
  encrypted_content: string | null;
}

/** One entry of `usage.iterations` (SDK `BetaCompactionIterationUsage` / `BetaMessageIterationUsage`). */
export interface IterationUsage {
  type: "compaction" | "message";
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: null;
}

/** The compact_20260112 edit of the request, if any. */
export function compactEditOf(request: EmulatorRequest): EmulatorCompactEdit | undefined {
  return request.context_management?.edits.find(
    (edit): edit is EmulatorCompactEdit => edit.type === "compact_20260112",
  );
}

const isCompaction = (block: unknown): block is { type: "compaction"; content?: string | null } =>
  typeof block === "object" && block !== null && (block as { type?: unknown }).type === "compaction";

/**
 * The request as the model sees it: everything before the last compaction block with content is dropped, and
 * that block reads as the summary text it carries. A request without one is returned as it is.
 */
export function afterLastCompaction(request: EmulatorRequest): EmulatorRequest {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index]!;
    if (typeof message.content === "string") continue;
    const blocks = message.content as readonly unknown[];
    for (let blockIndex = blocks.length - 1; blockIndex >= 0; blockIndex--) {
      const block = blocks[blockIndex];
      if (!isCompaction(block) || typeof block.content !== "string") continue;
      const summary: ContentBlock = { type: "text", text: block.content };
      const rest = message.content.slice(blockIndex + 1);
      const first: ApiMessage = { role: "user", content: [summary, ...rest] };
      return { ...request, messages: [first, ...request.messages.slice(index + 1)] };
    }
  }
  return request;
}

/** What the compaction pass decided for one request. */
export interface CompactionDecision {
  block: CompactionResponseBlock;
  pause: boolean;
  /** Input tokens the compaction pass read (the whole effective request) and the summary's output tokens. */
  inputTokens: number;
  outputTokens: number;
}

/** Compacts when the request carries the edit and is over its trigger; else undefined. */
export function decideCompaction(
  request: EmulatorRequest,
  ruler: TokenRuler = TokenRuler.unscaled,
): CompactionDecision | undefined {
  const edit = compactEditOf(request);
  if (edit === undefined) return undefined;
  const trigger = edit.trigger as { value?: unknown } | null | undefined;
  const threshold = typeof trigger?.value === "number" ? trigger.value : DEFAULT_COMPACT_TRIGGER_TOKENS;
  const inputTokens = ruler.request(request);
  if (inputTokens <= threshold) return undefined;
  // `instructions` would steer a real model's summary; the emulator's summary is deterministic and ignores them.
  const summary = defaultSummary(request.messages);
  return {
    block: { type: "compaction", content: summary, encrypted_content: null },
    pause: edit.pause_after_compaction === true,
    inputTokens,
    outputTokens: ruler.text(summary),
  };
}
