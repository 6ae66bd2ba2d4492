/**
 * Header latches: a beta, once sent in a session, is sent on every later request, even when the feature is
 * off for that request (a changed `anthropic-beta` list changes the cache key and throws the whole prompt
 * cache away; an unused beta costs nothing). The feature's own parameters are still decided per request.
 * Latches reset only on clear/compact, and are persisted as `LatchRecord`s so a resumed session sends the
 * same headers.
 */
import type { LatchRecord, TimelineEntry } from "../messages/index.js";
import { isMainCompactBoundary } from "../messages/index.js";

export interface LatchState {
  /** Betas latched on, sorted and unique. */
  readonly betas: readonly string[];
}

/** No betas latched: a new session, or one just cleared or compacted. */
export function emptyLatches(): LatchState {
  return { betas: [] };
}

/** `state` with `betas` latched on too; the same object when nothing new was added. */
export function latchBetas(state: LatchState, betas: readonly string[]): LatchState {
  let added = false;
  for (const beta of betas) if (!state.betas.includes(beta)) added = true;
  if (!added) return state;
  return { betas: [...new Set([...state.betas, ...betas])].sort() };
}

/** The transcript record persisting `state` and the server's announced `features` (when any). */
export function latchRecord(
  state: LatchState,
  sessionId: string,
  now: Date,
  features: readonly string[] = [],
): LatchRecord {
  const record: LatchRecord = { type: "latches", betas: [...state.betas], timestamp: now.toISOString(), sessionId };
  if (features.length > 0) record.features = [...features];
  return record;
}

/**
 * Features the server announced earlier in this session: the latest record that names any. Unlike betas they
 * survive a compaction (the server did not change), so a resumed session sends what it sent before.
 */
export function announcedFeaturesFromEntries(entries: readonly TimelineEntry[]): string[] {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "latches" && entry.features !== undefined) return [...entry.features];
  }
  return [];
}

/** The latch state a resumed session continues with: the latest record, unless a compaction came after it. */
export function latchesFromEntries(entries: readonly TimelineEntry[]): LatchState {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "latches") return { betas: [...new Set(entry.betas)].sort() };
    if (isMainCompactBoundary(entry)) return emptyLatches();
  }
  return emptyLatches();
}
