/**
 * The settings one pass's request is assembled with, and the same pass's request for another model (the
 * fallback). Not a stage: the assemble stage builds the request with these, the stream stage the fallback's.
 */
import type { CompactionOutput } from "../../compaction/index.js";
import type { TimelineEntry } from "../../messages/index.js";
import type { AssembledRequest, ContextManagementEdit } from "../../request/index.js";
import {
  assembleRequest,
  compactEdit,
  DEFAULT_SERVER_COMPACTION_SETTINGS,
  fromLastCompaction,
  type RequestSettings,
  withoutServerFeatures,
} from "../../request/index.js";
import { defaultRequestSettings, pinsFromEntries } from "../query-context.js";
import { arrivalsFromEntries, offersToolChanges } from "../tools/tool-arrivals.js";
import { capabilities, requestToolDefinitions, type TurnState } from "../turn-state.js";

/** The session defaults (what forked requests use before any request), with this pass's decisions. */
export function settingsFor(turn: TurnState, compaction: CompactionOutput, model: string): RequestSettings {
  const { config } = turn.context;
  return withoutServerFeatures(
    {
      ...defaultRequestSettings(config, model, requestToolDefinitions(turn), capabilities(turn)),
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
