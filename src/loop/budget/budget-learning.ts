/**
 * What the loop tells the session's ContextBudget (compaction/budget/context-budget.ts; docs/CONTEXT-BUDGET.md): each
 * count the server made of a request the loop sent (a response's usage, or the count its overflow error
 * named), the window its own overflow error named, and the target of each compaction. A compaction whose next
 * request the server counts over that target is a failure on the autocompact breaker. Not a stage: the stream
 * and recover stages both call it.
 */
import { createHash } from "node:crypto";
import { type BudgetLimits, ContextBudget, compactionTarget, countCompactionFailure } from "../../compaction/index.js";
import { estimateRequestTokens } from "../../messages/index.js";
import type { MessagesRequest } from "../../request/index.js";
import type { EngineEvent } from "../events.js";
import type { TurnState } from "../turn-state.js";

/** The session's budget (made from the records on the first turn of a session that has none). */
export function sessionBudget(turn: TurnState): ContextBudget {
  const { state, timeline } = turn.context;
  state.budget ??= ContextBudget.fromEntries(timeline.entries);
  return state.budget;
}

/** The limits every budget of this iteration uses: the one place the window is worked out (context-budget.ts). */
export function iterationLimits(turn: TurnState): BudgetLimits {
  const { state, config } = turn.context;
  return sessionBudget(turn).limits(state.model, config.modelOverrides);
}

/**
 * The server counted `reported` tokens for `body` (its input side, or its overflow error's count): the
 * calibration learns (recorded when it moved), and a compaction whose next request is over its target is
 * counted on the breaker, with a notice. Returns whether the tool definitions went lean just now (the next body
 * is smaller with nothing removed from the conversation).
 */
export function* learnFromCount(
  turn: TurnState,
  reported: number,
  body: MessagesRequest,
  learnedWindow?: number,
): Generator<EngineEvent, boolean> {
  const budget = sessionBudget(turn);
  const { context, recorder } = turn;
  const windowChanged = budget.learnWindow(learnedWindow);
  const seen = budget.observe(reported, estimateRequestTokens(body));
  budget.fixedTokens = estimateRequestTokens({ ...body, messages: [] });
  const serverWindow = budget.serverWindow(context.state.model, context.config.modelOverrides);
  const lean = budget.considerLeanTools(budget.fixedTokens, serverWindow);
  if (seen.changed || windowChanged || lean) recorder.append(budget.record(context.sessionId, context.now()));
  if (lean) {
    // The prefix changes once, on purpose: the cache-break detector is told, the person too.
    context.cacheDetector?.expectDrop("lean tool definitions");
    yield recorder.notice(
      "warning",
      `The tools and system prompt take ~${budget.toServer(budget.fixedTokens).toLocaleString("en-US")} of the server's ${serverWindow.toLocaleString("en-US")}-token window: tool definitions are sent lean (first sentence, no field descriptions) from now on.`,
    );
  }
  if (seen.missedTarget === undefined || context.autoCompact === undefined) return lean;
  const { reported: count, target } = seen.missedTarget;
  const why =
    `the first request after it was ${count.toLocaleString("en-US")} tokens by the server's count, over its ` +
    `target of ${target.toLocaleString("en-US")} (the estimate now runs ×${budget.ratio.toFixed(2)})`;
  const notice = countCompactionFailure(context.autoCompact, why);
  if (notice !== undefined) yield recorder.notice("warning", notice);
  return lean;
}

/** A request body's identity, for "never resend a rejected body unchanged". */
export function bodyKey(body: MessagesRequest): string {
  return createHash("sha256").update(JSON.stringify(body)).digest("hex");
}

/** The server's window, as a person reads it. */
export function budgetWindow(turn: TurnState): string {
  const { state, config } = turn.context;
  const window = sessionBudget(turn).serverWindow(state.model, config.modelOverrides);
  return `${window.toLocaleString("en-US")} tokens`;
}

/** A compaction just happened: its target, in the server's tokens, is checked against the next response. */
export function expectCompactionTarget(turn: TurnState, limits: BudgetLimits): void {
  const budget = sessionBudget(turn);
  budget.pendingTarget = budget.toServer(compactionTarget(limits.thresholds, budget.fixedTokens));
}
