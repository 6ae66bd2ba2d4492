/**
 * How to pay for the person's pause between turns (docs/PROMPT-CACHE.md, "Pauses"). The cached prefix lives
 * 5 minutes from its last read; a longer pause makes the next request write the whole context again. Three
 * ways to pay, none always right:
 * - `expire`: do nothing; after a pause over 5 minutes the context is written again (1.25× instead of 0.1×);
 * - `one-hour`: the turn's requests write their breakpoints with the 1-hour TTL (2× instead of 1.25× for what
 *   the turn writes; which request is the turn's last is only known afterwards, so all of them), and the
 *   prefix survives pauses up to an hour;
 * - `keep-warm`: while the person is away, a one-token request re-reads the cached prefix just before it
 *   expires (0.1× the context each time), for as long as that is expected to stay cheaper than a rewrite.
 *
 * Pure: costs are in input-token equivalents (a token read from cache is 0.1, one written 1.25 or 2, an output
 * token `outputRatio`), from the gaps this person left before, with a weak prior while there are few.
 */
import { CACHE_READ_MULTIPLIER, CACHE_WRITE_1H_MULTIPLIER, CACHE_WRITE_5M_MULTIPLIER } from "../messages/index.js";
import { TTL_1H_MS, TTL_5M_MS } from "./cache-break.js";

/** Prices relative to an uncached input token (the one owner: messages/pricing.ts). */
const CACHE_PRICES = {
  read: CACHE_READ_MULTIPLIER,
  write5m: CACHE_WRITE_5M_MULTIPLIER,
  write1h: CACHE_WRITE_1H_MULTIPLIER,
};
/** A refresh goes out this long before the entry would expire (a request takes a moment to reach the server). */
export const DEFAULT_KEEP_WARM_MARGIN_MS = 30_000;
/** Keep-warm never runs longer than this after a turn unless the user sets another limit. */
export const DEFAULT_KEEP_WARM_LIMIT_MS = 60 * 60_000;
/**
 * The prior: pauses a person might take, used with `PRIOR_WEIGHT` in all until their own gaps outweigh it.
 * Spread from seconds to hours on purpose: a policy tuned to one guess is the costly mistake.
 */
export const PRIOR_GAPS_MS: readonly number[] = Object.freeze(
  [0.5, 2, 4, 8, 15, 30, 90].map((minutes) => minutes * 60_000),
);
/** Total weight of the prior against 1 per observed gap. */
export const PRIOR_WEIGHT = 0.5;
/** Observed gaps older than this many are not weighed (people change pace within a session). */
export const MAX_GAPS_WEIGHED = 12;

export type PausePolicyName = "expire" | "one-hour" | "keep-warm";

export interface PauseSituation {
  /** Tokens the cached prefix holds at the turn's end (input + cache read + cache write of its last request). */
  contextTokens: number;
  /** Tokens the coming turn is expected to write to the cache (its requests' cache writes, summed). */
  turnWriteTokens: number;
  /** Output tokens one keep-warm request is charged (1, or a thinking budget + 1). */
  refreshOutputTokens: number;
  /** Output price over input price (5 for current Claude models). */
  outputRatio: number;
  /** A cache read's price over the input price: the model's own (0.05 on Opus 5.5); default 0.1. */
  cacheReadRatio?: number;
  /** Whether the server accepts `ttl: "1h"` this session. */
  oneHourOffered: boolean;
  /** Whether keep-warm may run: interactive, a person at the terminal, not forbidden by settings. */
  keepWarmAllowed: boolean;
  /** Longest keep-warm run after a turn, in ms (DEFAULT_KEEP_WARM_LIMIT_MS). */
  keepWarmLimitMs: number;
  /** The TTL in force for requests (5 min unless one-hour is chosen). */
  refreshIntervalMs?: number;
}

