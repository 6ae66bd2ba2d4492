/**
 * Every context-window constant in one place (docs/PIPELINE.md §3.3–3.4; docs/ARCHITECTURE.md "Compaction thresholds").
 * Each buffer is the smaller of a fixed size and a share of the window, so small windows (8K–64K, most local
 * models) compact at a sensible point instead of at a negative threshold. The shares equal the fixed sizes at
 * 200K, so from 200K up every number is the fixed one: effective 180,000; warning/error 147,000; autocompact
 * 167,000; blocking 177,000 at 200K. At 16K: effective 12,800, autocompact 11,760, blocking 12,560.
 */
import type { MessageEntry } from "../../messages/index.js";
import { modelLimits } from "../../messages/index.js";
import { estimateEntriesTokens } from "./entry-tokens.js";

/** Output reserved out of the window: min(model max output, this, the window share below) — a summary needs at most 20K. */
export const MAX_OUTPUT_TOKENS_RESERVED = 20_000;

/** Share of the window the output reserve takes at most: 20 % (20K at 100K; 3.2K at 16K). */
export const OUTPUT_RESERVE_WINDOW_RATIO = 0.2;

/** Autocompact fires this many tokens below the effective window (or the window share below, if smaller). */
export const AUTOCOMPACT_BUFFER_TOKENS = 13_000;

/** Share of the window the autocompact buffer takes at most: 6.5 % (13K at 200K; 1,040 at 16K). */
export const AUTOCOMPACT_BUFFER_WINDOW_RATIO = 0.065;

/** The warning shows this many tokens below the autocompact threshold (or the window share below, if smaller). */
export const WARNING_THRESHOLD_BUFFER_TOKENS = 20_000;

/** The error state starts this many tokens below the autocompact threshold (same as the warning). */
export const ERROR_THRESHOLD_BUFFER_TOKENS = 20_000;

/** Share of the window the warning and error buffers take at most: 10 % (20K at 200K). */
export const WARNING_BUFFER_WINDOW_RATIO = 0.1;

/** Requests are refused this many tokens below the effective window (room for a manual /compact). */
export const BLOCKING_BUFFER_TOKENS = 3_000;

/** Share of the window the blocking buffer takes at most: 1.5 % (3K at 200K). */
export const BLOCKING_BUFFER_WINDOW_RATIO = 0.015;

/** Context collapse commits staged spans at this fraction of the effective window. */
export const COLLAPSE_COMMIT_RATIO = 0.9;

/** Context collapse forces an urgent ctx-agent run at this fraction of the effective window. */
export const COLLAPSE_URGENT_RATIO = 0.95;

/**
 * Share of the autocompact threshold a compaction must bring the context down to (system, tools, summary,
 * kept tail, restored files, memory): 40 %. Measured with bench/compaction-pressure.ts (`--quick` grid plus the
 * three `--repro` sessions, 18 cells, defaults / autocompact only, total cost in input-token equivalents):
 * 0.35: 7.97M / 10.10M, 18 / 42 compactions; 0.40: 7.98M / 10.13M, 17 / 43; 0.50: 8.23M / 10.21M, 14 / 43;
 * 0.65: no cheaper than 0.50 on the repro sessions. A lower target keeps less and compacts a little more
 * often, but each compaction rewrites less and lasts longer; below 0.40 the gain is gone.
 */
export const DEFAULT_COMPACTION_TARGET_RATIO = 0.4;

/**
 * The least share of the room above the fixed prefix (system prompt and tools, which no compaction removes) a
 * compaction target leaves the conversation: 20 %. Where the prefix is under 25 % of the threshold (every
 * ordinary session) the plain 40 % target is larger and this changes nothing. Where a small window or a server
 * that counts many times the estimate makes the prefix most of the threshold (40K counted ×10: a 25K prefix
 * under a 29.4K threshold), 40 % of the threshold is below the prefix itself — a target no compaction can meet,
 * so every compaction "missed" it and the drop step cut to one round (docs/CONTEXT-BUDGET.md "The fixed prefix").
 */
export const MIN_CONVERSATION_ROOM_RATIO = 0.2;

