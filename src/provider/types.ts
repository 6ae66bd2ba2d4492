/**
 * The provider boundary: one streamed model call. Below it, failures are thrown as typed
 * `ProviderError`s; above it (the loop) they become timeline messages.
 */
import type { AssistantContentBlock, EffortLevel, StopReason, Usage } from "../messages/index.js";
import type { AssembledRequest } from "../request/index.js";
import type { ProviderError } from "./errors.js";

/** What a provider can do beyond the public API. */
export interface ProviderCapabilities {
  /** Accepts `cache_edits` blocks and `cache_reference` on tool_results (the emulator does; the public API does not). */
  cacheEdits: boolean;
  /** Accepts `context_management` edits (beta `context-management-2025-06-27`). */
  contextManagement: boolean;
  /** Accepts `anthropic-beta` headers; when false none is sent. Default true. */
  betas?: boolean;
  /**
   * Answers `diagnostics: {previous_message_id}` with `diagnostics.cache_miss_reason` (cache diagnostics). Only a
   * declared server is sent it: no profile turns it on, THREADLINE_CACHE_DIAGNOSTICS=on does. Default false.
   */
  cacheDiagnostics?: boolean;
  /**
   * Accepts tool_addition blocks with inline definitions in system messages (mid-conversation tool changes), so a
   * late tool need not rewrite the cached prefix. No profile turns it on; THREADLINE_TOOL_CHANGES=on does.
   * Default false. (The loop wires it through `RequestSettings.toolArrivals`.)
   */
  toolChanges?: boolean;
  /**
   * Runs server-side compaction (beta compact-2026-01-12): threadline sends the `compact_20260112` edit and keeps
   * the `compaction` blocks the server answers with, instead of running its own autocompact (which stays the
   * overflow backstop). No profile turns it on; THREADLINE_SERVER_COMPACTION=on does. Default false.
   */
  serverCompaction?: boolean;
  /**
   * The prompt-cache lifetimes the server offers (`cache_control.ttl`), which the pause policy prices
   * (docs/PROMPT-CACHE.md, "Pauses"). Empty: the server keeps no cache a client can price (compatible servers
   * ignore `cache_control`), so no pause policy runs. Default ["5m"].
   */
  cacheTtls?: readonly ("5m" | "1h")[];
  /**
   * Runs the Messages API's `web_search` server tool (`web_search_20250305`): threadline then offers Claude Code's
   * WebSearch tool, answered by a side request carrying the server tool (docs/TOOLS.md, "WebSearch"). The
   * `anthropic` and `emulator` profiles declare it; a compatible server does not unless THREADLINE_WEB_SEARCH=on.
   * Default false.
   */
  webSearch?: boolean;
  /**
   * Answers `POST /v1/messages/count_tokens` (free on the first-party API): the loop then asks the server's count
   * where the estimate is least certain — before the first request after a compaction and before a large tool
   * result goes out (docs/CONTEXT-BUDGET.md, "Token counting"). The `anthropic` and `emulator` profiles declare
   * it; a compatible server does not unless THREADLINE_TOKEN_COUNTING=on. Default false.
   */
  tokenCounting?: boolean;
  /**
   * Answers `output_config.format` (`json_schema` structured outputs, the pinned SDK's `OutputConfig`): a Workflow
   * agent() with a `schema` then asks the server for a JSON answer instead of only asking the model in its prompt
   * (docs/TOOLS.md "Workflow"). The `anthropic` and `emulator` profiles declare it; a compatible server does not
   * unless THREADLINE_STRUCTURED_OUTPUTS=on. Default false.
   */
  structuredOutputs?: boolean;
}

/**
 * A server-sent event exactly as it arrived, opaque to threadline. Only the `sse_passthrough` event carries it,
 * for output that must repeat the wire format (print mode's Claude Code-compatible stream-json).
 */
export interface RawStreamEvent {
  type: string;
  [key: string]: unknown;
}

