/**
 * Microcompact, time-based path: once the prompt cache is surely cold (≥ 60 min since the last assistant
 * message), changing bytes costs nothing, so all but the most recent compactable results are replaced by
 * a placeholder. The clearing is recorded in a `microcompact_boundary` and re-applied on every later turn,
 * so the bytes change once and then stay stable.
 */
import type { MessageEntry, SystemEntry, TimelineEntry } from "../../messages/index.js";
import { filterGrowing } from "../../timeline/index.js";
import { clearSavings, compactableResults, type ToolResultRef } from "../results/compactable-results.js";

function isTimeBoundary(entry: TimelineEntry): entry is SystemEntry {
  return (
    entry.type === "system" &&
    entry.subtype === "microcompact_boundary" &&
    entry.isSidechain !== true &&
    (entry.microcompactMetadata?.trigger === "time" || entry.microcompactMetadata?.trigger === "batch")
  );
}

/** Tool ids cleared client-side by earlier boundaries (time-based or batch): the view keeps applying them every turn. */
export function timeClearedToolIds(entries: readonly TimelineEntry[]): Set<string> {
  const cleared = new Set<string>();
  for (const entry of filterGrowing(entries, isTimeBoundary))
    for (const id of entry.microcompactMetadata?.compactedToolIds ?? []) cleared.add(id);
  return cleared;
}

/** Time of the last real assistant message in the view (synthetic API errors are not replies). */
export function lastAssistantTime(view: readonly MessageEntry[]): Date | undefined {
  for (let index = view.length - 1; index >= 0; index--) {
    const entry = view[index]!;
    if (entry.type === "assistant" && !entry.isApiErrorMessage) return new Date(entry.timestamp);
  }
  return undefined;
}

export interface TimeBasedClearInput {
  /** The API view (earlier clears may or may not be applied; `alreadyCleared` says which). */
  view: readonly MessageEntry[];
  now: Date;
  gapMs: number;
  /** Already floored at MIN_KEEP_RECENT by the caller. */
  keepRecent: number;
  compactableTools: ReadonlySet<string>;
  alreadyCleared: ReadonlySet<string>;
  /** Results kept verbatim whatever their age (kept-files.ts), asked when needed. Default none. */
  kept?: () => ReadonlySet<string>;
}

export interface TimeBasedClear {
  /** Tool ids to clear now (not already cleared), in view order. */
  toolIds: string[];
  tokensSaved: number;
  /** Idle time that triggered it. */
  idleMs: number;
  /**
   * A relay cache marker before the first result kept verbatim (see BatchClear.relayBefore): the cold
   * rewrite then leaves an entry exactly where the next batch's unchanged prefix ends. Empty when none is kept.
   */
  relayBefore: string[];
}

/** What the time-based path clears this turn, or undefined (cache may be warm, or nothing new to clear). */
export function planTimeBasedClear(input: TimeBasedClearInput): TimeBasedClear | undefined {
  const last = lastAssistantTime(input.view);
  if (last === undefined) return undefined;
  const idleMs = input.now.getTime() - last.getTime();
  if (!(idleMs >= input.gapMs)) return undefined;
  const results = uniqueByToolId(compactableResults(input.view, input.compactableTools));
  const cut = Math.max(0, results.length - input.keepRecent);
  const older = results.slice(0, cut);
  const kept = older.length === 0 ? undefined : input.kept?.();
  const toClear = older.filter(
    (result) => !input.alreadyCleared.has(result.toolUseId) && kept?.has(result.toolUseId) !== true,
  );
  if (toClear.length === 0) return undefined;
  const firstKept = results[cut];
  return {
    toolIds: toClear.map((result) => result.toolUseId),
    tokensSaved: toClear.reduce((sum, result) => sum + clearSavings(result), 0),
    idleMs,
    relayBefore: firstKept === undefined ? [] : [firstKept.toolUseId],
  };
}

/** First occurrence of each tool id (a malformed timeline may answer one tool_use twice). */
export function uniqueByToolId(results: readonly ToolResultRef[]): ToolResultRef[] {
  const seen = new Set<string>();
  return results.filter((result) => {
    if (seen.has(result.toolUseId)) return false;
    seen.add(result.toolUseId);
    return true;
  });
}
