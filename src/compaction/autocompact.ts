/**
 * Tier 4 in the compaction pass: the backstop. Proactive autocompact runs at the autocompact threshold; while
 * collapse is on it is off, and only runs where the request would otherwise be refused (the blocking limit), as
 * recovery. Progress or stop (docs/ARCHITECTURE.md "Compaction target"):
 * - a compaction that leaves the context over its target counts as a failure, like an error; a circuit breaker
 *   stops auto-compaction for the session after DEFAULT_MAX_CONSECUTIVE_FAILURES in a row (a success resets it);
 * - after a compaction the next one waits until the context grew by DEFAULT_MIN_GROWTH_RATIO of the threshold;
 *   a context still over the threshold before that is stalled: said once, and cleared instead (no model call);
 * - priced: when clearing old tool results alone reaches the target, it is cheaper than a compaction (which
 *   reads the context for its summary and rewrites everything it keeps), so the tier clears instead.
 */
import { createSystemEntry, type MessageEntry } from "../messages/index.js";
import { planRoomClear, recordRoomClear } from "./clear-for-room.js";
import { type CompactTrigger, compactConversation } from "./compact-conversation.js";
import {
  autoCompactTriggerTokens,
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  DEFAULT_MIN_GROWTH_RATIO,
} from "./compaction-due.js";
import { compactionTarget } from "./context-thresholds.js";
import { cacheEditingEnabled } from "./microcompact/run-microcompact.js";
import type { RecordChain } from "./record-chain.js";
import { tokenCountWithEstimation } from "./thresholds.js";
import type { AutoCompactSession, CompactionInput } from "./types.js";

export {
  autoCompactTriggerTokens,
  DEFAULT_MAX_CONSECUTIVE_FAILURES,
  DEFAULT_MIN_GROWTH_RATIO,
} from "./compaction-due.js";

/** A fresh per-session autocompact state (breaker closed, no session memory). */
export function newAutoCompactSession(): AutoCompactSession {
  return { consecutiveFailures: 0, trippedNoticeShown: false };
}

export interface AutoCompactResult {
  messages: MessageEntry[];
  tokens: number;
  compacted: boolean;
  /** Old tool results were cleared instead (records on the chain). */
  cleared?: boolean;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function fmt(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
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
function fail(session: AutoCompactSession, chain: RecordChain, why: string): void {
  const message = countCompactionFailure(session, why);
  if (message !== undefined)
    chain.push(createSystemEntry(chain.context(), "informational", message, { level: "warning" }));
}

/**
 * Compacts with the breaker's bookkeeping (auto and reactive triggers). Failures, and compactions that miss
 * their target, become a warning notice on `chain`; a failure leaves the view unchanged.
 */
export async function compactWithBreaker(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  trigger: CompactTrigger,
  tokens: number,
): Promise<AutoCompactResult> {
  const session = input.autoCompact ?? newAutoCompactSession();
  if (breakerTripped(session)) return { messages: view.slice(), tokens, compacted: false };
  try {
    const outcome = await compactConversation(input, view, chain, {
      trigger,
      preTokens: tokens,
      ...(input.extraInstructions !== undefined ? { extraInstructions: input.extraInstructions } : {}),
    });
    session.lastCompactionTokens = outcome.contextTokens;
    if (outcome.contextTokens > outcome.targetTokens)
      fail(
        session,
        chain,
        `the compaction left ~${fmt(outcome.contextTokens)} tokens, over its target of ${fmt(outcome.targetTokens)}`,
      );
    else {
      session.consecutiveFailures = 0;
      session.trippedNoticeShown = false;
    }
    session.failedSummaryView = undefined;
    return { messages: outcome.messages, tokens: outcome.tokens, compacted: true };
  } catch (error) {
    session.failedSummaryView = viewKey(view);
    fail(session, chain, errorText(error));
    return { messages: view.slice(), tokens, compacted: false };
  }
}

/**
 * Tier 4: at the trigger, with the breaker closed, makes room the cheaper way: clearing old tool results when
 * that alone reaches the target, else a compaction (unless the last one is too recent: then clearing).
 */
export async function autoCompact(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  tokens = tokenCountWithEstimation(view, input.tokenRatio),
): Promise<AutoCompactResult> {
  const unchanged = { messages: view.slice(), tokens, compacted: false };
  if (input.fork === undefined || tokens < autoCompactTriggerTokens(input)) return unchanged;
  const session = input.autoCompact ?? newAutoCompactSession();
  const threshold = input.thresholds.estimate.autocompact;
  const target = compactionTarget(input.thresholds, input.fixedTokens);
  // On the cached path microcompact deletes from the cache instead; a client-side clear would rewrite it.
  const clear =
    input.settings.microcompact && !cacheEditingEnabled(input) ? planRoomClear(input, view, tokens) : undefined;
  if (clear !== undefined && tokens - clear.tokensSaved <= target) {
    recordRoomClear(
      chain,
      clear,
      tokens,
      `clearing reaches the ${fmt(target)}-token target for a ~${fmt(clear.rewriteCost)} rewrite, cheaper than a compaction`,
    );
    return { messages: clear.messages, tokens: tokens - clear.tokensSaved, compacted: false, cleared: true };
  }
  const last = session.lastCompactionTokens;
  if (last !== undefined && tokens < last + threshold * DEFAULT_MIN_GROWTH_RATIO) {
    if (session.stalledNoticeShown !== true) {
      session.stalledNoticeShown = true;
      chain.push(
        createSystemEntry(
          chain.context(),
          "informational",
          `Compaction is not making room (~${fmt(tokens)} tokens, ~${fmt(last)} after the last one): clearing old tool results instead until the context grows by ${fmt(threshold * DEFAULT_MIN_GROWTH_RATIO)}.`,
          { level: "warning" },
        ),
      );
    }
    if (clear === undefined) return unchanged;
    recordRoomClear(chain, clear, tokens, "the last compaction is too recent to compact again");
    return { messages: clear.messages, tokens: tokens - clear.tokensSaved, compacted: false, cleared: true };
  }
  return compactWithBreaker(input, view, chain, "auto", tokens);
}
