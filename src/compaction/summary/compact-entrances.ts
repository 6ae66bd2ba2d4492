/**
 * Compaction through one door (issue 54; docs/ARCHITECTURE.md "One entrance for compaction"). Three callers ask
 * for a summary of the conversation — a person's /compact, autocompact at its threshold, and the prompt-too-long
 * chain's reactive step — and all three go through `runCompaction`, as codex's manual and automatic compaction
 * both call `run_compact_task_inner` (`codex-rs/core/src/compact.rs`). What differs between them is said once,
 * here: which breaker bookkeeping follows a summary that worked or failed. What the summary is and what the kept
 * tail keeps is `compactConversation`'s; what the loop does after any compaction (records, memory and task list
 * re-attached, hooks, latches, expected cache drop) is `loop/after-compaction.ts`'s.
 */
import type { MessageEntry } from "../../messages/index.js";
import { breakerTripped, failOnBreaker, newAutoCompactSession, viewKey } from "../autocompact/breaker.js";
import { tokenCountWithEstimation } from "../budget/thresholds.js";
import { projectApiView } from "../project-view.js";
import { RecordChain } from "../record-chain.js";
import type { OverflowFacts, OverflowOutcome } from "../tier.js";
import type { AutoCompactSession, CompactionInput, CompactionOutput } from "../types.js";
import { type CompactOutcome, type CompactTrigger, compactConversation } from "./compact-conversation.js";

/** What a person asked for: a compaction now, with their own instructions for the summary (default none). */
export interface CompactRequest {
  trigger: "manual";
  instructions?: string;
}

/** One compaction asked for: who asked, the context before it, and a person's instructions (manual only). */
export interface CompactCall {
  trigger: CompactTrigger;
  /** Context tokens before compaction, system and tools included (the boundary's metadata and the target). */
  preTokens: number;
  instructions?: string;
}

