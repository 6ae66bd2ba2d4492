/**
 * Claude Code's error types for a turn an API failure ended: what StopFailure hooks get as `error` and match on
 * (https://code.claude.com/docs/en/hooks, "StopFailure"). threadline's failure kinds (provider/errors.ts) map onto
 * them here; docs/HOOKS.md lists the mapping.
 */
import type { ProviderErrorKind } from "../../provider/index.js";

export type StopFailureType =
  | "rate_limit"
  | "authentication_failed"
  | "billing_error"
  | "invalid_request"
  | "server_error"
  | "max_output_tokens"
  | "unknown";

const BY_KIND: Partial<Record<ProviderErrorKind, StopFailureType>> = {
  rate_limited: "rate_limit",
  auth: "authentication_failed",
  overloaded: "server_error",
  server: "server_error",
  connection: "server_error",
  stream_error: "server_error",
  invalid_request: "invalid_request",
  unsupported_input: "invalid_request",
  not_found: "invalid_request",
  prompt_too_long: "invalid_request",
  request_too_large: "invalid_request",
  image_too_large: "invalid_request",
  pdf_too_large: "invalid_request",
  pdf_password_protected: "invalid_request",
  pdf_invalid: "invalid_request",
};

/** The error type a failure of `kind` ends a turn with. */
export function stopFailureType(kind: ProviderErrorKind): StopFailureType {
  return BY_KIND[kind] ?? "unknown";
}
