/**
 * assembleRequest: (API view, settings, latches, pins) → the exact request. Pure: the same input gives
 * byte-identical output, and nothing in the input is mutated.
 */
import type { ApiMessage, CacheEditDelete, MessageEntry } from "../messages/index.js";
import { modelLimits } from "../messages/index.js";
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
  /** tool_use_ids whose results get a relay cache marker just before them (see `addCacheBreakpoints`). Default none. */
  relayBreakpoints?: readonly string[];
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

/** What a request ending with the model's own words asks of a model that takes no prefill. */
export const CONTINUE_TEXT = "Continue from where you left off.";

/**
 * `messages`, ending with a user message when the model rejects prefill. The loop never sends a request that
 * ends with an assistant message, but a resumed or edited timeline can; the model then gets the same
 * instruction Claude Code gives after an interruption rather than a 400.
 */
function endsAsModelAccepts(messages: ApiMessage[], settings: RequestSettings): ApiMessage[] {
  if (messages.at(-1)?.role !== "assistant") return messages;
  if (modelLimits(settings.model, settings.modelOverrides).acceptsPrefill) return messages;
  return [...messages, { role: "user", content: [{ type: "text", text: CONTINUE_TEXT }] }];
}

/** The request for this turn. Throws `EmptyConversationError` when there is no message to send. */
export function assembleRequest(input: AssembleInput): AssembleOutput {
  const { settings } = input;
  const options = { snipTags: settings.snipTags === true };
  const messages = input.memo
    ? normalizeIncrementally(input.messages, options, input.memo)
    : normalizeMessagesForAPI(input.messages, options);
  if (messages.length === 0) throw new EmptyConversationError();
  const sendable = endsAsModelAccepts(messages, settings);
  const placed = addCacheBreakpoints(settings.systemPrompt, sendable, {
    ttl: settings.cacheTtl ?? "5m",
    prefixTtl: settings.prefixCacheTtl ?? settings.cacheTtl ?? "5m",
    skipCacheWrite: settings.skipCacheWrite === true,
    cacheEditing: settings.cacheEditing === true,
    pins: input.pins,
    newCacheEdits: input.newCacheEdits ?? [],
    relayBefore: input.relayBreakpoints ?? [],
  });
  const { request, latches } = paramsFromContext({
    settings,
    system: placed.system,
    messages: placed.messages,
    latches: input.latches,
  });
  return { request, latches, newPins: placed.newPins };
}
