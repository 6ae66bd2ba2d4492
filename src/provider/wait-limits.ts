/**
 * How long a session waits on a server, from the environment (docs/RELIABILITY.md): `API_TIMEOUT_MS` (Claude
 * Code's name) bounds the wait for response headers, `THREADLINE_STREAM_IDLE_TIMEOUT_MS` the silence inside a
 * stream (keep-alive pings do not count as progress), `CLAUDE_CODE_MAX_RETRIES` (Claude Code's name) the
 * retries. Each is a whole number of milliseconds (retries: a count); anything else is ignored for the default.
 */
import type { SdkProviderOptions } from "./sdk-provider.js";

export const REQUEST_TIMEOUT_ENV = "API_TIMEOUT_MS";
export const STREAM_IDLE_TIMEOUT_ENV = "THREADLINE_STREAM_IDLE_TIMEOUT_MS";
export const MAX_RETRIES_ENV = "CLAUDE_CODE_MAX_RETRIES";

function wholeNumber(value: string | undefined, minimum: number): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const parsed = Number(value.trim());
  return parsed >= minimum ? parsed : undefined;
}

/** The wait options `env` sets (only those it sets). */
export function waitLimitsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
): Pick<SdkProviderOptions, "timeoutMs" | "idleTimeoutMs" | "maxRetries"> {
  const timeoutMs = wholeNumber(env[REQUEST_TIMEOUT_ENV], 1);
  const idleTimeoutMs = wholeNumber(env[STREAM_IDLE_TIMEOUT_ENV], 1);
  const maxRetries = wholeNumber(env[MAX_RETRIES_ENV], 0);
  return {
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(maxRetries !== undefined ? { maxRetries } : {}),
  };
}
