/**
 * assembleRequest: (API view, settings, latches, pins) → the exact request. Pure: the same input gives
 * byte-identical output, and nothing in the input is mutated.
 */
import type { CacheEditDelete, MessageEntry } from "../messages/index.js";
import { addCacheBreakpoints } from "./cache-breakpoints.js";
import type { LatchState } from "./latches.js";
import { type NormalizeMemo, normalizeIncrementally } from "./normalize/incremental.js";
import { normalizeMessagesForAPI } from "./normalize/index.js";
import { paramsFromContext } from "./params.js";
import type { RequestSettings } from "./settings.js";
import type { AssembledRequest, CacheEditPin } from "./types.js";

export type { RequestSettings } from "./settings.js";

export interface AssembleInput {
  /** The API view (apiViewWithErrors from src/timeline/views.ts, possibly projected further by compaction). */
  messages: readonly MessageEntry[];
  settings: RequestSettings;
  latches: LatchState;
  /** Pinned cache_edits from earlier turns. */
  pins: readonly CacheEditPin[];
  /** Edits decided this turn: placed after the last tool_result of the last user message, and pinned. */
  newCacheEdits?: readonly CacheEditDelete[];
  /** A session's memo of closed turns (faster, byte-identical output). Default none: normalize everything. */
  memo?: NormalizeMemo;
}

export interface AssembleOutput {
  request: AssembledRequest;
  /** Latches after this request; persist with `latchRecord` when they changed. */
  latches: LatchState;
  /** Pins created this turn (only the new ones); persist and pass back in `pins` from now on. */
  newPins: CacheEditPin[];
}

/** Thrown when the view holds nothing the API can be sent (the API requires at least one message). */
export class EmptyConversationError extends Error {
  constructor() {
    super("nothing to send: the conversation has no message the API accepts");
    this.name = "EmptyConversationError";
  }
}

/** The request for this turn. Throws `EmptyConversationError` when there is no message to send. */
export function assembleRequest(input: AssembleInput): AssembleOutput {
  const { settings } = input;
  const options = { snipTags: settings.snipTags === true };
  const messages = input.memo
    ? normalizeIncrementally(input.messages, options, input.memo)
    : normalizeMessagesForAPI(input.messages, options);
  if (messages.length === 0) throw new EmptyConversationError();
  const placed = addCacheBreakpoints(settings.systemPrompt, messages, {
    ttl: settings.cacheTtl ?? "5m",
    skipCacheWrite: settings.skipCacheWrite === true,
    cacheEditing: settings.cacheEditing === true,
    pins: input.pins,
    newCacheEdits: input.newCacheEdits ?? [],
  });
  const { request, latches } = paramsFromContext({
    settings,
    system: placed.system,
    messages: placed.messages,
    latches: input.latches,
  });
  return { request, latches, newPins: placed.newPins };
}
