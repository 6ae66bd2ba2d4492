/**
 * Dollar cost of one request from its usage, with per-model prices from the model table
 * (`src/messages/models.ts`) and the cache multipliers the API bills.
 */
import { isKnownModel, modelLimits } from "../messages/models.js";

/** What is shown beside a price or limit for a model the table does not know. */
export const UNKNOWN_MODEL_NOTE = "unknown model: prices and limits assumed";

/** `model`, or `model (unknown model: prices and limits assumed)`: never silently priced as a known model. */
export function modelPriceLabel(model: string): string {
  return isKnownModel(model) ? model : `${model} (${UNKNOWN_MODEL_NOTE})`;
}

/** Cache writes with the default 5-minute TTL cost this many times the input price. */
export const CACHE_WRITE_5M_MULTIPLIER = 1.25;

/** Cache writes with the 1-hour TTL cost this many times the input price. */
export const CACHE_WRITE_1H_MULTIPLIER = 2;

/** Cache reads cost this fraction of the input price. */
export const CACHE_READ_MULTIPLIER = 0.1;

/** The token counts a bill is computed from. */
export interface BillableTokens {
  /** Uncached input (the API's `input_tokens`). */
  inputTokens: number;
  cacheReadTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  outputTokens: number;
}

/** Dollars for one request to `model` (unknown models use the table's placeholder prices: label them with `modelPriceLabel`). */
export function requestCostUsd(model: string, tokens: BillableTokens): number {
  const { inputPricePerMTok, outputPricePerMTok } = modelLimits(model);
  const inputEquivalent =
    tokens.inputTokens +
    tokens.cacheWrite5mTokens * CACHE_WRITE_5M_MULTIPLIER +
    tokens.cacheWrite1hTokens * CACHE_WRITE_1H_MULTIPLIER +
    tokens.cacheReadTokens * CACHE_READ_MULTIPLIER;
  return (inputEquivalent * inputPricePerMTok + tokens.outputTokens * outputPricePerMTok) / 1_000_000;
}

/** Dollars per token read from the cache for `model` (the cheapest way to carry a token; fallback prices if unknown). */
export function cacheReadUsdPerToken(model: string): number {
  return (modelLimits(model).inputPricePerMTok * CACHE_READ_MULTIPLIER) / 1_000_000;
}
