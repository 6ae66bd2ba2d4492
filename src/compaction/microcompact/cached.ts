/**
 * Microcompact, cached path: the message bytes never change. Old compactable results are dropped
 * server-side by `cache_edits` deletes naming their `cache_reference` (= tool_use_id); request assembly
 * pins each new block to its message index and re-sends it there every turn.
 *
 * Deletes are paced, oldest first: a turn deletes no more than the tokens added since the previous request
 * plus 5 % of the prefix before them, so the cached read never falls below 95 % of the previous request's
 * (what break detection would call a cache break), and a batch under `DEFAULT_MIN_CACHED_BATCH_TOKENS` is
 * not worth a block.
 */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../../messages/index.js";
import { isPinOrCompactBoundary } from "../../messages/index.js";
import { filterGrowing } from "../../timeline/index.js";
import { estimateEntryTokens } from "../budget/entry-tokens.js";
import { compactableResults } from "../results/compactable-results.js";

/** Smallest cached-path batch worth a cache_edits block (the size of a drop break detection notices). */
export const DEFAULT_MIN_CACHED_BATCH_TOKENS = 2_000;

/** Share of the previous cached read a turn's deletes must leave intact. */
export const DEFAULT_CACHE_READ_RETENTION = 0.95;

import { uniqueByToolId } from "./time-based.js";

/**
 * References already deleted by cache_edits pinned since the last compaction: never deleted twice. (Pins from
 * before a compact boundary are not re-sent, so what they deleted is live again in the new layout.)
 */
export function deletedCacheReferences(entries: readonly TimelineEntry[]): Set<string> {
  let deleted = new Set<string>();
  for (const entry of filterGrowing(entries, isPinOrCompactBoundary)) {
    if (entry.type !== "cache-edit-pin") deleted = new Set();
    else for (const edit of entry.block.edits) deleted.add(edit.cache_reference);
  }
  return deleted;
}

export interface CachedDeleteInput {
  /** The API view as it will be assembled (time-based clears applied). */
  view: readonly MessageEntry[];
  /** Already floored at MIN_KEEP_RECENT by the caller. */
  keepRecent: number;
  /** Smallest batch worth emitting. Default `DEFAULT_MIN_CACHED_BATCH_TOKENS`. */
  minBatchTokens?: number;
  compactableTools: ReadonlySet<string>;
  /** From `deletedCacheReferences`. */
  alreadyDeleted: ReadonlySet<string>;
  /** Cleared client-side by the time-based path: deleting them would save nothing. */
  alreadyCleared: ReadonlySet<string>;
}

export interface CachedDeleteBatch {
  deletes: CacheEditDelete[];
  toolIds: string[];
  tokensSaved: number;
}

/** Index of the first entry of the final message group (after the last assistant): not yet in the cached prefix. */
function tailStart(view: readonly MessageEntry[]): number {
  for (let index = view.length - 1; index >= 0; index--) if (view[index]!.type === "assistant") return index + 1;
  return 0;
}

/** Start of the last response's entries: what the previous request did not yet contain. */
function lastResponseStart(view: readonly MessageEntry[]): number {
  let index = view.length - 1;
  while (index >= 0 && view[index]!.type !== "assistant") index--;
  if (index < 0) return view.length;
  const last = view[index]!;
  const messageId = last.type === "assistant" ? last.message.id : "";
  while (index > 0) {
    const previous = view[index - 1]!;
    if (previous.type !== "assistant" || previous.message.id !== messageId) break;
    index--;
  }
  return index;
}

/** Tokens a turn may delete and still keep `DEFAULT_CACHE_READ_RETENTION` of the previous cached read. */
export function cachedDeleteBudget(view: readonly MessageEntry[]): number {
  const start = lastResponseStart(view);
  let prefix = 0;
  let growth = 0;
  for (let index = 0; index < view.length; index++) {
    const tokens = estimateEntryTokens(view[index]!);
    if (index < start) prefix += tokens;
    else growth += tokens;
  }
  return Math.floor(growth + (1 - DEFAULT_CACHE_READ_RETENTION) * prefix);
}

/** The batch of deletes to place this turn, or undefined when nothing worth a block fits the budget. */
export function planCachedDeletes(input: CachedDeleteInput): CachedDeleteBatch | undefined {
  const results = uniqueByToolId(compactableResults(input.view, input.compactableTools));
  const older = results.slice(0, Math.max(0, results.length - input.keepRecent));
  // Results in the final message carry no cache_reference yet (assembly marks only the cached prefix).
  const firstUncached = tailStart(input.view);
  const candidates = older.filter(
    (result) =>
      result.viewIndex < firstUncached &&
      !input.alreadyDeleted.has(result.toolUseId) &&
      !input.alreadyCleared.has(result.toolUseId),
  );
  const budget = cachedDeleteBudget(input.view);
  const batch: typeof candidates = [];
  let tokensSaved = 0;
  for (const candidate of candidates) {
    if (tokensSaved + candidate.tokens > budget) break;
    batch.push(candidate);
    tokensSaved += candidate.tokens;
  }
  if (batch.length === 0 || tokensSaved < (input.minBatchTokens ?? DEFAULT_MIN_CACHED_BATCH_TOKENS)) return undefined;
  return {
    deletes: batch.map((result) => ({ type: "delete", cache_reference: result.toolUseId })),
    toolIds: batch.map((result) => result.toolUseId),
    tokensSaved,
  };
}
