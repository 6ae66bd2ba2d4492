/**
 * Connection failures that waiting cannot fix soon: a host that does not resolve, a port fetch refuses to
 * dial, nothing listening. Backing off for minutes only hides them, so each gets a few quick retries (or
 * none) within `DEFAULT_UNREACHABLE_BUDGET_MS`, then fails with one line naming the URL and the cause.
 * A table of patterns with an example beside each, like classify.ts.
 */

/** Total time spent retrying an unreachable endpoint before giving up, milliseconds. */
export const DEFAULT_UNREACHABLE_BUDGET_MS = 10_000;

/** The endpoint named in errors when no base URL is configured (the SDK's default). */
export const DEFAULT_API_URL = "https://api.anthropic.com";

export interface UnreachableRow {
  /** Matches the classified failure message (which carries the cause chain and its error codes). */
  pattern: RegExp;
  /** What the person reads after "Cannot reach <url>: ". */
  cause: string;
  /** Quick retries allowed (back-off from 500 ms), within the time budget. */
  retries: number;
  /** A real failure message this row is written for; the tests check each one. */
  example: string;
}

/** First match wins. */
export const UNREACHABLE_TABLE: readonly UnreachableRow[] = [
  {
    pattern: /\bbad port\b/i,
    cause: "the port is one fetch refuses to connect to (a blocked 'bad port'); use another port",
    retries: 0,
    example: "Connection error.: fetch failed: bad port",
  },
  {
    pattern: /\bENOTFOUND\b/,
    cause: "host not found (DNS lookup failed: ENOTFOUND)",
    retries: 0,
    example: "Connection error.: fetch failed: getaddrinfo ENOTFOUND nonexistent.invalid",
  },
  {
    pattern: /\bEAI_AGAIN\b/,
    cause: "DNS lookup failed (EAI_AGAIN: no answer from the resolver)",
    retries: 2,
    example: "Connection error.: fetch failed: getaddrinfo EAI_AGAIN api.example.com",
  },
  {
    pattern: /\bECONNREFUSED\b/,
    cause: "connection refused (nothing is listening there: ECONNREFUSED)",
    retries: 3,
    example: "Connection error.: fetch failed: connect ECONNREFUSED 127.0.0.1:4000",
  },
  {
    pattern: /\bE(HOST|NET)UNREACH\b/,
    cause: "no route to the host (EHOSTUNREACH/ENETUNREACH)",
    retries: 3,
    example: "Connection error.: fetch failed: connect EHOSTUNREACH 10.0.0.1:443",
  },
  {
    pattern: /\bInvalid URL\b|\bERR_INVALID_URL\b/,
    cause: "the URL is invalid (check ANTHROPIC_BASE_URL)",
    retries: 0,
    example: "Invalid URL (ERR_INVALID_URL)",
  },
];

/** The row for a failure below HTTP, or undefined when the failure is not an unreachable endpoint. */
export function unreachableRow(message: string): UnreachableRow | undefined {
  return UNREACHABLE_TABLE.find((row) => row.pattern.test(message));
}

/** `Cannot reach http://127.0.0.1:4000: connection refused (…) after 3 quick retries` */
export function unreachableMessage(url: string, row: UnreachableRow, retries: number): string {
  const after = retries > 0 ? ` (gave up after ${retries} quick ${retries === 1 ? "retry" : "retries"})` : "";
  return `Cannot reach ${url}: ${row.cause}${after}`;
}
