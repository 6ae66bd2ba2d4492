/**
 * The last stage of an iteration: what the stop reason means. A full context window goes to the recover stage; a
 * max_tokens stop escalates the output cap once, then appends continuation prompts, then surfaces; tool
 * results are recorded and the loop goes again; a refusal ends the turn with a notice; else it is done.
 */
import { createUserEntry, ESCALATED_MAX_TOKENS, modelLimits } from "../../messages/index.js";
import type { EngineEvent } from "../events.js";
import { CONTINUATION_PROMPT, decideMaxTokens } from "../recovery/max-tokens.js";
import { REFUSAL_MESSAGE } from "../recovery/stop-reasons.js";
import { answerCutTools, collectResults } from "../tools/record-tool-results.js";
import {
  type AttemptState,
  CONTINUE,
  type Decision,
  type Recover,
  stop,
  supersede,
  type TurnState,
} from "../turn-state.js";

export async function* decideStage(
  turn: TurnState,
  attempt: AttemptState,
): AsyncGenerator<EngineEvent, Decision | Recover> {
  const { stopReason, executor, toolOwners } = attempt;
  if (stopReason === "model_context_window_exceeded") return { type: "recover", cause: "context_window", attempt };
  // A tool_use cut by max_tokens never runs; other unparsable inputs run as `{}` and the tool says why.
  const cutTools = stopReason === "max_tokens" ? attempt.heldTools : [];
  if (stopReason !== "max_tokens") for (const block of attempt.heldTools) executor.add(block);
  if (cutTools.length > 0) {
    const decision = maxTokensDecision(turn);
    if (decision.action === "escalate") {
      executor.discard();
      escalate(turn, decision.maxTokens);
      supersede(turn, attempt.entries, "Tool input cut by the output cap; retried with a larger cap.");
      yield { type: "loop_continue", reason: "max_tokens_escalation" };
      return CONTINUE;
    }
    if (executor.size > 0) yield* collectResults(turn, attempt);
    yield* answerCutTools(turn, attempt, cutTools);
    if (decision.action === "continue") {
      turn.maxTokens.continuations++;
      yield { type: "loop_continue", reason: "max_tokens_continuation" };
      return CONTINUE;
    }
    return stop("max_tokens", decision.message);
  }

  // Tool results, in block order, each answering a recorded tool_use.
  if (toolOwners.size > 0) {
    yield* collectResults(turn, attempt);
    if (turn.context.signal.aborted) return stop("aborted");
  }
  if (stopReason === "max_tokens") return yield* afterMaxTokens(turn, attempt);
  if (stopReason === "compaction") {
    // Paused after server-side compaction: the compaction block is recorded; the next request continues from it.
    yield { type: "loop_continue", reason: "server_compaction" };
    return CONTINUE;
  }
  if (stopReason === "refusal") {
    yield turn.recorder.notice("warning", REFUSAL_MESSAGE);
    return stop("refused", REFUSAL_MESSAGE);
  }
  if (toolOwners.size > 0) {
    yield { type: "loop_continue", reason: "tool_use" };
    return CONTINUE;
  }
  return stop("completed");
}

/** A max_tokens stop with no cut tool: escalate (nothing ran), continue with a prompt, or surface. */
async function* afterMaxTokens(turn: TurnState, attempt: AttemptState): AsyncGenerator<EngineEvent, Decision> {
  const { recorder } = turn;
  const decision = maxTokensDecision(turn);
  if (decision.action === "escalate" && attempt.toolOwners.size === 0) {
    escalate(turn, decision.maxTokens);
    recorder.system("stream_superseded", "Truncated response retried with a larger output cap.", {
      supersededUuids: attempt.entries.map((entry) => entry.uuid),
    });
    yield { type: "loop_continue", reason: "max_tokens_escalation" };
    return CONTINUE;
  }
  if (decision.action !== "surface") {
    turn.maxTokens.continuations++;
    const entry = createUserEntry(recorder.context(), CONTINUATION_PROMPT, { isMeta: true });
    recorder.append(entry);
    yield { type: "user", entry };
    yield { type: "loop_continue", reason: "max_tokens_continuation" };
    return CONTINUE;
  }
  return stop("max_tokens", decision.message);
}

function maxTokensDecision(turn: TurnState) {
  const state = turn.maxTokens;
  const { config, state: loopState } = turn.context;
  // A 5.x model's default cap is already its maximum (128,000): escalating to 64,000 would lower it.
  const defaultCap = modelLimits(loopState.model, config.modelOverrides).defaultOutputTokens;
  return decideMaxTokens(
    state,
    state.override === undefined && config.maxTokens === undefined && defaultCap < ESCALATED_MAX_TOKENS,
  );
}

function escalate(turn: TurnState, maxTokens: number): void {
  turn.maxTokens.escalated = true;
  turn.maxTokens.override = maxTokens;
}
