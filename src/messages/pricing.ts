/**
 * What a request costs, from its token counts and the model table's prices (`models.ts`): the one cost
 * formula, used by the loop's running totals and by `inspect`. The cache multipliers are the API's billing.
 */
import type { Usage } from "./content.js";
import { type ModelLimits, modelLimits, STANDARD_CACHE_READ_MULTIPLIER } from "./models.js";

/** Uncached input tokens cost the input price itself. */
export const UNCACHED_INPUT_MULTIPLIER = 1;

/** Cache writes with the default 5-minute TTL cost this many times the input price. */
export const CACHE_WRITE_5M_MULTIPLIER = 1.25;

/** Cache writes with the 1-hour TTL cost this many times the input price. */
export const CACHE_WRITE_1H_MULTIPLIER = 2;

/**
 * Cache reads cost this fraction of the input price on most models; a model's own rate is its table row's
 * `cacheReadMultiplier` (0.05 on Opus 5.5, 0.025 on Fable 5.1), which `costUsd` and `cacheReadUsdPerToken` use.
 */
export const CACHE_READ_MULTIPLIER = STANDARD_CACHE_READ_MULTIPLIER;

/**
 * Dollars per server web search: $10 per 1,000 searches, on top of the tokens the results add, whatever the model
 * (platform.claude.com/docs/en/agents-and-tools/tool-use/web-search-tool, "Usage and pricing"). A search that
 * ends in an error is not billed, and the server does not count it in `usage.server_tool_use`.
 */
export const WEB_SEARCH_USD_PER_REQUEST = 10 / 1_000;

/** Dollars for the server tool calls `usage` reports (web searches; threadline declares no other server tool). */
export function serverToolCostUsd(usage: Usage): number {
  return (usage.server_tool_use?.web_search_requests ?? 0) * WEB_SEARCH_USD_PER_REQUEST;
}

/** The token counts a bill is computed from. */
export interface BillableTokens {
  /** Uncached input (the API's `input_tokens`). */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  outputTokens: number;
}

/** The prices a bill needs, dollars per million tokens (a `ModelLimits` row has them; cache reads default 0.1x). */
export type TokenPrices = Pick<ModelLimits, "inputPricePerMTok" | "outputPricePerMTok"> &
  Partial<Pick<ModelLimits, "cacheReadMultiplier">>;

/** Dollars for `tokens` at `prices`. */
export function costUsd(tokens: BillableTokens, prices: TokenPrices): number {
  const inputEquivalent =
    tokens.inputTokens * UNCACHED_INPUT_MULTIPLIER +
    tokens.cacheWrite5mTokens * CACHE_WRITE_5M_MULTIPLIER +
    tokens.cacheWrite1hTokens * CACHE_WRITE_1H_MULTIPLIER +
    tokens.cacheReadTokens * (prices.cacheReadMultiplier ?? CACHE_READ_MULTIPLIER);
  return (inputEquivalent * prices.inputPricePerMTok + tokens.outputTokens * prices.outputPricePerMTok) / 1_000_000;
}

/** Dollars for one request to `model` (unknown models use the table's placeholder prices: label them as unknown). */
export function requestCostUsd(model: string, tokens: BillableTokens): number {
  return costUsd(tokens, modelLimits(model));
}

/** Dollars per token read from the cache for `model` (the cheapest way to carry a token; fallback prices if unknown). */
export function cacheReadUsdPerToken(model: string): number {
  const limits = modelLimits(model);
  return (limits.inputPricePerMTok * limits.cacheReadMultiplier) / 1_000_000;
}

/**
 * The usage a response is billed for. With server-side compaction every pass in `usage.iterations` is billed (the
 * compaction pass read the whole request; the top-level fields are not the sum), so the passes are added up;
 * otherwise the top-level fields are the bill (docs/API-SURFACE.md, "Server-side compaction").
 */
export function billedUsage(usage: Usage): Usage {
  const passes = usage.iterations;
  if (passes === undefined || passes === null || passes.length === 0) return usage;
  const total = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  for (const pass of passes) {
    total.input_tokens += pass.input_tokens;
    total.output_tokens += pass.output_tokens;
    total.cache_creation_input_tokens += pass.cache_creation_input_tokens ?? 0;
    total.cache_read_input_tokens += pass.cache_read_input_tokens ?? 0;
  }
  return total;
}
