/**
 * The recover stage: what the loop does when a request failed or would not fit, routed here by query.ts
 * from whichever stage found it (a `Recover`). It ends with a decision; a recovery that goes round again has
 * recorded why (so a resume agrees), and each runs at most once per turn, so the loop always ends.
 */
import type { BudgetLimits } from "../../compaction/index.js";
import { createApiErrorEntry } from "../../messages/index.js";
import type { ProviderError } from "../../provider/index.js";
import type { AssembledRequest } from "../../request/index.js";
import { featureOffRecord } from "../../request/index.js";
import { afterCompaction } from "../after-compaction.js";
import { bodyKey, iterationLimits, learnFromCount, sessionBudget } from "../budget/budget-learning.js";
import { compactionInput } from "../compaction/compaction-input.js";
import type { EngineEvent, TerminalReason } from "../events.js";
import {
  isMediaError,
  isPromptTooLong,
  recoverFromPromptTooLong,
  syntheticErrorText,
} from "../recovery/prompt-too-long.js";
import { decideSelfHeal } from "../recovery/self-heal.js";
import { stopFailureType } from "../recovery/stop-failure.js";
import { contextWindowExceeded } from "../recovery/stop-reasons.js";
import { recordInterruption } from "../tools/record-tool-results.js";
import {
  type AttemptState,
  CONTINUE,
  type Decision,
  type Recover,
  recordSideRequests,
  stop,
  supersede,
  type TurnState,
} from "../turn-state.js";

/** Routes a `Recover` to the recovery for its cause. */
export async function* recoverStage(
  turn: TurnState,
  recover: Recover,
  limits: BudgetLimits,
): AsyncGenerator<EngineEvent, Decision> {
  switch (recover.cause) {
    case "failed":
      return yield* recoverFromFailure(turn, recover.attempt, recover.failure, recover.request, limits);
    case "context_window":
      return yield* recoverContextWindow(turn, recover.attempt, limits);
    case "over_window":
      return yield* recoverOverWindow(turn, recover.overflow, recover.blocked, limits);
    default: {
      const unhandled: never = recover;
      throw new Error(`unhandled recovery: ${JSON.stringify(unhandled)}`);
    }
  }
}

/**
 * The overflow chain (collapse drain, then reactive compaction) for a request over the window. Returns
 * undefined when it made room (the loop goes again), else the message saying why it could not.
 * `billNow`: record the side requests the chain made right away (else the next compaction pass does).
 */
async function* overflowRecovery(
  turn: TurnState,
  limits: BudgetLimits,
  error: ProviderError,
  billNow: boolean,
  /** The request the server itself rejected; absent when the client's own estimate stopped it (never sent). */
  rejected?: AssembledRequest,
): AsyncGenerator<EngineEvent, string | undefined> {
  // Only a server's own error teaches: the window it named (kept for the session) and its count of the body.
  // The pre-send check's overflow carries the client's blocking limit, which is no window (docs/CONTEXT-BUDGET.md).
  let ratio = 1;
  if (rejected !== undefined) {
    turn.rejectedBodies.add(bodyKey(rejected.body));
    const lean = yield* learnFromCount(turn, error.options.actualTokens ?? 0, rejected.body, error.options.maxTokens);
    // The error showed the prefix is most of the window: the lean tools are the change; nothing else is removed.
    if (lean) {
      yield { type: "loop_continue", reason: "lean_tools" };
      return undefined;
    }
    limits = iterationLimits(turn);
    ratio = sessionBudget(turn).ratio;
  }
  const input = compactionInput(turn, limits);
  const recovering = recoverFromPromptTooLong(input, error, turn.promptTooLong, undefined, ratio);
  const step = await (billNow ? recovering.finally(() => recordSideRequests(turn)) : recovering);
  if (step.action === "surface") return step.message;
  // The same after-work as every compaction's (after-compaction.ts); the retry's prefix changed on purpose.
  yield* afterCompaction(turn, limits, {
    records: step.records,
    ...(step.compacted ? { compacted: true } : {}),
    trigger: "auto",
    cacheDrop: step.reason,
  });
  yield { type: "loop_continue", reason: step.reason };
  return undefined;
}

/**
 * A request the estimate says is over the window (never sent): the overflow chain makes room, else the
 * turn stops with the blocking-limit message.
 */
async function* recoverOverWindow(
  turn: TurnState,
  overflow: ProviderError,
  blocked: string,
  limits: BudgetLimits,
): AsyncGenerator<EngineEvent, Decision> {
  const surfaced = yield* overflowRecovery(turn, limits, overflow, false);
  if (surfaced === undefined) return CONTINUE;
  yield turn.recorder.notice("error", blocked);
  return stop("blocking_limit", blocked);
}

/** The context filled up mid-answer: the answer is dropped and the overflow chain makes room, as for a 400. */
async function* recoverContextWindow(
  turn: TurnState,
  attempt: AttemptState,
  limits: BudgetLimits,
): AsyncGenerator<EngineEvent, Decision> {
  attempt.executor.discard();
  supersede(turn, attempt.entries, "Response cut by a full context window; retried after recovery.");
  const message = yield* overflowRecovery(turn, limits, contextWindowExceeded(), false);
  if (message === undefined) return CONTINUE;
  yield turn.recorder.notice("error", message, "api_error");
  return stop("prompt_too_long", message);
}

/**
 * A request that failed for good (the provider's retries are spent): an interruption is recorded as one;
 * a refused feature is switched off and the turn goes again; media the server refused is stripped once;
 * an overflow runs the recovery chain; anything else ends the turn with the error.
 */
async function* recoverFromFailure(
  turn: TurnState,
  attempt: AttemptState,
  failure: ProviderError,
  request: AssembledRequest,
  limits: BudgetLimits,
): AsyncGenerator<EngineEvent, Decision> {
  const { context, recorder } = turn;
  if (failure.kind === "aborted" || context.signal.aborted) {
    yield* recordInterruption(turn, attempt);
    return stop("aborted");
  }
  // Blocks recorded by the failed attempt would otherwise dangle without a stop reason.
  supersede(turn, attempt.entries, "Partial response from a failed request.");
  attempt.executor.discard();
  // A refused feature: off for the session (recorded, so a resume agrees), then the same turn goes again.
  const heal = decideSelfHeal(failure, request, turn.featuresOff);
  if (heal !== undefined) {
    for (const feature of heal.features) {
      turn.featuresOff.add(feature);
      recorder.append(featureOffRecord(feature, failure.message, context.sessionId, context.now()));
    }
    yield recorder.notice("warning", heal.notice);
    yield { type: "loop_continue", reason: "feature_off" };
    return CONTINUE;
  }
  const synthetic = syntheticErrorText(failure);
  if (synthetic) recorder.append(createApiErrorEntry(recorder.context(), synthetic, context.state.model));
  if (isMediaError(failure) && !turn.mediaRetried) {
    turn.mediaRetried = true;
    yield { type: "loop_continue", reason: "media_stripped" };
    return CONTINUE;
  }
  let message = `API error (${failure.kind}): ${failure.message}`;
  if (isPromptTooLong(failure, turn.mediaRetried)) {
    const surfaced = yield* overflowRecovery(turn, limits, failure, true, request);
    if (surfaced === undefined) return CONTINUE;
    message = surfaced;
  }
  yield recorder.notice("error", message, "api_error");
  const reason: TerminalReason = failure.kind === "prompt_too_long" ? "prompt_too_long" : "error";
  return stop(reason, message, stopFailureType(failure.kind));
}
