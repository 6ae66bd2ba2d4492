/**
 * The retry schedule: exponential backoff with jitter, or the server's own `retry-after`.
 * Pure functions, so the provider's loop and the tests share one definition.
 */

/** Retries after the first attempt before giving up. */
export const DEFAULT_MAX_RETRIES = 10;

/** Delay before the first retry; doubled for each later one. */
export const DEFAULT_BASE_DELAY_MS = 500;

/** Upper bound on the exponential part of the delay. */
export const DEFAULT_MAX_DELAY_MS = 32_000;

/** Jitter added on top of the exponential delay, as a fraction of it (0.25 = up to 25 %). */
export const DEFAULT_JITTER_FRACTION = 0.25;

/** Consecutive 529 (overloaded) failures after which the fallback model is used (or the call fails). */
export const DEFAULT_MAX_CONSECUTIVE_OVERLOADED = 3;

/** Longest `retry-after` the provider will honour; beyond it the value is clamped (a misconfigured proxy must not park us for hours). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 5 * 60_000;

/** HTTP statuses worth retrying (besides every status ≥ 500). */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([408, 409, 429]);

/**
 * Delay before retry number `attempt` (1-based): `retryAfterMs` when the server gave one,
 * else 500 ms × 2^(attempt−1) capped at 32 s, plus up to 25 % jitter drawn from `random` (in [0, 1)).
 */
export function retryDelayMs(attempt: number, random: () => number, retryAfterMs?: number): number {
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs >= 0) {
    return Math.min(retryAfterMs, DEFAULT_MAX_RETRY_AFTER_MS);
  }
  const exponent = Math.max(0, attempt - 1);
  const base = Math.min(DEFAULT_BASE_DELAY_MS * 2 ** exponent, DEFAULT_MAX_DELAY_MS);
  const jitter = base * DEFAULT_JITTER_FRACTION * clampUnit(random());
  return Math.round(base + jitter);
}

/** Whether an HTTP status is retryable by the API's published policy. */
export function isRetryableStatus(status: number): boolean {
  return RETRYABLE_STATUSES.has(status) || status >= 500;
}

/** Minimal view of response headers (the SDK's `Headers` satisfies it). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * The server's requested wait: `retry-after-ms` (milliseconds) wins over `retry-after`
 * (seconds, or an HTTP date relative to `now`). Undefined when absent or unreadable.
 */
export function retryAfterFromHeaders(headers: HeaderReader | undefined, now: Date = new Date()): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = headers.get("retry-after-ms");
  if (milliseconds !== null) {
    const value = Number.parseFloat(milliseconds);
    if (Number.isFinite(value) && value >= 0) return value;
  }
  const seconds = headers.get("retry-after");
  if (seconds !== null) {
    const value = Number.parseFloat(seconds);
    if (Number.isFinite(value) && value >= 0 && /^\s*[\d.]+\s*$/.test(seconds)) return value * 1000;
    const date = Date.parse(seconds);
    if (Number.isFinite(date)) return Math.max(0, date - now.getTime());
  }
  return undefined;
}

/** `x-should-retry`: the server's explicit verdict, overriding the status-based policy. */
export function shouldRetryFromHeaders(headers: HeaderReader | undefined): boolean | undefined {
  const value = headers?.get("x-should-retry");
  if (value === "true") return true;
  if (value === "false") return false;
  return undefined;
}

function clampUnit(value: number): number {
  if (!Number.isFinite(value) || value < 0) return 0;
  return Math.min(value, 1);
}
