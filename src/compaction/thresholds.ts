/**
 * Every context-window constant in one place (docs/PIPELINE.md §3.3–3.4). With a 200K window and a model whose
 * max output is ≥ 20K: effective 180,000; warning/error 147,000; autocompact 167,000; blocking 177,000.
 */
import type { MessageEntry } from "../messages/index.js";
import { modelLimits } from "../messages/index.js";
import { estimateEntriesTokens } from "./entry-tokens.js";

/** Output reserved out of the window: min(model max output, this) — a summary needs at most 20K. */
export const MAX_OUTPUT_TOKENS_RESERVED = 20_000;

/** Autocompact fires this many tokens below the effective window. */
export const AUTOCOMPACT_BUFFER_TOKENS = 13_000;

/** The warning shows this many tokens below the autocompact threshold. */
export const WARNING_THRESHOLD_BUFFER_TOKENS = 20_000;

/** The error state starts this many tokens below the autocompact threshold (same as the warning). */
export const ERROR_THRESHOLD_BUFFER_TOKENS = 20_000;

/** Requests are refused this many tokens below the effective window (room for a manual /compact). */
export const BLOCKING_BUFFER_TOKENS = 3_000;

/** Context collapse commits staged spans at this fraction of the effective window. */
export const COLLAPSE_COMMIT_RATIO = 0.9;

/** Context collapse forces an urgent ctx-agent run at this fraction of the effective window. */
export const COLLAPSE_URGENT_RATIO = 0.95;

/** The window minus the output reserve: what the prompt may use. */
export function effectiveContextWindow(model: string, contextWindow: number): number {
  return contextWindow - Math.min(modelLimits(model).maxOutputTokens, MAX_OUTPUT_TOKENS_RESERVED);
}

/** Token count at which proactive autocompact runs (effective − 13,000). */
export function autoCompactThreshold(model: string, contextWindow: number): number {
  return effectiveContextWindow(model, contextWindow) - AUTOCOMPACT_BUFFER_TOKENS;
}

/** Token count at which the UI warns (autocompact − 20,000). */
export function warningThreshold(model: string, contextWindow: number): number {
  return autoCompactThreshold(model, contextWindow) - WARNING_THRESHOLD_BUFFER_TOKENS;
}

/** Token count at which the UI shows an error (autocompact − 20,000). */
export function errorThreshold(model: string, contextWindow: number): number {
  return autoCompactThreshold(model, contextWindow) - ERROR_THRESHOLD_BUFFER_TOKENS;
}

/** Token count at which a request is refused instead of sent (effective − 3,000). */
export function blockingLimit(model: string, contextWindow: number): number {
  return effectiveContextWindow(model, contextWindow) - BLOCKING_BUFFER_TOKENS;
}

export interface TokenWarningState {
  /** Percent of the autocompact threshold still free (0–100, rounded down). */
  percentLeft: number;
  isAboveWarningThreshold: boolean;
  isAboveErrorThreshold: boolean;
  isAboveAutoCompactThreshold: boolean;
  isAtBlockingLimit: boolean;
  effectiveWindow: number;
  autoCompactThreshold: number;
  warningThreshold: number;
  errorThreshold: number;
  blockingLimit: number;
}

/** Where `tokens` stands against every threshold of `model` with `contextWindow`. */
export function calculateTokenWarningState(tokens: number, model: string, contextWindow: number): TokenWarningState {
  const autoCompact = autoCompactThreshold(model, contextWindow);
  const warning = warningThreshold(model, contextWindow);
  const error = errorThreshold(model, contextWindow);
  const blocking = blockingLimit(model, contextWindow);
  const percentLeft = autoCompact <= 0 ? 0 : Math.max(0, Math.floor(((autoCompact - tokens) / autoCompact) * 100));
  return {
    percentLeft,
    isAboveWarningThreshold: tokens >= warning,
    isAboveErrorThreshold: tokens >= error,
    isAboveAutoCompactThreshold: tokens >= autoCompact,
    isAtBlockingLimit: tokens >= blocking,
    effectiveWindow: effectiveContextWindow(model, contextWindow),
    autoCompactThreshold: autoCompact,
    warningThreshold: warning,
    errorThreshold: error,
    blockingLimit: blocking,
  };
}

/**
 * Context size now: the last response's reported usage (input + cache read + cache creation + output),
 * which the server measured exactly, plus the ruler's estimate of every entry after that response.
 * Without any usage yet, the whole list is estimated. A usage whose input side is zero measured nothing
 * (claude-code-router while streaming, a proxy that drops usage): it is skipped, never taken as "empty".
 */
export function tokenCountWithEstimation(messages: readonly MessageEntry[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    const entry = messages[index]!;
    if (entry.type !== "assistant" || entry.isApiErrorMessage) continue;
    const usage = entry.message.usage;
    if (usage === undefined) continue;
    if (usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) === 0)
      continue;
    const reported =
      usage.input_tokens +
      (usage.cache_read_input_tokens ?? 0) +
      (usage.cache_creation_input_tokens ?? 0) +
      usage.output_tokens;
    return reported + estimateEntriesTokens(messages.slice(index + 1));
  }
  return estimateEntriesTokens(messages);
}
