/**
 * Tier 4 in the compaction pass: the backstop. Proactive autocompact runs at the autocompact threshold
 * (effective window − 13,000); while collapse is on it is off, and only runs where the request would
 * otherwise be refused (the blocking limit), as recovery. A circuit breaker stops auto-compaction for the
 * session after DEFAULT_MAX_CONSECUTIVE_FAILURES failures in a row (a success resets it), with a notice.
 */
import { createSystemEntry, type MessageEntry } from "../messages/index.js";
import { type CompactTrigger, compactConversation } from "./compact-conversation.js";
import type { RecordChain } from "./record-chain.js";
import { autoCompactThreshold, blockingLimit, tokenCountWithEstimation } from "./thresholds.js";
import type { AutoCompactSession, CompactionInput } from "./types.js";

/** Consecutive failed auto-compactions after which auto-compaction stops for the session: 3. */
export const DEFAULT_MAX_CONSECUTIVE_FAILURES = 3;

/** A fresh per-session autocompact state (breaker closed, no session memory). */
export function newAutoCompactSession(): AutoCompactSession {
  return { consecutiveFailures: 0, trippedNoticeShown: false };
}

export interface AutoCompactResult {
  messages: MessageEntry[];
  tokens: number;
  compacted: boolean;
}

/** The token count at which this pass compacts: the autocompact threshold, or the blocking limit under collapse. */
export function autoCompactTriggerTokens(input: Pick<CompactionInput, "model" | "contextWindow" | "settings">): number {
  return input.settings.collapse
    ? blockingLimit(input.model, input.contextWindow)
    : autoCompactThreshold(input.model, input.contextWindow);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Compacts with the breaker's bookkeeping (auto and reactive triggers). Failures become a warning notice on
 * `chain` and leave the view unchanged.
 */
export async function compactWithBreaker(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  trigger: CompactTrigger,
  tokens: number,
): Promise<AutoCompactResult> {
  const session = input.autoCompact ?? newAutoCompactSession();
  if (session.consecutiveFailures >= DEFAULT_MAX_CONSECUTIVE_FAILURES)
    return { messages: view.slice(), tokens, compacted: false };
  try {
    const outcome = await compactConversation(input, view, chain, { trigger, preTokens: tokens });
    session.consecutiveFailures = 0;
    session.trippedNoticeShown = false;
    return { messages: outcome.messages, tokens: outcome.tokens, compacted: true };
  } catch (error) {
    session.consecutiveFailures++;
    const tripped = session.consecutiveFailures >= DEFAULT_MAX_CONSECUTIVE_FAILURES;
    const message = tripped
      ? `Auto-compaction failed ${session.consecutiveFailures} times in a row and is off for this session: ${errorText(error)}. Use /compact to try by hand.`
      : `Auto-compaction failed (${session.consecutiveFailures}/${DEFAULT_MAX_CONSECUTIVE_FAILURES}): ${errorText(error)}`;
    if (tripped) session.trippedNoticeShown = true;
    chain.push(createSystemEntry(chain.context(), "informational", message, { level: "warning" }));
    return { messages: view.slice(), tokens, compacted: false };
  }
}

/** Tier 4: compacts when the context has reached the trigger and the breaker is closed. */
export async function autoCompact(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  tokens = tokenCountWithEstimation(view),
): Promise<AutoCompactResult> {
  if (input.fork === undefined || tokens < autoCompactTriggerTokens(input))
    return { messages: view.slice(), tokens, compacted: false };
  return compactWithBreaker(input, view, chain, "auto", tokens);
}
