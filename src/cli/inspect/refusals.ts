/**
 * Requests the server refused or failed, for `threadline inspect` (docs/CONTEXT-BUDGET.md, "Refused requests"):
 * threadline writes one `request-failed` record per refused attempt; Claude Code writes a `system` `api_error`
 * entry per attempt it retried (with `retryAttempt` and `error.status`) and a synthetic assistant message
 * (`isApiErrorMessage`, `apiErrorStatus`) for one it gave up on. Only one source is read per format, so a
 * refusal is never counted twice (threadline's own synthetic entries and notices are not requests).
 */
import { MAIN_SCOPE } from "../../cache/index.js";
import { SIDE_REQUEST_PURPOSES } from "../../messages/index.js";
import type { InspectRefusal, InspectRefusals, RequestPurpose, TranscriptFormat } from "./types.js";

type JsonRecord = Record<string, unknown>;

const PURPOSES: ReadonlySet<string> = new Set<string>(["turn", ...SIDE_REQUEST_PURPOSES]);

/** Longest message kept per refusal in the report. */
const MAX_MESSAGE_CHARS = 200;

/** Collects both sources as records arrive; `finish` keeps the one the transcript's format writes. */
export class RefusalTally {
  readonly #threadline: InspectRefusal[] = [];
  readonly #claudeCode: InspectRefusal[] = [];

  /** A threadline `request-failed` record; false when it is not one this build can read. */
  addRecord(record: JsonRecord, line: number): boolean {
    if (typeof record.kind !== "string" || typeof record.purpose !== "string" || !PURPOSES.has(record.purpose))
      return false;
    this.#threadline.push({
      line,
      timestamp: stringOr(record.timestamp),
      scope: MAIN_SCOPE,
      purpose: record.purpose as RequestPurpose,
      model: stringOr(record.model) ?? "unknown",
      kind: record.kind,
      status: typeof record.status === "number" ? record.status : null,
      retried: record.retried === true,
      message: (stringOr(record.message) ?? "").slice(0, MAX_MESSAGE_CHARS),
    });
    return true;
  }

  /** Claude Code's retry entry (`system`, `api_error`, `retryAttempt`). */
  addClaudeCodeRetry(record: JsonRecord, line: number, scope: string): void {
    if (typeof record.retryAttempt !== "number") return;
    const error = asRecord(record.error);
    const status = typeof error?.status === "number" ? error.status : null;
    const message = stringOr(error?.message) ?? stringOr(record.content) ?? "";
    this.#claudeCode.push(claudeCodeRefusal(record, line, scope, status, message, true));
  }

  /** Claude Code's synthetic error reply (`isApiErrorMessage`): the request it gave up on. */
  addClaudeCodeError(record: JsonRecord, line: number, scope: string): void {
    if (record.isApiErrorMessage !== true) return;
    const status = typeof record.apiErrorStatus === "number" ? record.apiErrorStatus : null;
    const content = asRecord(record.message)?.content;
    const text = Array.isArray(content)
      ? content.map((block) => stringOr(asRecord(block)?.text) ?? "").join(" ")
      : (stringOr(content) ?? "");
    this.#claudeCode.push(claudeCodeRefusal(record, line, scope, status, text, false));
  }

  finish(format: TranscriptFormat): InspectRefusals {
    const list = format === "threadline" ? this.#threadline : this.#claudeCode;
    const byKind: Record<string, number> = {};
    for (const refusal of list) byKind[refusal.kind] = (byKind[refusal.kind] ?? 0) + 1;
    return { requests: list.length, byKind, list };
  }
}

function claudeCodeRefusal(
  record: JsonRecord,
  line: number,
  scope: string,
  status: number | null,
  message: string,
  retried: boolean,
): InspectRefusal {
  return {
    line,
    timestamp: stringOr(record.timestamp),
    scope,
    purpose: "turn",
    model: stringOr(asRecord(record.message)?.model) ?? "unknown",
    kind: kindOf(status, message),
    status,
    retried,
    message: message.slice(0, MAX_MESSAGE_CHARS),
  };
}

/** The provider's kind for what Claude Code recorded: its status, and its text where a 400 says why. */
function kindOf(status: number | null, message: string): string {
  if (/prompt is too long/i.test(message)) return "prompt_too_long";
  if (status === 413 || /request too large/i.test(message)) return "request_too_large";
  if (status === 429) return "rate_limited";
  if (status === 529 || /overloaded/i.test(message)) return "overloaded";
  if (status === 401 || status === 403) return "auth";
  if (status === 400) return "invalid_request";
  if (status !== null && status >= 500) return "server";
  return "error";
}

function stringOr(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function asRecord(value: unknown): JsonRecord | null {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonRecord) : null;
}
