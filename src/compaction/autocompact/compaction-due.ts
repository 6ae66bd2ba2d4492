import type { CompactionInput } from "../types.js";

/**
 * Growth the context needs after an auto-compaction before the next: 25 % of the autocompact threshold. A
 * compaction that reached its target (50 %) is past this long before the threshold; one that missed cannot
 * fire again on the next request.
 */
export const DEFAULT_MIN_GROWTH_RATIO = 0.25;

/** Consecutive failed auto-compactions after which auto-compaction stops for the session: 3. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

/** The token count at which this pass compacts: the autocompact threshold, or the blocking limit under collapse. */
export function autoCompactTriggerTokens(input: Pick<CompactionInput, "thresholds" | "settings">): number {
  return input.settings.collapse ? input.thresholds.estimate.blocking : input.thresholds.estimate.autocompact;
}

/**
 * Whether a context of `tokens` makes autocompact summarise this pass: the tier is on with a model to ask, the
 * context is at its trigger, the breaker is closed and the last compaction is not too recent.
 */
export function compactionDue(input: CompactionInput, tokens: number): boolean {
  if (!input.settings.autocompact || input.fork === undefined) return false;
  if (tokens < autoCompactTriggerTokens(input)) return false;
  const session = input.autoCompact;
  if (session === undefined) return true;
  if (session.consecutiveFailures >= DEFAULT_MAX_CONSECUTIVE_FAILURES) return false;
  const last = session.lastCompactionTokens;
  const threshold = input.thresholds.estimate.autocompact;
  return last === undefined || tokens >= last + threshold * DEFAULT_MIN_GROWTH_RATIO;
}
