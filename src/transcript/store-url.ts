/**
 * Which transcript store a session uses: `THREADLINE_STORE` (or the engine's `store` option) is a URL;
 * `postgres://` and `postgresql://` select PostgreSQL, absent or empty means JSONL files under THREADLINE_HOME.
 */

/** Environment variable naming the transcript store. */
export const THREADLINE_STORE_ENV = "THREADLINE_STORE";

export type StoreLocation = { kind: "jsonl" } | { kind: "postgres"; url: string; display: string };

/** Where `value` (a store URL; undefined or "" for the default) points. Throws one line for anything else. */
export function parseStoreUrl(value: string | undefined): StoreLocation {
  if (value === undefined || value.trim() === "") return { kind: "jsonl" };
  const trimmed = value.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { kind: "postgres", url: trimmed, display: redactUrl(trimmed) };
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
  throw new Error(
    `${THREADLINE_STORE_ENV} must be a postgres:// or postgresql:// URL (or unset for JSONL files); got ${
      scheme === undefined ? "a value without a scheme" : `a ${scheme}: URL`
    }`,
  );
}

/** The store named by the environment. */
export function storeFromEnv(env: NodeJS.ProcessEnv = process.env): StoreLocation {
  return parseStoreUrl(env[THREADLINE_STORE_ENV]);
}

/** `host:port/database` of a PostgreSQL URL: safe to print (no user, no password, no query). */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    // A unix socket is named by a `host` parameter (`postgres:///db?host=/run/postgresql`).
    const host = parsed.hostname === "" ? (parsed.searchParams.get("host") ?? "localhost") : parsed.hostname;
    return `${host}:${parsed.port === "" ? "5432" : parsed.port}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(unparsable URL)";
  }
}
