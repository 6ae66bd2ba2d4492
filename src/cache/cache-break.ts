/**
 * What a prompt-cache break is, and the one rule that decides it, shared by the live detector and by
 * `threadline inspect` so both call the same drops breaks.
 */

/** A break: cache read fell below this fraction of the previous request's cache read… */
export const DEFAULT_BREAK_RATIO = 0.95;

/** …and fell by at least this many tokens (small wobbles are not worth a notice). */
export const DEFAULT_MIN_DROP_TOKENS = 2_000;

/** Default cache TTL: an entry not read for this long is gone. */
export const TTL_5M_MS = 5 * 60 * 1000;

/** The extended TTL, for requests whose cache_control asks for `ttl: "1h"`. */
export const TTL_1H_MS = 60 * 60 * 1000;

export type CacheBreakKind = "client_change" | "ttl_expiry" | "server_side";

/** One reported drop in cache reads, with why it happened. */
export interface CacheBreak {
  /** "main" or a subagent id. */
  scope: string;
  previousCacheRead: number;
  cacheRead: number;
  /** previousCacheRead − cacheRead. */
  drop: number;
  kind: CacheBreakKind;
  /** Human words, e.g. "system prompt changed", "tool Read changed (description)", "model changed: a → b". */
  causes: string[];
  /** Unified before/after diff of system prompt and tools, for client changes. */
  diffPath?: string;
  /** Time between the previous request and this one. */
  gapMs: number;
}

/** Thresholds for `isCacheBreak`. */
export interface BreakRuleOptions {
  /** Defaults to `DEFAULT_BREAK_RATIO`. */
  ratio?: number;
  /** Defaults to `DEFAULT_MIN_DROP_TOKENS`. */
  minDropTokens?: number;
}

/** Whether going from `previousCacheRead` to `cacheRead` is a break: below ratio × previous and a big enough drop. */
export function isCacheBreak(previousCacheRead: number, cacheRead: number, options: BreakRuleOptions = {}): boolean {
  const ratio = options.ratio ?? DEFAULT_BREAK_RATIO;
  const minDrop = options.minDropTokens ?? DEFAULT_MIN_DROP_TOKENS;
  return cacheRead < previousCacheRead * ratio && previousCacheRead - cacheRead >= minDrop;
}

/** "6m 12s" style duration for notices and reports. */
export function formatDuration(milliseconds: number): string {
  const totalSeconds = Math.max(0, Math.round(milliseconds / 1000));
  const hours = Math.floor(totalSeconds / 3600);
  const minutes = Math.floor((totalSeconds % 3600) / 60);
  const seconds = totalSeconds % 60;
  if (hours > 0) return `${hours}h ${minutes}m`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}
