/**
 * The autocompact circuit breaker (docs/ARCHITECTURE.md "Compaction target"): consecutive failed summaries, and
 * compactions that missed their target, count on it; at DEFAULT_MAX_CONSECUTIVE_FAILURES automatic summaries are
 * off for the session (a success, or a person's /compact, closes it again). The entrances' bookkeeping
 * (compact-entrances.ts) and the tier's triggers (autocompact.ts) read and write it here.
 */
import { createSystemEntry, type MessageEntry } from "../../messages/index.js";
import type { RecordChain } from "../record-chain.js";
import type { AutoCompactSession } from "../types.js";
import { DEFAULT_MAX_CONSECUTIVE_FAILURES } from "./compaction-due.js";

/** A fresh per-session autocompact state (breaker closed, no compaction notes). */
export function newAutoCompactSession(): AutoCompactSession {
  return { consecutiveFailures: 0, trippedNoticeShown: false };
}

/** Whether the breaker is open: automatic summaries are off for the session. */
export function breakerTripped(session: AutoCompactSession | undefined): boolean {
  return session !== undefined && session.consecutiveFailures >= DEFAULT_MAX_CONSECUTIVE_FAILURES;
}

/** A view's identity for "the same summary request again": its length and its first and last entries. */
export function viewKey(view: readonly MessageEntry[]): string {
  return `${view.length}:${view[0]?.uuid ?? ""}:${view.at(-1)?.uuid ?? ""}`;
}

/**
 * Counts one failure on the breaker and returns the notice saying why (the off notice once it trips; nothing
 * after that). Also
 * called by the loop when the first request after a compaction reports more than its target by the server's
 * count (docs/CONTEXT-BUDGET.md "Progress by the server's measure").
 */
export function countCompactionFailure(session: AutoCompactSession, why: string): string | undefined {
  session.consecutiveFailures++;
  const tripped = session.consecutiveFailures >= DEFAULT_MAX_CONSECUTIVE_FAILURES;
  // Once off, said once: a count that goes on rising after that tells nobody anything (issue 58).
  if (tripped && session.trippedNoticeShown) return undefined;
  if (tripped) session.trippedNoticeShown = true;
  return tripped
    ? `Auto-compaction failed ${session.consecutiveFailures} times in a row and is off for this session: ${why}. Use /compact to try by hand.`
    : `Auto-compaction failed (${session.consecutiveFailures}/${DEFAULT_MAX_CONSECUTIVE_FAILURES}): ${why}`;
}

/** Counts one failure on the breaker and records why on `chain`. */
export function failOnBreaker(session: AutoCompactSession, chain: RecordChain, why: string): void {
  const message = countCompactionFailure(session, why);
  if (message !== undefined)
    chain.push(createSystemEntry(chain.context(), "informational", message, { level: "warning" }));
}
