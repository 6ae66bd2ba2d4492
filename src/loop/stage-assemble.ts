/**
 * Stage 2 of an iteration: the request, a pure function of the projected view, settings, latches and
 * pins. Latches and pins it adds are recorded (so a resume assembles the same bytes), and a request the
 * estimate says is over the window is never uploaded: it goes to the recover stage (the overflow chain), as
 * for the server's own overflow error.
 */
import type { CompactionOutput } from "../compaction/index.js";
import type { ModelLimits } from "../messages/index.js";
import { assembleRequest, fromLastCompaction, latchRecord } from "../request/index.js";
import { blockingLimitMessage, estimatedOverflow, estimateRequest } from "./blocking.js";
import { pinsFromEntries } from "./query-context.js";
import { settingsFor } from "./request-settings.js";
import type { Assembled, Recover, TurnState } from "./turn-state.js";

/**
 * Assembles the request, records new latches and pins; over the window, hands it to the recover stage
 * instead. The one stage that is not a generator: it yields no events (its records are not shown).
 */
export function assembleStage(turn: TurnState, compaction: CompactionOutput, limits: ModelLimits): Assembled | Recover {
  const { context, recorder } = turn;
  const { state, config } = context;
  const pins = pinsFromEntries(context.timeline.entries);
  const settings = settingsFor(turn, compaction, state.model);
  const assembled = assembleRequest({
    messages: fromLastCompaction(compaction.messages),
    settings,
    latches: state.latches,
    pins,
    newCacheEdits: compaction.newCacheEdits,
    relayBreakpoints: compaction.relayBreakpoints,
    ...(state.normalizeMemo ? { memo: state.normalizeMemo } : {}),
  });
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
  );
  if (!estimate.over) return { type: "assembled", request: assembled.request, compaction };
  const blocked = blockingLimitMessage(
    fromLastCompaction(compaction.messages),
    body,
    state.model,
    limits,
    config.compaction,
    estimate.tokens,
  );
  if (!blocked) return { type: "assembled", request: assembled.request, compaction };
  return { type: "recover", cause: "over_window", overflow: estimatedOverflow(estimate), blocked };
}