/** The cost in input-token equivalents of paying for a pause of `gapMs` with a policy (beyond a plain read). */
export function pauseCost(
  policy: PausePolicyName,
  gapMs: number,
  situation: PauseSituation,
  maxRefreshes = refreshesWithin(situation.keepWarmLimitMs, situation),
): number {
  const rewrite = (CACHE_PRICES.write5m - readRatio(situation)) * situation.contextTokens;
  switch (policy) {
    case "expire":
      return gapMs > TTL_5M_MS ? rewrite : 0;
    case "one-hour":
      return (
        (CACHE_PRICES.write1h - CACHE_PRICES.write5m) * situation.turnWriteTokens + (gapMs > TTL_1H_MS ? rewrite : 0)
      );
    case "keep-warm": {
      const interval = refreshInterval(situation);
      const refreshes = Math.min(maxRefreshes, refreshesBefore(gapMs, interval));
      const lastRead = refreshes * interval;
      return refreshes * refreshCost(situation) + (gapMs > lastRead + TTL_5M_MS ? rewrite : 0);
    }
    default:
      return checkNever(policy);
  }
}

/** What one keep-warm request costs: the prefix read from cache plus its output. */
export function refreshCost(situation: PauseSituation): number {
  return readRatio(situation) * situation.contextTokens + situation.outputRatio * situation.refreshOutputTokens;
}

function readRatio(situation: PauseSituation): number {
  return situation.cacheReadRatio ?? CACHE_PRICES.read;
}

/** Time between refreshes: just under the 5-minute lifetime. */
export function refreshInterval(situation: PauseSituation): number {
  return situation.refreshIntervalMs ?? TTL_5M_MS - DEFAULT_KEEP_WARM_MARGIN_MS;
}

/** Refreshes that go out before a person who returns after `gapMs` is back (one at each whole interval). */
function refreshesBefore(gapMs: number, interval: number): number {
  return gapMs <= 0 ? 0 : Math.ceil(gapMs / interval) - 1;
}

/** How many refreshes fit in `limitMs`. */
function refreshesWithin(limitMs: number, situation: PauseSituation): number {
  return Math.floor(limitMs / refreshInterval(situation));
}

/** A weighted sample of pause lengths: the prior plus this person's recent gaps. */
export interface GapSample {
  gapsMs: readonly number[];
  weights: readonly number[];
}

/** The sample to weigh policies with: the prior at `PRIOR_WEIGHT`, each of the last observed gaps at 1. */
export function gapSample(observedGapsMs: readonly number[]): GapSample {
  const recent = observedGapsMs.slice(-MAX_GAPS_WEIGHED);
  const priorEach = PRIOR_WEIGHT / PRIOR_GAPS_MS.length;
  return {
    gapsMs: [...PRIOR_GAPS_MS, ...recent],
    weights: [...PRIOR_GAPS_MS.map(() => priorEach), ...recent.map(() => 1)],
  };
}

/** Expected cost of `policy` over the sample, counting only gaps longer than `awayMs` (the person is still away). */
function expectedCost(
  policy: PausePolicyName,
  sample: GapSample,
  situation: PauseSituation,
  maxRefreshes?: number,
  awayMs = 0,
): number {
  let total = 0;
  let weight = 0;
  for (let index = 0; index < sample.gapsMs.length; index++) {
    const gap = sample.gapsMs[index]!;
    if (gap <= awayMs) continue;
    const w = sample.weights[index]!;
    total += w * pauseCost(policy, gap, situation, maxRefreshes);
    weight += w;
  }
  return weight === 0 ? 0 : total / weight;
}

/**
 * The best number of keep-warm refreshes for this sample (`least` … the limit), by expected cost. Refreshes
 * already made are sunk: once `least` went out, plans with fewer are no longer open.
 */
