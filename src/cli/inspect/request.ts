/** One request row of `threadline inspect`: built from a response's usage, priced, and summed into totals. */
import { hitRatio } from "../../cache/index.js";
import { isKnownModel, requestCostUsd } from "../../messages/index.js";
import type { InspectRequest, ServerCacheMiss, TokenTotals } from "./types.js";

type JsonRecord = Record<string, unknown>;

/** A request with no usage yet. */
export function emptyRequest(
  messageId: string,
  scope: string,
  model: string,
  timestamp: string | null,
  line: number,
): InspectRequest {
  return {
    index: 0,
    messageId,
    scope,
    model,
    timestamp,
    line,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    cacheWrite5mTokens: 0,
    cacheWrite1hTokens: 0,
    outputTokens: 0,
    hitRatio: 0,
    costUsd: 0,
    purpose: "turn",
    knownModel: isKnownModel(model),
    tools: [],
    prompt: 0,
    after: null,
    serverCacheMiss: null,
    thinkingDropped: 0,
  };
}

/** How many `thinking_dropped` entries a response's `input_transformations` lists (0 when it has none). */
export function thinkingDroppedIn(transformations: unknown): number {
  if (!Array.isArray(transformations)) return 0;
  return transformations.filter((item: unknown) => asRecord(item)?.type === "thinking_dropped").length;
}

/** The server's cache-miss reason from a response's `diagnostics`, when it gave one (null while pending). */
export function serverCacheMiss(diagnostics: unknown): ServerCacheMiss | null {
  const reason = asRecord(asRecord(diagnostics)?.cache_miss_reason);
  if (reason === null || typeof reason.type !== "string") return null;
  const missed = reason.cache_missed_input_tokens;
  return { reason: reason.type, missedTokens: typeof missed === "number" ? missed : null };
}

/** "12,345". */
export function count(value: number): string {
  return value.toLocaleString("en-US");
}

/** Sets the token counts, hit ratio and cost from a response's `usage`. */
export function applyUsage(request: InspectRequest, usage: JsonRecord): void {
  request.inputTokens = numberOr(usage.input_tokens, 0);
  request.outputTokens = numberOr(usage.output_tokens, 0);
  request.cacheReadTokens = numberOr(usage.cache_read_input_tokens, 0);
  request.cacheWriteTokens = numberOr(usage.cache_creation_input_tokens, 0);
  // Without the TTL split, every write is billed at the default 5-minute rate.
  const split = asRecord(usage.cache_creation);
  request.cacheWrite1hTokens = numberOr(split?.ephemeral_1h_input_tokens, 0);
  request.cacheWrite5mTokens = split
    ? numberOr(split.ephemeral_5m_input_tokens, 0)
    : request.cacheWriteTokens - request.cacheWrite1hTokens;
  request.hitRatio = hitRatio(request.inputTokens, request.cacheReadTokens, request.cacheWriteTokens);
  request.costUsd = requestCostUsd(request.model, request);
}

/** Sums of a list of requests. */
export function totalsOf(requests: readonly InspectRequest[]): TokenTotals {
  const totals: TokenTotals = {
    requests: requests.length,
    inputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
    hitRatio: 0,
    costUsd: 0,
  };
  for (const request of requests) {
    totals.inputTokens += request.inputTokens;
    totals.cacheReadTokens += request.cacheReadTokens;
    totals.cacheWriteTokens += request.cacheWriteTokens;
    totals.outputTokens += request.outputTokens;
    totals.costUsd += request.costUsd;
  }
  totals.hitRatio = hitRatio(totals.inputTokens, totals.cacheReadTokens, totals.cacheWriteTokens);
  return totals;
}

function asRecord(value: unknown): JsonRecord | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonRecord) : null;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
