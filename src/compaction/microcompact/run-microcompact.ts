/**
 * Tier 2, one pass: picks the path (time-based when the cache is cold, else cache edits when the provider
 * supports them, else the public `context_management` edit) and returns the projected view plus records.
 */
import type { CacheEditDelete, MessageEntry, SystemEntry, TimelineEntry } from "../../messages/index.js";
import { createSystemEntry } from "../../messages/index.js";
import type { ContextManagementEdit } from "../../request/index.js";
import { compactionDue } from "../autocompact/compaction-due.js";
import { tokenCountWithEstimation } from "../budget/thresholds.js";
import type { RecordChain } from "../record-chain.js";
import { applyClearedToolResults, compactableResults } from "../results/compactable-results.js";
import { DEFAULT_NEVER_CLEARED_TOOLS, effectiveBatchKeepRecent, effectiveKeepRecent } from "../settings.js";
import type { CompactionInput } from "../types.js";
import { planBatchClear } from "./batch-clear.js";
import { cachePrices, coldAfterMs } from "./cache-state.js";
import { deletedCacheReferences, planCachedDeletes } from "./cached.js";
import { clearToolUsesEdit, contextManagementTrigger, excludedToolNames } from "./context-management.js";
import { DEFAULT_KEPT_FILES_WINDOW_SHARE, keptFileResults } from "./kept-files.js";
import { planTimeBasedClear, timeClearedToolIds } from "./time-based.js";

export interface MicrocompactResult {
  messages: MessageEntry[];
  newCacheEdits: CacheEditDelete[];
  cacheEditing: boolean;
  contextManagement?: { edits: ContextManagementEdit[] };
  expectCacheDrop?: string;
  /** Relay cache markers for this request's batch clear (see BatchClear.relayBefore). */
  relayBreakpoints?: string[];
  /**
   * Records the cached deletes in `newCacheEdits` (a microcompact_boundary). Called by the pass only when the
   * edits are sent: a collapse commit or a compaction later in the same pass replaces the messages they name.
   */
  recordCachedDeletes?: (chain: RecordChain) => void;
}

/** Whether cache editing is used: THREADLINE_CACHE_EDITS wins, "auto" asks the provider. */
export function cacheEditingEnabled(input: Pick<CompactionInput, "settings" | "capabilities">): boolean {
  switch (input.settings.cacheEdits) {
    case "on":
      return true;
    case "off":
      return false;
    case "auto":
      return input.capabilities.cacheEdits;
  }
}

/**
 * Runs microcompact over `entries` (the timeline plus records earlier tiers made this pass) whose API view is
 * `view`. Must only be called when the tier is on.
 */
