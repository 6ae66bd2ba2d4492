/**
 * The provider's failure vocabulary: the kinds a failure is classified as, the error the provider throws, what
 * a 400 says was refused, and the shape of one classification row. It imports nothing else in provider/, so
 * the pattern tables (overflow, platform, unsupported input) and the classifier all read it without a circle.
 */

/** What a 400 says the server refused. */
export type UnsupportedInput =
  /** A request field, as a dotted path (`messages.2.content.0.cache_reference`, `context_management`). */
  | { kind: "field"; path: string }
  /** Block types the server does not know (`cache_edits`). */
  | { kind: "block_type"; type: string; path: string }
  /** `anthropic-beta` values the server rejected. */
  | { kind: "beta"; names: string[] };

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
      /** The stream was cut after this many complete tool_use blocks: not retried (docs/EXACTLY-ONCE.md). */
      cutAfterTools?: number;
    } = {},
  ) {
    super(message);
  }

  get retryable(): boolean {
    return this.options.retryable ?? false;
  }
}

/** What classification reads from a failure, whatever threw it. */
export interface ErrorFacts {
  /** HTTP status; absent for connection failures and for `error` events after a 200. */
  status?: number;
  /** `error.type` from the body (e.g. `overloaded_error`). */
  errorType?: string;
  /** The human-readable message. */
  message: string;
  /** True when the failure happened below HTTP (refused, reset, timed out). */
  network?: boolean;
}

/** One row of the table: it matches when its status/type condition and its pattern both hold. */
export interface ClassificationRow {
  kind: ProviderErrorKind;
  /** Any of these statuses matches (with `errorTypes`, either one is enough). */
  statuses?: readonly number[];
  /** Statuses at or above this match. */
  minStatus?: number;
  /** Any of these body error types matches. */
  errorTypes?: readonly string[];
  /** Matches only failures below HTTP. */
  network?: boolean;
  /** Must also match the message. */
  pattern?: RegExp;
  retryable: boolean;
  /** A real-world failure this row is written for; the tests classify each one. */
  example: ErrorFacts;
}
