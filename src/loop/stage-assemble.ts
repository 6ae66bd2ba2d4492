/**
 * Stage 2 of an iteration: the request, a pure function of the projected view, settings, latches and
 * pins. Latches and pins it adds are recorded (so a resume assembles the same bytes), and a request the
 * estimate says is over the window is never uploaded: the overflow chain runs first, as for the server's
 * own overflow error.
 */
import type { CompactionOutput } from "../compaction/index.js";
import type { ModelLimits, TimelineEntry } from "../messages/index.js";
import type { AssembledRequest, ContextManagementEdit } from "../request/index.js";
import {
  assembleRequest,
  compactEdit,
  DEFAULT_SERVER_COMPACTION_SETTINGS,
  fromLastCompaction,
  latchRecord,
  type RequestSettings,
  withoutServerFeatures,
} from "../request/index.js";
import { blockingLimitMessage, estimatedOverflow, estimateRequest } from "./blocking.js";
import type { EngineEvent } from "./events.js";
import { defaultRequestSettings, pinsFromEntries } from "./query-context.js";
import { overflowRecovery } from "./stage-recover.js";
import { arrivalsFromEntries, offersToolChanges, pendingArrivals, toolArrivalRecord } from "./tool-arrivals.js";
import { CONTINUE, capabilities, type Decision, stop, type TurnState } from "./turn-state.js";

/** The request of this iteration, and what a request for another model (the fallback) is built from. */
export interface Assembled {
  type: "assembled";
  request: AssembledRequest;
  compaction: CompactionOutput;
}

/** The session defaults (what forked requests use before any request), with this pass's decisions. */
export function settingsFor(turn: TurnState, compaction: CompactionOutput, model: string): RequestSettings {
  const { config, toolDefinitions } = turn.context;
  return withoutServerFeatures(
    {
      ...defaultRequestSettings(config, model, toolDefinitions, capabilities(turn)),
      ...(turn.maxTokens.override !== undefined ? { maxTokens: turn.maxTokens.override } : {}),
      snipTags: compaction.snipTags,
      cacheEditing: compaction.cacheEditing,
      ...contextManagementFor(turn, compaction),
      ...toolArrivalsFor(turn),
      ...(capabilities(turn).cacheDiagnostics
        ? { diagnostics: { previousMessageId: lastResponseId(turn.context.timeline.entries) } }
        : {}),
    },
    turn.featuresOff,
  );
}

/** The recorded tool arrivals since the latest compact boundary, where the server declares tool changes. */
function toolArrivalsFor(turn: TurnState): Pick<RequestSettings, "toolArrivals"> {
  if (!offersToolChanges(capabilities(turn))) return {};
  const arrivals = arrivalsFromEntries(turn.context.timeline.entries);
  return arrivals.length > 0 ? { toolArrivals: arrivals } : {};
}

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
 * The tiers' context-management edits, with the compact_20260112 edit last where the server declares server-side
 * compaction (docs/API-SURFACE.md). The edit is the same on every request, so the body's bytes stay turn N's.
 */
function contextManagementFor(
  turn: TurnState,
  compaction: CompactionOutput,
): Pick<RequestSettings, "contextManagement"> {
  const edits: ContextManagementEdit[] = [...(compaction.contextManagement?.edits ?? [])];
  const declared = capabilities(turn);
  // The edit needs its beta header: a server that takes no betas cannot be asked for it.
  if (declared.serverCompaction === true && declared.betas !== false)
    edits.push(compactEdit({ ...DEFAULT_SERVER_COMPACTION_SETTINGS, ...turn.context.config.serverCompaction }));
  return edits.length > 0 ? { contextManagement: { edits } } : {};
}

/**
 * The id of the last response the server sent in this conversation (`null`: none yet), read from the timeline
 * so that the request stays a pure function of it and a resume names the same message (docs/API-SURFACE.md).
 * Synthetic and virtual assistant entries are the client's own and never had a server id.
 */
export function lastResponseId(entries: readonly TimelineEntry[]): string | null {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type !== "assistant" || entry.isApiErrorMessage || entry.isVirtual) continue;
    if (entry.message.id.startsWith("msg_synthetic_")) continue;
    return entry.message.id;
  }
  return null;
}

/** Assembles the request, records new latches and pins; over the window, recovers or stops instead. */
export async function* assembleStage(
  turn: TurnState,
  compaction: CompactionOutput,
  limits: ModelLimits,
): AsyncGenerator<EngineEvent, Assembled | Decision> {
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
  const surfaced = yield* overflowRecovery(turn, limits, estimatedOverflow(estimate), false);
  if (surfaced === undefined) return CONTINUE;
  yield recorder.notice("error", blocked);
  return stop("blocking_limit", blocked);
}

/** The same pass's request for `model` (the fallback): same view, latches and recorded pins. */
export function requestFor(turn: TurnState, compaction: CompactionOutput, model: string): AssembledRequest {
  const { state, timeline } = turn.context;
  return assembleRequest({
    messages: fromLastCompaction(compaction.messages),
    settings: settingsFor(turn, compaction, model),
    latches: state.latches,
    pins: pinsFromEntries(timeline.entries),
  }).request;
}