export function runMicrocompact(
  input: CompactionInput,
  entries: readonly TimelineEntry[],
  view: readonly MessageEntry[],
  chain: RecordChain,
): MicrocompactResult {
  const keepRecent = effectiveKeepRecent(input.settings);
  const cleared = timeClearedToolIds(entries);
  const projected = applyClearedToolResults(view, cleared);
  // Asked only by a planner about to clear (a scan of the view).
  let keptIds: Set<string> | undefined;
  const kept = (): ReadonlySet<string> => {
    keptIds ??= keptFileResults(
      projected,
      compactableResults(projected, input.compactableTools),
      input.fileChangingTools ?? new Map(),
      Math.floor(input.thresholds.estimate.window * DEFAULT_KEPT_FILES_WINDOW_SHARE),
    );
    return keptIds;
  };
  const timeClear = planTimeBasedClear({
    view: projected,
    now: input.now,
    gapMs: coldAfterMs(entries, input.cacheTtl, input.settings.timeBasedGapMs),
    keepRecent,
    compactableTools: input.compactableTools,
    alreadyCleared: cleared,
    kept,
  });
  let expectCacheDrop: string | undefined;
  if (timeClear !== undefined) {
    const preTokens = tokenCountWithEstimation(projected, input.tokenRatio);
    const count = timeClear.toolIds.length;
    chain.push(
      boundaryRecord(
        chain,
        `Cleared ${plural(count)} after ${Math.round(timeClear.idleMs / 60_000)} min idle (~${timeClear.tokensSaved} tokens)`,
        "time",
        preTokens,
        timeClear,
      ),
    );
    for (const id of timeClear.toolIds) cleared.add(id);
    expectCacheDrop = `microcompact: cleared ${count} old tool results after ${Math.round(timeClear.idleMs / 60_000)} min idle`;
  }
  // Projected again only when this turn cleared more.
  const messages = timeClear === undefined ? projected : applyClearedToolResults(view, cleared);
  const result: MicrocompactResult = { messages, newCacheEdits: [], cacheEditing: false };
  if (expectCacheDrop !== undefined) result.expectCacheDrop = expectCacheDrop;
  if (timeClear !== undefined && timeClear.relayBefore.length > 0) result.relayBreakpoints = timeClear.relayBefore;

  if (cacheEditingEnabled(input)) {
    result.cacheEditing = true;
    // A cold cache was just rewritten client-side; deleting from it would save nothing this turn.
    if (timeClear !== undefined) return result;
    const batch = planCachedDeletes({
      view: messages,
      keepRecent,
      compactableTools: input.compactableTools,
      alreadyDeleted: deletedCacheReferences(entries),
      alreadyCleared: cleared,
    });
    if (batch === undefined) return result;
    result.newCacheEdits = batch.deletes;
    const count = batch.toolIds.length;
    const preTokens = tokenCountWithEstimation(messages, input.tokenRatio);
    result.recordCachedDeletes = (records) =>
      records.push(
        boundaryRecord(
          records,
          `Deleted ${plural(count)} from the prompt cache (~${batch.tokensSaved} tokens)`,
          "cached",
          preTokens,
          batch,
        ),
      );
    return result;
  }

  if (!input.settings.serverClearToolUses) {
    const batch = planBatchClear({
      view: messages,
      keepRecent: effectiveBatchKeepRecent(input.settings),
      compactableTools: input.compactableTools,
      alreadyCleared: cleared,
      minClearTokens: input.settings.minClearTokens,
      kept,
      prices: cachePrices(input.model, input.cacheTtl),
    });
    if (batch === undefined) return result;
    const preTokens = tokenCountWithEstimation(messages, input.tokenRatio);
    // A compaction this pass rewrites the conversation anyway; clearing first would only make its summary
    // request (a cache-safe fork of the last request) write what it could have read (compaction-due.ts). Judged
    // on the count autocompact sees: the last reported usage, which still holds what a clear would save.
    if (compactionDue(input, preTokens)) return result;
    const count = batch.toolIds.length;
    chain.push(
      boundaryRecord(
        chain,
        `Cleared ${plural(count)} (~${batch.tokensSaved} tokens): ~${Math.round(batch.rentPaid)} already paid to keep them outweighs a ~${Math.round(batch.rewriteCost)} rewrite`,
        "batch",
        preTokens,
        batch,
      ),
    );
    for (const id of batch.toolIds) cleared.add(id);
    result.messages = applyClearedToolResults(view, cleared);
    result.expectCacheDrop = `microcompact: cleared ${count} old tool results in one batch`;
    result.relayBreakpoints = batch.relayBefore;
    return result;
  }

  if (input.capabilities.contextManagement) {
    const edit = clearToolUsesEdit({
      keepRecent,
      minClearTokens: input.settings.minClearTokens,
      triggerTokens: contextManagementTrigger(input.settings.contextManagementTriggerTokens, input.thresholds),
      excludeTools: excludedToolNames(input.toolNames ?? [], DEFAULT_NEVER_CLEARED_TOOLS, input.compactableTools),
    });
    result.contextManagement = { edits: [edit] };
  }
  return result;
}

/** "1 old tool result", "3 old tool results". */
function plural(count: number): string {
  return `${count} old tool result${count === 1 ? "" : "s"}`;
}

/** The microcompact_boundary record of one clear: what it says, what triggered it, and what it cleared. */
function boundaryRecord(
  chain: RecordChain,
  text: string,
  trigger: "time" | "cached" | "batch",
  preTokens: number,
  cleared: { tokensSaved: number; toolIds: string[] },
): SystemEntry {
  return createSystemEntry(chain.context(), "microcompact_boundary", text, {
    microcompactMetadata: { trigger, preTokens, tokensSaved: cleared.tokensSaved, compactedToolIds: cleared.toolIds },
  });
}
