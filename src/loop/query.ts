/**
 * The query loop: one user turn as a sequence of named stages, repeated while a stage says to go again.
 * Each iteration compacts, assembles, streams, then decides (running tools on the way). Stages are peers:
 * none calls another; each returns what happened and this file routes it, so a stage that finds the request
 * cannot stand (over the window, failed, context full mid-answer) returns a `Recover` and the recover stage
 * runs next. Stages record through the turn's recorder and yield the events.
 */
import type { CompactionInput } from "../compaction/index.js";
import type { MessageEntry, TurnUsage } from "../messages/index.js";
import { addUsage, createUserEntry } from "../messages/index.js";
import type { ThinkingConfig } from "../request/index.js";
import { iterationLimits } from "./budget/budget-learning.js";
import { countBeforeSending } from "./budget/count-tokens.js";
import { compactionInput } from "./compaction/compaction-input.js";
import type { EngineEvent, TerminalReason } from "./events.js";
import type { QueryContext } from "./query-context.js";
import type { StopFailureType } from "./recovery/stop-failure.js";
import { deliverInboxMessages } from "./side/inbox-messages.js";
import { notifyFinishedTasks } from "./side/task-notifications.js";
import { assembleStage } from "./stages/stage-assemble.js";
import { compactStage } from "./stages/stage-compact.js";
import { decideStage } from "./stages/stage-decide.js";
import { recoverStage } from "./stages/stage-recover.js";
import { streamStage } from "./stages/stage-stream.js";
import {
  type Decision,
  newTurnState,
  recordAnnouncements,
  recordSideRequests,
  stop,
  type TurnState,
  turnEnd,
} from "./turn-state.js";

/** One user turn's loop. Yields events as they happen; the first is always `turn_start`, the last `turn_end`. */
export async function* query(context: QueryContext): AsyncGenerator<EngineEvent, TerminalReason> {
  const turn = newTurnState(context);
  yield { type: "turn_start", model: context.state.model };
  let stopHookBlocks = 0;
  while (true) {
    const decision = yield* iteration(turn);
    if (decision.type !== "stop") continue;
    if (decision.reason === "completed" && (yield* stopHooks(turn, stopHookBlocks))) {
      stopHookBlocks++;
      continue;
    }
    if (decision.failure !== undefined) yield* stopFailureHooks(turn, decision.failure, decision.error);
    yield turnEnd(turn, decision);
    return decision.reason;
  }
}

/**
 * Runs the stop hooks; when one blocks (or adds context), its reason is recorded for the model and the loop goes
 * on (true). After the runner's cap of consecutive blocks (Claude Code's 8, hook-runner.ts) a block is not
 * honoured: the turn ends with a warning naming the hook's reason, so a loop plugin cut short is never silent.
 */
async function* stopHooks(turn: TurnState, blocks: number): AsyncGenerator<EngineEvent, boolean> {
  const { context, recorder } = turn;
  const event = context.stopHookEvent ?? "Stop";
  const hooks = context.hooks;
  if (hooks?.has(event) !== true) return false;
  const fields = { stop_hook_active: blocks > 0, last_assistant_message: turn.lastText };
  const outcome = await hooks.run(event, fields, undefined, context.signal);
  for (const notice of outcome.notices) yield recorder.notice("warning", notice);
  // Claude Code 2.1.163: a Stop hook's additionalContext also keeps the turn going, as feedback.
  const feedback = outcome.block ?? (outcome.context.length > 0 ? outcome.context.join("\n") : undefined);
  if (feedback === undefined || outcome.stop !== undefined || context.signal.aborted) return false;
  if (blocks >= hooks.stopBlockCap) {
    yield recorder.notice(
      "warning",
      `${event} hook blocked ${blocks} times in a row; the turn ends without honouring it again ` +
        `(CLAUDE_CODE_STOP_HOOK_BLOCK_CAP raises the limit). It said: ${feedback.replace(/\s+/g, " ").slice(0, 300)}`,
    );
    return false;
  }
  const note = createUserEntry(recorder.context(), `${event} hook feedback:\n${feedback}`, { isMeta: true });
  recorder.append(note);
  yield { type: "user", entry: note };
  return true;
}

/**
 * StopFailure hooks (Claude Code's, for a turn an API failure ended): `error` (the type they match on),
 * `error_details`, `last_assistant_message`. What they print changes nothing, as in Claude Code; a notice stays one.
 */
