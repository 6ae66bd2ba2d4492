/**
 * The shape of one contract violation and the small helpers every rule file shares.
 * Messages start with the API's dotted path (`messages.3.content.0: ...`) so clients can match on it.
 */

import type { TokenRuler } from "../ruler.js";

/** One broken rule: the HTTP status and error type the real API would answer with, and its message. */
export interface Violation {
  status: 400 | 413;
  type: string;
  message: string;
}

/** Options that change what the validator checks. */
export interface ValidateOptions {
  /** When set, the latest assistant turn's thinking signatures are HMAC-verified; when absent only presence is checked. */
  signatureSecret?: string;
  /** Overrides the model table's context window (small windows make compaction tests fast). Default: modelLimits(). */
  contextWindow?: number;
  /** The ruler the window is measured with. Default the tokenizer ×1 (TokenRuler.unscaled). */
  ruler?: TokenRuler;
  /** Largest accepted body in bytes; larger gets 413. Default DEFAULT_MAX_REQUEST_BYTES (32 MB). */
  maxRequestBytes?: number;
  /** Byte length of the raw body when the caller already knows it (skips one JSON.stringify). */
  bodyBytes?: number;
  /** Accept `cache_edits` blocks and `cache_reference` fields (emulator-only cache editing). Default false. */
  cacheEditing?: boolean;
  /** Which endpoint the body is for: count_tokens takes no `max_tokens`. Default "messages". */
  endpoint?: "messages" | "count_tokens";
  /** Also reject `input + max_tokens > window` as older models did (newer ones accept it). Default false. */
  rejectInputPlusMaxTokens?: boolean;
  /** `anthropic-beta` values sent with the request; when given, beta-only fields require their beta. Default: not checked. */
  betas?: readonly string[];
}

/** A request body above this many bytes is answered with 413 (the API's 32 MB limit). */
export const DEFAULT_MAX_REQUEST_BYTES = 32 * 1024 * 1024;

/** A 400 invalid_request_error whose message starts with `path`. */
export function invalid(path: string, message: string): Violation {
  return { status: 400, type: "invalid_request_error", message: path === "" ? message : `${path}: ${message}` };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reports every key of `value` not in `allowed` as "Extra inputs are not permitted". */
export function checkExtraKeys(
  value: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  path: string,
  out: Violation[],
): void {
  for (const key in value) {
    if (!allowed.has(key)) out.push(invalid(path === "" ? key : `${path}.${key}`, "Extra inputs are not permitted"));
  }
}
