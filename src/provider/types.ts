/**
 * The provider boundary: one streamed model call. Below it, failures are thrown as typed
 * `ProviderError`s; above it (the loop) they become timeline messages.
 */
import type { AssistantContentBlock, AssistantEntry, EntryContext, StopReason, Usage } from "../messages/index.js";
import type { AssembledRequest } from "../request/types.js";
import type { UnsupportedInput } from "./unsupported-input.js";

/** What a provider can do beyond the public API. */
export interface ProviderCapabilities {
  /** Accepts `cache_edits` blocks and `cache_reference` on tool_results (the emulator does; the public API does not). */
  cacheEdits: boolean;
  /** Accepts `context_management` edits (beta `context-management-2025-06-27`). */
  contextManagement: boolean;
  /** Accepts `anthropic-beta` headers; when false none is sent. Default true. */
  betas?: boolean;
}

/** Raw server-sent event, passed through for the UI (text deltas as they arrive). */
export interface RawStreamEvent {
  type: string;
  [key: string]: unknown;
}

export type ProviderEvent =
  /** A raw SSE event as it arrived. */
  | { type: "stream_event"; event: RawStreamEvent }
  /** A content block finished streaming (a tool_use may start now); its timeline entry follows later. */
  /** `inputInvalid`: a tool_use whose input JSON did not parse (cut by max_tokens, or garbled); its input is `{}`. */
  | { type: "block_complete"; index: number; block: AssistantContentBlock; messageId: string; inputInvalid?: true }
  /** A timeline entry for one block; the last one carries stop_reason and usage. */
  | { type: "assistant_entry"; entry: AssistantEntry }
  /** A retry is about to happen; entries already emitted for the failed attempt are listed as superseded. */
  | { type: "retry"; attempt: number; delayMs: number; error: ProviderError; supersededUuids: string[] }
  /** Switched to the fallback model after repeated overloads. */
  | { type: "fallback"; from: string; to: string }
  /** The response is complete. */
  | {
      type: "message_end";
      messageId: string;
      model: string;
      stopReason: StopReason | null;
      usage: Usage;
      requestId?: string;
      /** The server's own reason the prompt cache missed (cache diagnostics), when the response gave one. */
      cacheMiss?: CacheMissReason;
    };

export interface StreamOptions {
  signal?: AbortSignal;
  /** Chain context for each assistant entry the provider creates (called once per entry, in order). */
  entryContext: () => EntryContext;
  /** Called before each attempt so params can be rebuilt (e.g. with the fallback model). Defaults to reusing `request`. */
  rebuild?: (model: string) => AssembledRequest;
}

export interface Provider {
  readonly name: string;
  /** Read before every request: a server's announcement may switch features on during a session. */
  readonly capabilities: ProviderCapabilities;
  /** Features the server announced so far (e.g. "cache-editing"), for the transcript. Default none. */
  readonly announcedFeatures?: readonly string[];
  /** Takes features announced in an earlier run of this session (a resume), as if announced again. */
  adoptFeatures?(features: readonly string[]): void;
  /** Streams one model call with retries; throws `ProviderError` when it finally fails. */
  stream(request: AssembledRequest, options: StreamOptions): AsyncIterable<ProviderEvent>;
  /** A one-shot non-streaming call (summaries, forked agents); same retry policy. */
  complete?(request: AssembledRequest, options: Omit<StreamOptions, "entryContext">): Promise<CompletedMessage>;
}

export interface CompletedMessage {
  id: string;
  model: string;
  content: AssistantContentBlock[];
  stopReason: StopReason | null;
  usage: Usage;
}

/** Classified provider failure kinds (see `classify.ts`'s pattern table). */
export type ProviderErrorKind =
  | "prompt_too_long"
  | "request_too_large"
  | "image_too_large"
  | "pdf_too_large"
  | "pdf_password_protected"
  | "pdf_invalid"
  | "overloaded"
  | "rate_limited"
  | "auth"
  | "invalid_request"
  /** A 400 naming a field, block type or beta the server does not accept (`options.unsupported` says which). */
  | "unsupported_input"
  | "not_found"
  | "server"
  | "connection"
  | "stream_error"
  | "aborted";

export class ProviderError extends Error {
  override readonly name = "ProviderError";
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    readonly options: {
      status?: number;
      retryable?: boolean;
      /** From retry-after / retry-after-ms headers. */
      retryAfterMs?: number;
      /** prompt_too_long: the numbers in "N tokens > M maximum". */
      actualTokens?: number;
      maxTokens?: number;
      requestId?: string;
      /** unsupported_input: what the server refused, when the message names it. */
      unsupported?: UnsupportedInput;
    } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.options.retryable ?? false;
  }
}

/**
 * Why the server says the prompt cache missed (the API's `diagnostics.cache_miss_reason`): `model_changed`,
 * `system_changed`, `tools_changed`, `messages_changed` (with the tokens that missed), `previous_message_not_found`,
 * `unavailable`; kept as a string so a reason added later still reaches the reader.
 */
export interface CacheMissReason {
  type: string;
  cache_missed_input_tokens?: number;
}
