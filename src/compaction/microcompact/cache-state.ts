/**
 * What the prompt cache holds for the conversation as a pass starts, for the clears that rewrite it
 * (docs/PROMPT-CACHE.md, "When history is rewritten"): what a rewrite costs at this model's and this TTL's
 * prices, and from how long an idle time on the cache is surely cold, so a clear is free.
 */
import {
  CACHE_WRITE_1H_MULTIPLIER,
  CACHE_WRITE_5M_MULTIPLIER,
  modelLimits,
  type PauseChoiceRecord,
  type TimelineEntry,
} from "../../messages/index.js";
import type { CachePrices } from "./batch-clear.js";

const FIVE_MINUTES_MS = 5 * 60_000;
const ONE_HOUR_MS = 60 * 60_000;

/**
 * Longest keep-warm run after a turn: the pause policy's default limit (cache/pause-policy.ts
 * DEFAULT_KEEP_WARM_LIMIT_MS, restated: compaction/ does not import cache/). A turn that chose keep-warm may have
 * had its cache refreshed until then.
 */
export const KEEP_WARM_LONGEST_MS = 60 * 60_000;

/** A cache read and a write at `ttl`, as multiples of `model`'s input price (the model table's read rate). */
export function cachePrices(model: string, ttl: "5m" | "1h" | undefined): CachePrices {
  return {
    read: modelLimits(model).cacheReadMultiplier,
    write: ttl === "1h" ? CACHE_WRITE_1H_MULTIPLIER : CACHE_WRITE_5M_MULTIPLIER,
  };
}

/** The last turn's `pause-choice` record: the TTL its requests carried and how its pause was paid. */
function lastPauseChoice(entries: readonly TimelineEntry[]): PauseChoiceRecord | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "pause-choice") return entry;
  }
  return undefined;
}

/**
 * Idle time (since the last response) after which the conversation's cache entries are surely gone: the TTL
 * the last turn's requests wrote them with (its `pause-choice` record; without one, the TTL requests use now),
 * plus the longest keep-warm run when that turn chose keep-warm (each refresh reads the entries again), and
 * never more than `longestGapMs` (the time-based clear's own bound, 60 minutes by default) unless keep-warm
 * may still hold them.
 */
export function coldAfterMs(
  entries: readonly TimelineEntry[],
  currentTtl: "5m" | "1h" | undefined,
  longestGapMs: number,
): number {
  const choice = lastPauseChoice(entries);
  const ttlMs = (choice?.ttl ?? currentTtl) === "1h" ? ONE_HOUR_MS : FIVE_MINUTES_MS;
  if (choice?.policy === "keep-warm") return KEEP_WARM_LONGEST_MS + ttlMs;
  return Math.min(longestGapMs, ttlMs);
}
