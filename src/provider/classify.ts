/**
 * Provider error classification by data: a table of patterns, each row with an example message beside it.
 * The first row that matches wins, so specific rows (prompt too long, PDF, image) come before the
 * generic status rows they would otherwise fall into. Wording changes over time, so rows match on
 * status or error type plus a distinctive phrase, never a whole message.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { redactSecrets } from "../messages/index.js";
import { type ClassificationRow, type ErrorFacts, ProviderError, type ProviderErrorKind } from "./errors.js";
import { OVERFLOW_ROWS, overflowNumbers, overflowNumbersFromBody } from "./overflow-patterns.js";
import { PLATFORM_CLASSIFICATION_ROWS, platformErrorFacts } from "./platform-errors.js";
import { type HeaderReader, isRetryableStatus, retryAfterFromHeaders, shouldRetryFromHeaders } from "./retry-policy.js";
import { UNSUPPORTED_INPUT_ROWS, unsupportedInputOf } from "./unsupported-input.js";

/** The table. Order matters: first match wins. */
export const CLASSIFICATION_TABLE: readonly ClassificationRow[] = [
  // Bedrock and Vertex rows (platform-errors.ts) match on platform error names only.
  ...PLATFORM_CLASSIFICATION_ROWS,
  ...OVERFLOW_ROWS,
  {
    kind: "request_too_large",
    statuses: [413],
    errorTypes: ["request_too_large"],
    retryable: false,
    example: {
      status: 413,
      errorType: "request_too_large",
      message: "Request exceeds the maximum allowed number of bytes.",
    },
  },
  {
    kind: "image_too_large",
    statuses: [400],
    pattern: /image (exceeds|dimensions exceed|is too large)|image.*too large/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.0.content.1.image.source.base64: image exceeds 5 MB maximum: 7340032 bytes > 5242880 bytes",
    },
  },
  {
    kind: "pdf_password_protected",
    statuses: [400],
    pattern: /pdf.*password|password.*pdf/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.0.content.0.pdf.source.base64.data: The PDF specified is password protected.",
    },
  },
  {
    kind: "pdf_too_large",
    statuses: [400],
    pattern: /pdf pages|pdf.*(too large|exceeds)/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.0.content.0.pdf.source.base64.data: A maximum of 100 PDF pages may be provided.",
    },
  },
  {
    kind: "pdf_invalid",
    statuses: [400],
    pattern: /pdf.*(not valid|invalid|could not be processed)/i,
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.0.content.0.pdf.source.base64.data: The PDF specified was not valid.",
    },
  },
  {
    kind: "overloaded",
    statuses: [529],
    errorTypes: ["overloaded_error"],
    retryable: true,
    example: { status: 529, errorType: "overloaded_error", message: "Overloaded" },
  },
  {
    kind: "rate_limited",
    statuses: [429],
    errorTypes: ["rate_limit_error"],
    retryable: true,
    example: {
      status: 429,
      errorType: "rate_limit_error",
      message: "This request would exceed the rate limit for your organization of 50 requests per minute.",
    },
  },
  {
    kind: "auth",
    statuses: [401, 403],
    errorTypes: ["authentication_error", "permission_error"],
    retryable: false,
    example: { status: 401, errorType: "authentication_error", message: "invalid x-api-key" },
  },
  {
    kind: "not_found",
    statuses: [404],
    errorTypes: ["not_found_error"],
    retryable: false,
    example: { status: 404, errorType: "not_found_error", message: "model: claude-nonexistent-1" },
  },
  {
    kind: "connection",
    statuses: [408],
    retryable: true,
    example: { status: 408, errorType: "timeout_error", message: "Request timed out before the body was received." },
  },
  {
    kind: "server",
    statuses: [409],
    retryable: true,
    example: { status: 409, errorType: "api_error", message: "Conflict: a concurrent request holds this resource." },
  },
  ...UNSUPPORTED_INPUT_ROWS,
  {
    kind: "invalid_request",
    statuses: [400, 422],
    errorTypes: ["invalid_request_error"],
    retryable: false,
    example: {
      status: 400,
      errorType: "invalid_request_error",
      message: "messages.1.content.0: unexpected `tool_use_id` found in `tool_result` blocks",
    },
  },
  {
    kind: "server",
    minStatus: 500,
    errorTypes: ["api_error", "timeout_error"],
    retryable: true,
    example: { status: 500, errorType: "api_error", message: "Internal server error" },
  },
  {
    kind: "connection",
    network: true,
    retryable: true,
    example: { message: "Connection error.", network: true },
  },
  {
    kind: "connection",
    pattern: /ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|socket hang up|other side closed|terminated|fetch failed/i,
    retryable: true,
    example: { message: "terminated: other side closed" },
  },
];

/** Classifies `facts` by the table; unmatched failures are a non-retryable `stream_error` (a bug, not weather). */
export function classifyFacts(facts: ErrorFacts): { kind: ProviderErrorKind; retryable: boolean } {
  for (const row of CLASSIFICATION_TABLE) {
    if (rowMatches(row, facts)) return { kind: row.kind, retryable: row.retryable };
  }
  if (facts.status !== undefined) return { kind: "invalid_request", retryable: isRetryableStatus(facts.status) };
  return { kind: "stream_error", retryable: false };
}