function fmt(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The breaker after a summary that worked, by trigger: autocompact judges its target (a miss counts as a
 * failure, a hit closes the breaker); a reactive compaction only notes where the context is now; a person's
 * /compact closes the breaker (it says the summary path works).
 */
function settleSuccess(
  session: AutoCompactSession,
  chain: RecordChain,
  trigger: CompactTrigger,
  outcome: CompactOutcome,
): void {
  switch (trigger) {
    case "auto":
      session.lastCompactionTokens = outcome.contextTokens;
      if (outcome.contextTokens > outcome.targetTokens)
        failOnBreaker(
          session,
          chain,
          `the compaction left ~${fmt(outcome.contextTokens)} tokens, over its target of ${fmt(outcome.targetTokens)}`,
        );
      else {
        session.consecutiveFailures = 0;
        session.trippedNoticeShown = false;
      }
      session.failedSummaryView = undefined;
      return;
    case "reactive":
      session.lastCompactionTokens = outcome.contextTokens;
      session.failedSummaryView = undefined;
      return;
    case "manual":
      session.consecutiveFailures = 0;
      return;
    default: {
      const unhandled: never = trigger;
      throw new Error(`unhandled compaction trigger: ${String(unhandled)}`);
    }
  }
}

/**
 * The breaker after a summary that failed, by trigger: autocompact and the reactive step remember the view (the
 * same request is not sent again) and count the failure — autocompact with a notice on `chain`, the reactive
 * step silently (the chain's final error names it) — so a model that cannot summarise is asked at most
 * DEFAULT_MAX_CONSECUTIVE_FAILURES times in a row; a person's /compact throws to the person instead.
 */
function settleFailure(
  session: AutoCompactSession,
  chain: RecordChain,
  trigger: CompactTrigger,
  view: readonly MessageEntry[],
  error: unknown,
): void {
  switch (trigger) {
    case "auto":
      session.failedSummaryView = viewKey(view);
      failOnBreaker(session, chain, errorText(error));
      return;
    case "reactive":
      session.failedSummaryView = viewKey(view);
      session.consecutiveFailures++;
      return;
    case "manual":
      return;
    default: {
      const unhandled: never = trigger;
      throw new Error(`unhandled compaction trigger: ${String(unhandled)}`);
    }
  }
}

/**
 * The one inner function: summarises `view` (compactConversation: summary, boundary, kept tail, restored files),
 * records onto `chain`, then settles the breaker for `call.trigger`. Throws when the summary cannot be made,
 * after the failure is counted.
 */
export async function runCompaction(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  call: CompactCall,
): Promise<CompactOutcome> {
  // Autocompact keeps its books even without a session's state (a fresh one: its notices still say why).
  const session = call.trigger === "auto" ? (input.autoCompact ?? newAutoCompactSession()) : input.autoCompact;
  let outcome: CompactOutcome;
  try {
    outcome = await compactConversation(input, view, chain, {
      trigger: call.trigger,
      preTokens: call.preTokens,
      ...(call.instructions !== undefined ? { instructions: call.instructions } : {}),
      ...(input.extraInstructions !== undefined ? { extraInstructions: input.extraInstructions } : {}),
    });
  } catch (error) {
    if (session !== undefined) settleFailure(session, chain, call.trigger, view, error);
    throw error;
  }
  if (session !== undefined) settleSuccess(session, chain, call.trigger, outcome);
  return outcome;
}

/** What autocompact's compaction left: the view after it, or the same view when the summary failed. */
export interface AutoCompactResult {
  messages: MessageEntry[];
  tokens: number;
  compacted: boolean;
  /** Old tool results were cleared instead (records on the chain). */
  cleared?: boolean;
}

/**
 * Entrance 1, automatic (autocompact.ts decided a summary is due): with the breaker closed, compacts; a failure
 * leaves the view unchanged (its notice is on `chain`).
 */
export async function compactWithBreaker(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  tokens: number,
): Promise<AutoCompactResult> {
  if (breakerTripped(input.autoCompact)) return { messages: view.slice(), tokens, compacted: false };
  try {
    const outcome = await runCompaction(input, view, chain, { trigger: "auto", preTokens: tokens });
    return { messages: outcome.messages, tokens: outcome.tokens, compacted: true };
  } catch {
    return { messages: view.slice(), tokens, compacted: false };
  }
}

/**
 * Entrance 2, by hand (/compact): the conversation summarised now, whatever the thresholds say, on the same
 * `CompactionInput` the tiers run on, so autocompact and /compact send the same summary request for the same
 * timeline. Throws when the summary cannot be made (nothing is recorded then).
 */
export async function compactByHand(
  input: CompactionInput,
  request: CompactRequest,
): Promise<CompactionOutput & { preTokens: number }> {
  const view = projectApiView(input.entries, input.settings);
  const preTokens = tokenCountWithEstimation(view, input.tokenRatio);
  const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
  const outcome = await runCompaction(input, view, chain, {
    trigger: request.trigger,
    preTokens,
    ...(request.instructions !== undefined ? { instructions: request.instructions } : {}),
  });
  return {
    messages: outcome.messages,
    records: chain.records,
    tokens: outcome.tokens,
    compacted: true,
    preTokens,
    // No request is assembled from this pass; the next turn's own pass decides these.
    newCacheEdits: [],
    relayBreakpoints: [],
    cacheEditing: false,
    snipTags: false,
  };
}

/**
 * Entrance 3, reactive (the prompt-too-long chain's step, outside the breaker's gate): sized by the server's own
 * count when given. A view whose automatic summary just came back useless is not sent again.
 */
export async function compactReactively(
  input: CompactionInput,
  chain: RecordChain,
  overflow: OverflowFacts,
): Promise<OverflowOutcome> {
  const view = projectApiView(input.entries, input.settings);
  // The automatic summary of this very view just came back useless: the same request would too.
  if (input.autoCompact?.failedSummaryView === viewKey(view))
    return { kind: "failed", message: "the summary request for this conversation just came back without a summary" };
  try {
    await runCompaction(input, view, chain, {
      trigger: "reactive",
      preTokens: overflow.actualTokens ?? tokenCountWithEstimation(view),
    });
    return { kind: "retry", compacted: true };
  } catch (failure) {
    return { kind: "failed", message: `compaction failed: ${errorText(failure)}` };
  }
}