/** What a streaming response says as it arrives, in no wire format (the same for every platform). */
export type ResponseEvent =
  /** The response began (headers and `message_start` are in); `requestId` is the server's, when it gave one. */
  | { type: "message_start"; messageId: string; model: string; requestId?: string }
  /** A content block began (`blockType` as the server named it, also for blocks threadline skips). */
  | { type: "block_start"; index: number; blockType: string }
  | { type: "text_delta"; index: number; text: string }
  | { type: "thinking_delta"; index: number; thinking: string }
  | { type: "tool_input_delta"; index: number; partialJson: string }
  /**
   * A content block finished (a tool_use may start now). `inputInvalid`: a tool_use whose input JSON did not
   * parse (cut by max_tokens, or garbled); its input is `{}`.
   */
  | { type: "block_end"; index: number; block: AssistantContentBlock; messageId: string; inputInvalid?: true }
  /** The message is complete: its stop reason and final usage (the stream still checks that it ends properly). */
  | {
      type: "message_end";
      messageId: string;
      model: string;
      stopReason: StopReason | null;
      stopSequence: string | null;
      usage: Usage;
      requestId?: string;
      /** The server's own reason the prompt cache missed (cache diagnostics), when the response gave one. */
      cacheMiss?: CacheMissReason;
      /** What the server changed in the request's input before the model saw it (only when it listed any). */
      inputTransformations?: InputTransformation[];
    }
  /** Something in the response was not usable as sent (a skipped block type, invalid tool input JSON). */
  | { type: "stream_warning"; message: string; index?: number }
  /** The raw event, for print mode only (see `RawStreamEvent`). */
  | { type: "sse_passthrough"; event: RawStreamEvent };

export type ProviderEvent =
  | ResponseEvent
  /** The attempt failed and another follows: whatever the failed attempt streamed is void. */
  | { type: "retry"; attempt: number; delayMs: number; error: ProviderError }
  /**
   * Switched to the fallback model after repeated overloads; the next attempt sends the caller's
   * `fallbackRequest` (else the same request with the model replaced).
   */
  | { type: "fallback"; from: string; to: string };

export interface StreamOptions {
  signal?: AbortSignal;
  /**
   * The request to send if the provider falls back to its `fallbackModel` (assembled for that model).
   * Default: the same request with only the model replaced.
   */
  fallbackRequest?: AssembledRequest;
  /**
   * `complete` tells of each attempt it will retry here (`stream` yields them as `retry` events), so a caller
   * can record what the server refused (docs/CONTEXT-BUDGET.md, "Refused requests"). Default: nobody is told.
   */
  onRetry?: (retry: Extract<ProviderEvent, { type: "retry" }>) => void;
}

export interface Provider {
  readonly name: string;
  /** Read before every request: a server's announcement may switch features on during a session. */
  readonly capabilities: ProviderCapabilities;
  /** Features the server announced so far (e.g. "cache-editing"), for the transcript. Default none. */
  readonly announcedFeatures?: readonly string[];
  /** Takes features announced in an earlier run of this session (a resume), as if announced again. */
  adoptFeatures?(features: readonly string[]): void;
  /** The model used after repeated overloads, when one is configured. Default none. */
  readonly fallbackModel?: string | undefined;
  /** Streams one model call with retries; throws `ProviderError` when it finally fails. */
  stream(request: AssembledRequest, options?: StreamOptions): AsyncIterable<ProviderEvent>;
  /**
   * The server's count of a request's input tokens (`POST /v1/messages/count_tokens`), for a server whose
   * capabilities declare `tokenCounting`; one attempt, no retries. Throws `ProviderError` when it fails.
   */
  countTokens?(request: AssembledRequest, options?: { signal?: AbortSignal }): Promise<number>;
  /**
   * The effort levels the server declares for `model` (the Models API's `capabilities.effort`, `GET
   * /v1/models/{id}`), asked once per model and kept; empty when it declares none, has no capabilities for the
   * model or cannot be asked. Only asked when an effort is wanted, so a session without one sends nothing more.
   */
  effortLevels?(model: string, options?: { signal?: AbortSignal }): Promise<readonly EffortLevel[]>;
  /** A one-shot non-streaming call (summaries, forked agents); same retry policy. */
  complete?(request: AssembledRequest, options?: StreamOptions): Promise<CompletedMessage>;
}

export interface CompletedMessage {
  id: string;
  model: string;
  content: AssistantContentBlock[];
  stopReason: StopReason | null;
  usage: Usage;
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

/**
 * One entry of the response's `input_transformations` (SDK `BetaInputTransformation`): `thinking_dropped` (a
 * thinking block removed because it failed a binding check, `reason` saying which) or `thinking_mismatch_allowed`;
 * `path` is `messages.{i}.content.{j}` of the request. Kept as strings so a type added later still reaches the reader.
 */
export interface InputTransformation {
  type: string;
  path: string;
  reason: string;
}
