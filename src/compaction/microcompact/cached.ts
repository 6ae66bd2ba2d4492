/**
 * Microcompact, cached path: the message bytes never change. Old compactable results are dropped
 * server-side by `cache_edits` deletes naming their `cache_reference` (= tool_use_id); request assembly
 * pins each new block to its message index and re-sends it there every turn. Deletes are batched: nothing
 * is emitted until the clearable results are worth at least `minClearTokens`.
 */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../../messages/index.js";
import { compactableResults } from "../tool-results.js";
import { uniqueByToolId } from "./time-based.js";

/** References already deleted by pinned cache_edits blocks: never deleted twice. */
export function deletedCacheReferences(entries: readonly TimelineEntry[]): Set<string> {
  const deleted = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "cache-edit-pin") continue;
    for (const edit of entry.block.edits) deleted.add(edit.cache_reference);
  }
  return deleted;
}

export interface CachedDeleteInput {
  /** The API view as it will be assembled (time-based clears applied). */
  view: readonly MessageEntry[];
  /** Already floored at MIN_KEEP_RECENT by the caller. */
  keepRecent: number;
  minClearTokens: number;
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

/** The batch of deletes to place this turn, or undefined when the clearable total is below the threshold. */
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
  const tokensSaved = candidates.reduce((sum, result) => sum + result.tokens, 0);
  if (candidates.length === 0 || tokensSaved < input.minClearTokens) return undefined;
  return {
    deletes: candidates.map((result) => ({ type: "delete", cache_reference: result.toolUseId })),
    toolIds: candidates.map((result) => result.toolUseId),
    tokensSaved,
  };
}
