/**
 * Microcompact on the public path: client-side clearing in big batches, only when it pays. A clear replaces
 * old tool results with placeholders threadline chooses and records, so every later request carries the same
 * bytes; the request that first carries them pays a cache write (1.25×) instead of a read (0.1×) for
 * everything after the first cleared block, and each later request reads fewer tokens. So a batch fires when
 *   saving  = 0.1 × cleared tokens × expected remaining requests
 * beats
 *   rewrite = (1.25 − 0.1) × tokens from the first cleared block to the end,
 * and (hysteresis) only when the clearable tokens are a large share of the context, so one rewrite buys many
 * cheap requests and the cleared set never slides by one. The expected remaining requests are estimated as
 * the requests the session has made so far (a session that has run R requests tends to run about R more),
 * never fewer than DEFAULT_MIN_EXPECTED_REMAINING_REQUESTS.
 */
import type { MessageEntry } from "../../messages/index.js";
import { estimateEntryTokens } from "../entry-tokens.js";
import { clearSavings, compactableResults } from "../tool-results.js";
import { uniqueByToolId } from "./time-based.js";

/** Smallest share of the context the clearable results must make up before a batch fires: 0.3. */
export const DEFAULT_BATCH_MIN_SHARE = 0.3;
/** Fewest requests a batch is assumed to pay back over: 8. */
export const DEFAULT_MIN_EXPECTED_REMAINING_REQUESTS = 8;
/** Price of a cache read and of a 5-minute cache write, relative to uncached input. */
export const CACHE_READ_PRICE = 0.1;
export const CACHE_WRITE_PRICE = 1.25;

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
  /** Requests the batch is expected to pay back over. Default: estimated from the view. */
  expectedRemainingRequests?: number;
}

export interface BatchClear {
  toolIds: string[];
  tokensSaved: number;
  /** Estimated rewrite cost and saving, in input-token equivalents. */
  rewriteCost: number;
  projectedSaving: number;
}

/** Main-loop responses in the view: the requests made since the last compaction. */
function responsesIn(view: readonly MessageEntry[]): number {
  const ids = new Set<string>();
  for (const entry of view) if (entry.type === "assistant" && !entry.isApiErrorMessage) ids.add(entry.message.id);
  return ids.size;
}

/** The batch to clear now, or undefined when none pays for its rewrite. */
export function planBatchClear(input: BatchClearInput): BatchClear | undefined {
  const results = uniqueByToolId(compactableResults(input.view, input.compactableTools));
  const older = results.slice(0, Math.max(0, results.length - input.keepRecent));
  const candidates = older.filter((result) => !input.alreadyCleared.has(result.toolUseId));
  if (candidates.length === 0) return undefined;
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
  const remaining =
    input.expectedRemainingRequests ?? Math.max(DEFAULT_MIN_EXPECTED_REMAINING_REQUESTS, responsesIn(input.view));
  const projectedSaving = CACHE_READ_PRICE * tokensSaved * remaining;
  const rewriteCost = (CACHE_WRITE_PRICE - CACHE_READ_PRICE) * (fromFirst - tokensSaved);
  if (projectedSaving <= rewriteCost) return undefined;
  return { toolIds: candidates.map((result) => result.toolUseId), tokensSaved, rewriteCost, projectedSaving };
}
