/**
 * Microcompact on the public path: client-side clearing in big batches, only when it pays. A clear replaces
 * old tool results with placeholders threadline chooses and records, so every later request carries the same
 * bytes; the request that first carries them pays a cache write (1.25×) instead of a read (the model's own
 * rate: 0.1× on most models, 0.05× on Opus 5.5, 0.025× on Fable 5.1) for everything after the first cleared
 * block, and each later request reads fewer tokens.
 *
 * The rule is rent-or-buy. Keeping an old result costs a cache read (the model's read rate × its tokens) on
 * every request ("rent"); clearing costs one rewrite ((1.25 − that rate) × the tokens from the first cleared
 * block on, minus what is cleared: "buy"; 1.15× at the standard 0.1). A batch fires once the rent already paid on the clearable results since each left the
 * last-N window reaches the rewrite price. Under steady growth that is the batch size that minimises cost
 * per request (the economic-lot-size square root), and it is never worse than twice the best choice made
 * with hindsight. Both prices are this model's and this TTL's (`prices`, from cache-state.ts `cachePrices`:
 * the model table's read rate, the write rate of the TTL the markers carry, 2 for 1 hour), so the break-even
 * `(w − r)(F − S) / (r S)` requests of docs/PROMPT-CACHE.md "When history is rewritten" holds for each. A forward estimate (0.1 × cleared × expected remaining requests, the remaining requests
 * taken as the requests made so far) fired every ~4 steps in bench/microcompact-session.ts, each time
 * rewriting the last N results: measured worse. Hysteresis on top: the clearable tokens must also be a
 * large share of the context, and at least `minClearTokens`.
 *
 * Measured against alternatives on the 220-step session at 200K (bench/compaction-tiers.ts, defaults with
 * session memory off while measuring: 2.51M): the share (0.1-0.5) never binds there, the rent condition does;
 * firing at 0.7× the rewrite price cost 2.66M (23 re-reads), at 1.4× 2.46M, 1.7× 2.51M, 2× 2.65M, 3× 2.70M,
 * 4× 2.80M; pricing the rewrite without the tail the request writes anyway (the newest result) fired sooner:
 * 2.65M, 23 re-reads. The spread comes from where batches fall against the session's 11-step tasks (re-reads
 * 5-23: an Edit needs the file its task read first), not from a better rule, so the factor stays 1. Firing
 * cheaper at a new prompt than mid-task gained ~1 %: not kept.
 *
 * The rewrite price assumes the prefix before the first cleared block is read from the cache. Until relay
 * markers (`relayBefore`, placed by request/cache-breakpoints.ts) it was not: that block sits 30-39 blocks
 * from the end, beyond the server's ~20-block lookback of the last breakpoint, so every batch rewrote the
 * whole conversation after the system prompt and the rule under-priced each one. With the relays the
 * request reads exactly up to the first cleared block, as priced: the 200K defaults went from 2,382,290 to
 * 2,260,268 with the same 11 re-reads and nothing lost (bench/compaction-tiers.ts, this session). Pricing
 * without the newest result the request writes anyway was measured again with the relays: 2,359,398 and 23
 * re-reads (it fires sooner), so the tail stays in the price.
 */
import { CACHE_READ_MULTIPLIER, CACHE_WRITE_5M_MULTIPLIER, type MessageEntry } from "../../messages/index.js";
import { estimateEntryTokens } from "../budget/entry-tokens.js";
import { clearSavings, compactableResults, type ToolResultRef } from "../results/compactable-results.js";
import { uniqueByToolId } from "./time-based.js";

/** Smallest share of the context the clearable results must make up before a batch fires: 0.3. */
export const DEFAULT_BATCH_MIN_SHARE = 0.3;

export interface BatchClearInput {
  /** The API view with earlier client-side clears applied. */
  view: readonly MessageEntry[];
  /** Most recent compactable results always kept verbatim (already floored). */
  keepRecent: number;
  compactableTools: ReadonlySet<string>;
  alreadyCleared: ReadonlySet<string>;
  /** Smallest batch worth a rewrite, in tokens. */
  minClearTokens: number;
  /** Share of the context the clearable tokens must reach. Default DEFAULT_BATCH_MIN_SHARE. */
  minShare?: number;
  /** Results kept verbatim whatever their age (kept-files.ts: the files the work is about), asked when needed. Default none. */
  kept?: () => ReadonlySet<string>;
  /**
   * The cache's prices as multiples of the input price: a read (the model table's `cacheReadMultiplier`) and a
   * write at the TTL the conversation's markers carry (1.25 for 5 minutes, 2 for 1 hour). Default the 5-minute
   * write and the standard 0.1 read.
   */
  prices?: CachePrices;
}