async function* stopFailureHooks(
  turn: TurnState,
  failure: StopFailureType,
  details: string | undefined,
): AsyncGenerator<EngineEvent, void> {
  const hooks = turn.context.hooks;
  if (hooks?.has("StopFailure") !== true) return;
  const fields = { error: failure, error_details: details ?? "", last_assistant_message: turn.lastText };
  const outcome = await hooks.run("StopFailure", fields, failure, turn.context.signal);
  for (const notice of outcome.notices) yield turn.recorder.notice("warning", notice);
}

/** One model request and what follows from it. */
async function* iteration(turn: TurnState): AsyncGenerator<EngineEvent, Decision> {
  const { config, signal } = turn.context;
  recordAnnouncements(turn);
  if (signal.aborted) return stop("aborted");
  yield* notifyFinishedTasks(turn);
  yield* deliverInboxMessages(turn);
  // Answered model requests, not loop iterations: recovering from a refusal goes round the loop without one
  // (issue 58: 80 iterations sent 42 main requests at 32K).
  if (config.maxTurns !== undefined && turn.answeredRequests >= config.maxTurns)
    return stop("max_turns", `Reached the limit of ${config.maxTurns} model requests for this turn.`);
  turn.iterations++;
  // The window, learned window and calibration worked out in one place (docs/CONTEXT-BUDGET.md).
  let limits = iterationLimits(turn);
  let compaction = yield* compactStage(turn, limits);
  let assembled = assembleStage(turn, compaction, limits);
  // Where the estimate is least certain, the server's count (where declared) calibrates before anything is
  // sent; a ratio it moved up means this request's budgets were too small: budget it again (docs/CONTEXT-BUDGET.md).
  if (assembled.type === "assembled" && (yield* countBeforeSending(turn, assembled.request))) {
    limits = iterationLimits(turn);
    compaction = yield* compactStage(turn, limits);
    assembled = assembleStage(turn, compaction, limits);
  }
  if (assembled.type === "recover") return yield* recoverStage(turn, assembled, limits);
  const streamed = yield* streamStage(turn, assembled, limits);
  if (streamed.type === "recover") return yield* recoverStage(turn, streamed, limits);
  const decided = yield* decideStage(turn, streamed.attempt);
  if (decided.type === "recover") return yield* recoverStage(turn, decided, limits);
  return decided;
}

/** What a compaction by hand did: the context before and after it (estimate units, messages only). */
export interface CompactNowOutcome {
  preTokens: number;
  postTokens: number;
}

/**
 * Compaction's one entrance outside a turn (/compact): the compact stage itself, asked to summarise now, so
 * the input (window, learned window, calibration, memory reservation, fork) and what follows a compaction
 * (memory and task list re-attached, SessionStart hooks, latches reset, the cache drop expected) are the
 * loop's (codex `run_compact_task_inner`; docs/ARCHITECTURE.md "One entrance for compaction"). What its
 * requests used is added to `totals`, also when it fails (they were billed). Throws when the summary fails.
 */
export async function* compactNow(
  context: QueryContext,
  totals: TurnUsage,
  instructions?: string,
): AsyncGenerator<EngineEvent, CompactNowOutcome> {
  const turn = newTurnState(context);
  try {
    const compaction = yield* compactStage(turn, iterationLimits(turn), {
      trigger: "manual",
      ...(instructions !== undefined ? { instructions } : {}),
    });
    return { preTokens: compaction.preTokens ?? 0, postTokens: compaction.tokens ?? 0 };
  } finally {
    addUsage(totals, turn.usage);
  }
}

/**
 * Compaction work between turns (the ctx-agent staging spans, the compaction notes) on the input the loop's
 * compaction runs on: the same window, calibration and fork. The records of its side requests are appended
 * when `work` ends, and what they used is added to `totals` (also when it fails: they were billed).
 */
export async function betweenTurns<T>(
  context: QueryContext,
  totals: TurnUsage,
  work: (input: CompactionInput) => Promise<T>,
): Promise<T> {
  const turn = newTurnState(context);
  try {
    return await work(compactionInput(turn, iterationLimits(turn)));
  } finally {
    recordSideRequests(turn);
    addUsage(totals, turn.usage);
  }
}

export * from "./query-context.js";
export type { MessageEntry, ThinkingConfig };
