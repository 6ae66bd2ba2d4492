/**
 * The query loop: one user turn as a sequence of named stages, repeated while a stage says to go again.
 * Each iteration compacts, assembles, streams, then decides (running tools on the way). Stages are peers:
 * none calls another; each returns what happened and this file routes it, so a stage that finds the request
 * cannot stand (over the window, failed, context full mid-answer) returns a `Recover` and the recover stage
 * runs next. Stages record through the turn's recorder and yield the events.
 */
import type { MessageEntry, ModelLimits } from "../messages/index.js";
import { createUserEntry, modelLimits } from "../messages/index.js";
import type { ThinkingConfig } from "../request/index.js";
import type { EngineEvent, TerminalReason } from "./events.js";
import type { QueryContext } from "./query-context.js";
import { assembleStage } from "./stage-assemble.js";
import { compactStage } from "./stage-compact.js";
import { decideStage } from "./stage-decide.js";
import { recoverStage } from "./stage-recover.js";
import { streamStage } from "./stage-stream.js";
import { type Decision, newTurnState, recordAnnouncements, stop, type TurnState, turnEnd } from "./turn-state.js";

/** One user turn's loop. Yields events as they happen; the first is always `turn_start`, the last `turn_end`. */
export async function* query(context: QueryContext): AsyncGenerator<EngineEvent, TerminalReason> {
  const turn = newTurnState(context);
  yield { type: "turn_start", model: context.state.model };
  let stopHookContinuations = 0;
  while (true) {
    const decision = yield* iteration(turn);
    if (decision.type !== "stop") continue;
    if (decision.reason === "completed" && stopHookContinuations < DEFAULT_MAX_STOP_HOOK_CONTINUATIONS) {
      const feedback = yield* stopHooks(turn, stopHookContinuations > 0);
      if (feedback) {
        stopHookContinuations++;
        continue;
      }
    }
    yield turnEnd(turn, decision);
    return decision.reason;
  }
}

/** `limits` with the window a server's overflow error named, when that is smaller (docs/ARCHITECTURE.md "Overflow chain"). */
function withLearnedWindow(limits: ModelLimits, learned: number | undefined): ModelLimits {
  return learned !== undefined && learned < limits.contextWindow ? { ...limits, contextWindow: learned } : limits;
}

/**
 * How many times Stop (or SubagentStop) hooks may send the model back to work in one turn: 3. Claude Code leaves
 * the loop to the hook (`stop_hook_active`); a cap keeps a hook that always blocks from running up a bill.
 */
export const DEFAULT_MAX_STOP_HOOK_CONTINUATIONS = 3;

/** Runs the stop hooks; when one blocks, its reason is recorded for the model and the loop goes on (true). */
async function* stopHooks(turn: TurnState, active: boolean): AsyncGenerator<EngineEvent, boolean> {
  const { context, recorder } = turn;
  const event = context.stopHookEvent ?? "Stop";
  if (context.hooks?.has(event) !== true) return false;
  const outcome = await context.hooks.run(event, { stop_hook_active: active }, undefined, context.signal);
  for (const notice of outcome.notices) yield recorder.notice("warning", notice);
  if (outcome.block === undefined || outcome.stop !== undefined || context.signal.aborted) return false;
  const note = createUserEntry(recorder.context(), `${event} hook feedback:\n${outcome.block}`, { isMeta: true });
  recorder.append(note);
  yield { type: "user", entry: note };
  return true;
}

/** One model request and what follows from it. */
async function* iteration(turn: TurnState): AsyncGenerator<EngineEvent, Decision> {
  const { config, state, signal } = turn.context;
  recordAnnouncements(turn);
  if (signal.aborted) return stop("aborted");
  if (config.maxTurns !== undefined && turn.iterations >= config.maxTurns)
    return stop("max_turns", `Reached the limit of ${config.maxTurns} model requests for this turn.`);
  turn.iterations++;
  const limits = withLearnedWindow(modelLimits(state.model, config.modelOverrides), state.learnedContextWindow);
  const compaction = yield* compactStage(turn, limits);
  const assembled = assembleStage(turn, compaction, limits);
  if (assembled.type === "recover") return yield* recoverStage(turn, assembled, limits);
  const streamed = yield* streamStage(turn, assembled, limits);
  if (streamed.type === "recover") return yield* recoverStage(turn, streamed, limits);
  const decided = yield* decideStage(turn, streamed.attempt);
  if (decided.type === "recover") return yield* recoverStage(turn, decided, limits);
  return decided;
}

export * from "./query-context.js";
export type { MessageEntry, ThinkingConfig };
