/**
 * Stage 2 of an iteration: the request, a pure function of the projected view, settings, latches and
 * pins. Latches and pins it adds are recorded (so a resume assembles the same bytes), and a request the
 * estimate says is over the window is never uploaded: it goes to the recover stage (the overflow chain), as
 * for the server's own overflow error.
 */
import type { BudgetLimits, CompactionOutput } from "../../compaction/index.js";
import { assembleRequest, fromLastCompaction, latchRecord, type RequestSettings } from "../../request/index.js";
import { blockingLimitMessage, estimatedOverflow, estimateRequest } from "../budget/blocking.js";
import { bodyKey, budgetWindow } from "../budget/budget-learning.js";
import { pinsFromEntries } from "../query-context.js";
import { offersToolChanges, pendingArrivals, toolArrivalRecord } from "../tools/tool-arrivals.js";
import { type Assembled, capabilities, type Recover, type TurnState } from "../turn-state.js";
import { settingsFor } from "./request-settings.js";

/**
 * Records the late tools not offered yet as arriving before the next message, so this request offers them
 * (the model can call them now) and every later one keeps them at that index. Returns whether it recorded.
 */
function recordToolArrival(turn: TurnState, settings: RequestSettings, messagesSent: number): boolean {
  const { context } = turn;
  if (context.lateToolDefinitions === undefined || !offersToolChanges(capabilities(turn))) return false;
  const late = context.lateToolDefinitions(context.timeline.entries);
  if (late.length === 0) return false;
  const pending = pendingArrivals(late, settings.tools, settings.toolArrivals ?? []);
  if (pending.length === 0) return false;
  turn.recorder.append(toolArrivalRecord(messagesSent, pending, context.sessionId, context.now()));
  return true;
}

/**
 * Assembles the request, records new latches and pins; over the window, hands it to the recover stage
 * instead. The one stage that is not a generator: it yields no events (its records are not shown).
 */
export function assembleStage(
  turn: TurnState,
  compaction: CompactionOutput,
  limits: BudgetLimits,
): Assembled | Recover {
  const { context, recorder } = turn;
  const { state, config } = context;
  const pins = pinsFromEntries(context.timeline.entries);
  const assemble = (settings: RequestSettings) =>
    assembleRequest({
      messages: fromLastCompaction(compaction.messages),
      settings,
      latches: state.latches,
      pins,
      newCacheEdits: compaction.newCacheEdits,
      relayBreakpoints: compaction.relayBreakpoints,
      ...(state.normalizeMemo ? { memo: state.normalizeMemo } : {}),
    });
  let settings = settingsFor(turn, compaction, state.model);
  let assembled = assemble(settings);
  // A late tool arrives before the next message: the count of normalized messages (tool-change ones aside).
  const sent = assembled.request.body.messages.filter((message) => message.role !== "system").length;
  if (recordToolArrival(turn, settings, sent)) {
    settings = settingsFor(turn, compaction, state.model);
    assembled = assemble(settings);
  }
  if (assembled.latches.betas.length !== state.latches.betas.length) {
    state.latches = assembled.latches;
    recorder.append(latchRecord(state.latches, context.sessionId, context.now(), state.features));
  }
  state.lastRequest = {
    settings,
    latches: state.latches,
    pins: [...pins, ...assembled.newPins],
  };
  for (const pin of assembled.newPins) {
    recorder.append({
      type: "cache-edit-pin",
      messageIndex: pin.messageIndex,
      block: pin.block,
      timestamp: context.now().toISOString(),
      sessionId: context.sessionId,
    });
  }
  // A tier that changed the view knows its size better than the last usage figure; the body is measured too.
  const body = assembled.request.body;
  const estimate = estimateRequest(
    fromLastCompaction(compaction.messages),
    body,
    state.model,
    limits,
    compaction.tokens,
    state.budget,
  );
  // A body the server already rejected as too long is never sent again unchanged (docs/CONTEXT-BUDGET.md).
  if (!estimate.over && turn.rejectedBodies.size > 0 && turn.rejectedBodies.has(bodyKey(body))) {
    const repeat = `The server already rejected this exact request as too long (window ${budgetWindow(turn)}); nothing more could be removed.`;
    return { type: "recover", cause: "over_window", overflow: estimatedOverflow(estimate), blocked: repeat };
  }
  if (!estimate.over) return { type: "assembled", request: assembled.request, compaction };
  const blocked = blockingLimitMessage(
    fromLastCompaction(compaction.messages),
    body,
    state.model,
    limits,
    config.compaction,
    estimate.tokens,
    state.budget,
  );
  if (!blocked) return { type: "assembled", request: assembled.request, compaction };
  return { type: "recover", cause: "over_window", overflow: estimatedOverflow(estimate), blocked };
}