/** `tokens`, or `ratio` of the window if that is smaller. */
function scaled(tokens: number, contextWindow: number, ratio: number): number {
  return Math.min(tokens, Math.floor(contextWindow * ratio));
}

/** Output reserved out of `contextWindow` for `model`. */
export function outputReserveTokens(model: string, contextWindow: number): number {
  return Math.min(
    modelLimits(model).maxOutputTokens,
    scaled(MAX_OUTPUT_TOKENS_RESERVED, contextWindow, OUTPUT_RESERVE_WINDOW_RATIO),
  );
}

/** The autocompact buffer at `contextWindow`. */
export function autoCompactBufferTokens(contextWindow: number): number {
  return scaled(AUTOCOMPACT_BUFFER_TOKENS, contextWindow, AUTOCOMPACT_BUFFER_WINDOW_RATIO);
}

/** The window minus the output reserve: what the prompt may use. */
export function effectiveContextWindow(model: string, contextWindow: number): number {
  return contextWindow - outputReserveTokens(model, contextWindow);
}

/** Token count at which proactive autocompact runs (effective − 13,000 at 200K and up). */
export function autoCompactThreshold(model: string, contextWindow: number): number {
  return effectiveContextWindow(model, contextWindow) - autoCompactBufferTokens(contextWindow);
}

/**
 * The context a compaction must leave at most: DEFAULT_COMPACTION_TARGET_RATIO of the autocompact threshold, or,
 * when the fixed prefix (`fixedTokens`: system and tools, estimate units) is so large that this leaves the
 * conversation less than MIN_CONVERSATION_ROOM_RATIO of the room above it, the prefix plus that share.
 */
export function compactionTargetTokens(model: string, contextWindow: number, fixedTokens = 0): number {
  return compactionTargetFrom(autoCompactThreshold(model, contextWindow), fixedTokens);
}

/** `compactionTargetTokens` for an autocompact `threshold` already worked out (context-thresholds.ts). */
export function compactionTargetFrom(threshold: number, fixedTokens = 0): number {
  const plain = Math.floor(threshold * DEFAULT_COMPACTION_TARGET_RATIO);
  const fixed = Math.min(Math.max(0, fixedTokens), threshold);
  return Math.max(plain, Math.floor(fixed + (threshold - fixed) * MIN_CONVERSATION_ROOM_RATIO));
}

/** The warning (and error) buffer below the autocompact threshold at `contextWindow`. */
export function warningBufferTokens(contextWindow: number): number {
  return scaled(WARNING_THRESHOLD_BUFFER_TOKENS, contextWindow, WARNING_BUFFER_WINDOW_RATIO);
}

/** Token count at which the UI warns (autocompact − 20,000 at 200K and up). */
export function warningThreshold(model: string, contextWindow: number): number {
  return (
    autoCompactThreshold(model, contextWindow) -
    scaled(WARNING_THRESHOLD_BUFFER_TOKENS, contextWindow, WARNING_BUFFER_WINDOW_RATIO)
  );
}

/** Token count at which the UI shows an error (autocompact − 20,000 at 200K and up). */
export function errorThreshold(model: string, contextWindow: number): number {
  return (
    autoCompactThreshold(model, contextWindow) -
    scaled(ERROR_THRESHOLD_BUFFER_TOKENS, contextWindow, WARNING_BUFFER_WINDOW_RATIO)
  );
}

/** Token count at which a request is refused instead of sent (effective − 3,000 at 200K and up). */
export function blockingLimit(model: string, contextWindow: number): number {
  return (
    effectiveContextWindow(model, contextWindow) -
    scaled(BLOCKING_BUFFER_TOKENS, contextWindow, BLOCKING_BUFFER_WINDOW_RATIO)
  );
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
export function tokenCountWithEstimation(
  messages: readonly MessageEntry[],
  /** The server's count per estimated token (context-budget.ts): the reported usage in estimate units. Default 1. */
  ratio = 1,
): number {
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
    const measured = ratio === 1 ? reported : Math.ceil(reported / ratio);
    return measured + estimateEntriesTokens(messages.slice(index + 1));
  }
  return estimateEntriesTokens(messages);
}