function bestRefreshCount(sample: GapSample, situation: PauseSituation, awayMs = 0, least = 0): number {
  const most = refreshesWithin(situation.keepWarmLimitMs, situation);
  let best = least;
  let bestCost = Number.POSITIVE_INFINITY;
  for (let count = least; count <= most; count++) {
    const cost = expectedCost("keep-warm", sample, situation, count, awayMs);
    if (cost < bestCost - 1e-9) {
      best = count;
      bestCost = cost;
    }
  }
  return best;
}

export interface PauseChoice {
  policy: PausePolicyName;
  /** The TTL the turn's requests carry. */
  ttl: "5m" | "1h";
  /**
   * The TTL of the system prompt's markers (tools and system, the prefix every request of the project shares):
   * `ttl`, except for the cold-start hedge (`coldStartHedge`), where it is "1h" under a "5m" conversation.
   */
  prefixTtl: "5m" | "1h";
  /** For keep-warm: refreshes planned now (each is decided again when it falls due). */
  refreshes: number;
  /** Expected cost of each policy that was open, in input-token equivalents. */
  expected: Partial<Record<PausePolicyName, number>>;
  /** Whether a setting forced the choice. */
  forced: boolean;
}

/** Settings that force a policy: `cacheTtl` "5m"/"1h" and `keepWarm` "on"/"off"; "auto" leaves it to price. */
export interface PauseSettings {
  cacheTtl?: "auto" | "5m" | "1h";
  keepWarm?: "auto" | "on" | "off";
}

/** The policy for the pause after the coming turn: the cheapest expected over the person's gaps. */
export function choosePausePolicy(
  observedGapsMs: readonly number[],
  situation: PauseSituation,
  settings: PauseSettings = {},
): PauseChoice {
  const sample = gapSample(observedGapsMs);
  const keepWarmOpen = situation.keepWarmAllowed && settings.keepWarm !== "off";
  // One hour is weighed only once this person has paused longer than 5 minutes: on the prior alone a session
  // of quick turns would pay 2× on every write for pauses it never takes.
  const oneHourOpen =
    situation.oneHourOffered && settings.cacheTtl !== "5m" && observedGapsMs.some((gap) => gap > TTL_5M_MS);
  const refreshes = keepWarmOpen ? bestRefreshCount(sample, situation) : 0;
  const expected: Partial<Record<PausePolicyName, number>> = { expire: expectedCost("expire", sample, situation) };
  if (oneHourOpen) expected["one-hour"] = expectedCost("one-hour", sample, situation);
  if (keepWarmOpen) expected["keep-warm"] = expectedCost("keep-warm", sample, situation, refreshes);

  if (settings.cacheTtl === "1h" && situation.oneHourOffered)
    return { policy: "one-hour", ttl: "1h", prefixTtl: "1h", refreshes: 0, expected, forced: true };
  if (settings.keepWarm === "on" && situation.keepWarmAllowed)
    return {
      policy: "keep-warm",
      ttl: "5m",
      prefixTtl: "5m",
      refreshes: refreshesWithin(situation.keepWarmLimitMs, situation),
      expected,
      forced: true,
    };
  if (settings.cacheTtl === "5m" && settings.keepWarm !== "auto")
    return { policy: "expire", ttl: "5m", prefixTtl: "5m", refreshes: 0, expected, forced: true };

  let policy: PausePolicyName = "expire";
  for (const name of ["keep-warm", "one-hour"] as const) {
    const cost = expected[name];
    if (cost !== undefined && cost < expected[policy]! - 1e-9) policy = name;
  }
  // Keep-warm with no refresh planned is expire by another name.
  if (policy === "keep-warm" && refreshes === 0) policy = "expire";
  const hedged = policy === "expire" && coldStartHedge(observedGapsMs, situation, settings) && !keepWarmOpen;
  return {
    policy,
    ttl: policy === "one-hour" ? "1h" : "5m",
    prefixTtl: policy === "one-hour" || hedged ? "1h" : "5m",
    refreshes: policy === "keep-warm" ? refreshes : 0,
    expected,
    forced: false,
  };
}