function rowMatches(row: ClassificationRow, facts: ErrorFacts): boolean {
  if (row.network === true && facts.network !== true) return false;
  const hasCondition = row.statuses !== undefined || row.minStatus !== undefined || row.errorTypes !== undefined;
  if (hasCondition) {
    const status = facts.status;
    const byStatus =
      status !== undefined &&
      ((row.statuses?.includes(status) ?? false) || (row.minStatus !== undefined && status >= row.minStatus));
    const byType = facts.errorType !== undefined && (row.errorTypes?.includes(facts.errorType) ?? false);
    if (!byStatus && !byType) return false;
  }
  return row.pattern === undefined || row.pattern.test(facts.message);
}

/**
 * Turns anything thrown below the provider into a `ProviderError`: SDK API errors (status, body type,
 * headers), connection failures, aborts. `secrets` (the API key, the auth token) are redacted from the
 * message, as is anything shaped like `sk-ant-…`.
 */
export function classifyError(error: unknown, secrets: readonly string[] = []): ProviderError {
  if (error instanceof ProviderError) {
    const clean = redactSecrets(error.message, secrets);
    return clean === error.message ? error : new ProviderError(error.kind, clean, error.options);
  }
  if (error instanceof APIUserAbortError || isAbortError(error)) {
    return new ProviderError("aborted", "Request aborted.", { retryable: false });
  }
  const facts = factsOf(error);
  if (!(error instanceof APIError)) return providerErrorFromFacts(facts, {}, secrets);
  return providerErrorFromFacts(
    facts,
    {
      headers: error.headers as HeaderReader | undefined,
      body: error.error,
      ...(typeof error.requestID === "string" ? { requestId: error.requestID } : {}),
    },
    secrets,
  );
}

/** What an HTTP error carries besides its facts: the response headers, the error body, the request id. */
export interface ErrorResponseParts {
  headers?: HeaderReader | undefined;
  body?: unknown;
  requestId?: string;
}

/**
 * The `ProviderError` for `facts` (classified by the table) with what the response adds: retry hints from the
 * headers, the overflow's numbers from the message or the body. Every provider's errors end here, whatever SDK
 * threw them.
 */
export function providerErrorFromFacts(
  facts: ErrorFacts,
  parts: ErrorResponseParts,
  secrets: readonly string[] = [],
): ProviderError {
  const { kind, retryable } = classifyFacts(facts);
  const headers = parts.headers;
  const options: ConstructorParameters<typeof ProviderError>[2] = {
    retryable: shouldRetryFromHeaders(headers) ?? retryable,
  };
  if (facts.status !== undefined) options.status = facts.status;
  const retryAfterMs = retryAfterFromHeaders(headers);
  if (retryAfterMs !== undefined) options.retryAfterMs = retryAfterMs;
  if (parts.requestId !== undefined) options.requestId = parts.requestId;
  if (kind === "prompt_too_long") {
    const numbers = overflowNumbers(facts.message) ?? overflowNumbersFromBody(parts.body);
    if (numbers !== undefined) {
      options.actualTokens = numbers.actualTokens;
      options.maxTokens = numbers.maxTokens;
    }
  }
  if (kind === "unsupported_input") {
    const unsupported = unsupportedInputOf(facts.message);
    if (unsupported !== undefined) options.unsupported = unsupported;
  }
  return new ProviderError(kind, redactSecrets(describe(facts), secrets), options);
}

function factsOf(error: unknown): ErrorFacts {
  if (error instanceof APIConnectionError || error instanceof APIConnectionTimeoutError) {
    const cause = error.cause instanceof Error ? `: ${causeChain(error.cause)}` : "";
    return { message: `${cause === "" ? error.message : error.message.replace(/\.$/, "")}${cause}`, network: true };
  }
  if (error instanceof APIError) {
    const platform = platformErrorFacts(error.headers as HeaderReader | undefined, error.error);
    const facts: ErrorFacts = { message: error.apiMessage ?? platform.message ?? error.message };
    if (typeof error.status === "number") facts.status = error.status;
    const errorType = error.type ?? platform.errorType;
    if (errorType !== undefined) facts.errorType = errorType;
    return facts;
  }
  if (error instanceof Error) return { message: causeChain(error) };
  return { message: String(error) };
}

/** `message: cause: cause…`, because fetch hides the useful part ("other side closed") in `cause`. */
export function causeChain(error: Error): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    parts.push(
      typeof code === "string" && !current.message.includes(code) ? `${current.message} (${code})` : current.message,
    );
    current = current.cause;
  }
  // "Connection error." + "fetch failed" reads "Connection error: fetch failed", not ".:".
  return parts.map((part, index) => (index < parts.length - 1 ? part.replace(/\.$/, "") : part)).join(": ");
}

function describe(facts: ErrorFacts): string {
  const prefix = [facts.status, facts.errorType].filter((part) => part !== undefined).join(" ");
  return prefix === "" ? facts.message : `${prefix}: ${facts.message}`;
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "APIUserAbortError");
}