/** What the cache charges, as multiples of the input price. */
export interface CachePrices {
  read: number;
  write: number;
}

export interface BatchClear {
  toolIds: string[];
  tokensSaved: number;
  /** The rewrite's price and the rent already paid for keeping the batch, in input-token equivalents. */
  rewriteCost: number;
  rentPaid: number;
  /**
   * Where the request that carries this clear needs cache markers (tool_use_ids; the marker goes on the block
   * just before each one's result): before the first cleared result, where the unchanged prefix ends (the
   * previous batch wrote an entry exactly there, or the requests before the first batch did, one every
   * round), and before the first result kept verbatim, where the next batch's unchanged prefix will end.
   * Without them the server finds no entry within its ~20-block lookback of the last marker (the first
   * cleared result sits 30-39 blocks back) and the whole conversation after the system prompt is rewritten.
   */
  relayBefore: string[];
}

/** For each view index, the number of model responses that start after it (the requests that re-read it). */
function responsesAfter(view: readonly MessageEntry[]): number[] {
  const after = new Array<number>(view.length).fill(0);
  let count = 0;
  let lastId: string | undefined;
  for (let index = view.length - 1; index >= 0; index--) {
    after[index] = count;
    const entry = view[index]!;
    if (entry.type === "assistant" && !entry.isApiErrorMessage && entry.message.id !== lastId) {
      count++;
      lastId = entry.message.id;
    }
  }
  return after;
}

/** The batch to clear now, or undefined when none pays for its rewrite. */
export function planBatchClear(input: BatchClearInput): BatchClear | undefined {
  const results = uniqueByToolId(compactableResults(input.view, input.compactableTools));
  const cut = Math.max(0, results.length - input.keepRecent);
  const older = results.slice(0, cut);
  if (older.length === 0) return undefined;
  const kept = input.kept?.() ?? new Set<string>();
  const clearable = (result: ToolResultRef) =>
    !input.alreadyCleared.has(result.toolUseId) && !kept.has(result.toolUseId);
  const candidates = older.filter(clearable);
  if (candidates.length === 0) return undefined;
  const prices = input.prices ?? { read: CACHE_READ_MULTIPLIER, write: CACHE_WRITE_5M_MULTIPLIER };
  const tokensSaved = candidates.reduce((sum, result) => sum + clearSavings(result), 0);
  if (tokensSaved < input.minClearTokens) return undefined;
  let total = 0;
  let fromFirst = 0;
  const firstIndex = candidates[0]!.viewIndex;
  for (let index = 0; index < input.view.length; index++) {
    const tokens = estimateEntryTokens(input.view[index]!);
    total += tokens;
    if (index >= firstIndex) fromFirst += tokens;
  }
  if (tokensSaved < (input.minShare ?? DEFAULT_BATCH_MIN_SHARE) * total) return undefined;
  // Result i left the last-N window when result i + keepRecent arrived; every response since re-read it.
  const after = responsesAfter(input.view);
  let rentPaid = 0;
  for (let index = 0; index < cut; index++) {
    const result = results[index]!;
    if (!clearable(result)) continue;
    const pushedOutBy = results[index + input.keepRecent]!;
    rentPaid += prices.read * clearSavings(result) * after[pushedOutBy.viewIndex]!;
  }
  const rewriteCost = (prices.write - prices.read) * (fromFirst - tokensSaved);
  if (rentPaid < rewriteCost) return undefined;
  const relayBefore = [candidates[0]!.toolUseId];
  const firstKept = results[cut];
  if (firstKept !== undefined) relayBefore.push(firstKept.toolUseId);
  return { toolIds: candidates.map((result) => result.toolUseId), tokensSaved, rewriteCost, rentPaid, relayBefore };
}
