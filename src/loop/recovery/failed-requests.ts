/**
 * Requests that reached the server and were refused or failed, as `request-failed` records
 * (docs/CONTEXT-BUDGET.md, "Refused requests"): the main loop's (each attempt the provider retried, and the
 * one that failed for good) and every side request's. They are bookkeeping — never sent, never projected —
 * so `inspect` can count what the server refused beside what it answered.
 */
import type { FailedRequestPurpose, RequestFailedRecord } from "../../messages/index.js";
import type { ProviderError } from "../../provider/index.js";

/** Longest message kept in a record: the server's first line is enough to tell one refusal from another. */
const MAX_MESSAGE_CHARS = 300;

/** One failed attempt of a request (the conversation's or a side request's), as it is reported for the record. */
export interface FailedRequest {
  purpose: FailedRequestPurpose;
  model: string;
  error: ProviderError;
  /** The provider sent the request again after this failure. */
  retried: boolean;
}

/**
 * Whether a failure came from a server: one that answered with a status, or broke off a stream it had
 * started. A request that never connected (refused, DNS) or that the person cancelled reached nobody.
 */
export function reachedServer(error: ProviderError): boolean {
  if (error.kind === "aborted") return false;
  return error.options.status !== undefined || error.kind !== "connection";
}

/** The record of one failed attempt, or undefined when the request never reached a server. */
export function failedRequestRecord(
  failed: FailedRequest,
  sessionId: string,
  now: Date,
): RequestFailedRecord | undefined {
  const { error } = failed;
  if (!reachedServer(error)) return undefined;
  const firstLine = error.message.split("\n")[0] ?? "";
  return {
    type: "request-failed",
    purpose: failed.purpose,
    model: failed.model,
    kind: error.kind,
    ...(error.options.status !== undefined ? { status: error.options.status } : {}),
    retried: failed.retried,
    message: firstLine.slice(0, MAX_MESSAGE_CHARS),
    timestamp: now.toISOString(),
    sessionId,
  };
}