/**
 * The cold-start hedge: before this person has been seen to pause at all (no gap of theirs, this session's or an
 * earlier one's) and with nothing to keep the cache warm (print mode), expected cost on the prior picks
 * `expire` — yet the pause that follows is unknown, and the criterion that matters is the ratio to the
 * cheapest policy in hindsight (issue 44), a minimax-regret one. On a turn that writes its whole context C,
 * with the system prompt and tools S of it: expire regrets ~1.15·C if the person is back after 5–60 minutes
 * (C rewritten at 1.25 where one hour would have read it at 0.1, then written at 2 again for the one-hour turns
 * that follow), one-hour regrets 0.75·C if they are back sooner or never — the one-shot `-p` run, the commonest
 * print session. Holding only S for an hour regrets 1.15·(C − S) in the first case and 0.75·S in the second:
 * less than expire's worst case, and a one-shot run pays only for S. So the first turn's system markers carry
 * the 1-hour TTL and its conversation 5 minutes (docs/PROMPT-CACHE.md, "The cold start"). Once one gap is seen,
 * the expected-cost choice above decides. The same prefix starts the project's next `-p` session, so a person
 * running several within the hour reads it too.
 */
export function coldStartHedge(
  observedGapsMs: readonly number[],
  situation: PauseSituation,
  settings: PauseSettings = {},
): boolean {
  return (
    observedGapsMs.length === 0 &&
    situation.oneHourOffered &&
    settings.cacheTtl !== "5m" &&
    settings.cacheTtl !== "1h" &&
    settings.keepWarm !== "on"
  );
}

/** What the cold-start hedge costs (positive) or saves (negative) beyond `expire` for a pause of `gapMs`. */
export function hedgeCost(gapMs: number, prefixTokens: number): number {
  const extraWrite = (CACHE_PRICES.write1h - CACHE_PRICES.write5m) * prefixTokens;
  const kept = gapMs > TTL_5M_MS && gapMs <= TTL_1H_MS ? (CACHE_PRICES.write5m - CACHE_PRICES.read) * prefixTokens : 0;
  return extraWrite - kept;
}

/**
 * Decided again when refresh number `refreshIndex` (1-based) falls due and the person is still away: refresh
 * only if, given they have been away this long, the best plan still includes this refresh.
 */
export function refreshStillPays(
  observedGapsMs: readonly number[],
  situation: PauseSituation,
  refreshIndex: number,
  forced: boolean,
): boolean {
  const interval = refreshInterval(situation);
  if (refreshIndex * interval > situation.keepWarmLimitMs) return false;
  if (forced) return true;
  const awayMs = refreshIndex * interval;
  const sample = gapSample(observedGapsMs);
  // Nothing in the sample is this long: the person is away longer than ever seen; stop paying.
  if (!sample.gapsMs.some((gap) => gap > awayMs)) return false;
  return bestRefreshCount(sample, situation, awayMs, refreshIndex - 1) >= refreshIndex;
}

/** The cheapest policy in hindsight for one pause, and what each cost. */
export function hindsight(
  gapMs: number,
  situation: PauseSituation,
): { cheapest: PausePolicyName; costs: Record<PausePolicyName, number> } {
  const costs: Record<PausePolicyName, number> = {
    expire: pauseCost("expire", gapMs, situation),
    "one-hour": situation.oneHourOffered ? pauseCost("one-hour", gapMs, situation) : Number.POSITIVE_INFINITY,
    "keep-warm": situation.keepWarmAllowed ? pauseCost("keep-warm", gapMs, situation) : Number.POSITIVE_INFINITY,
  };
  let cheapest: PausePolicyName = "expire";
  for (const name of ["keep-warm", "one-hour"] as const) if (costs[name] < costs[cheapest]) cheapest = name;
  return { cheapest, costs };
}

function checkNever(value: never): never {
  throw new Error(`unknown pause policy: ${String(value)}`);
}
