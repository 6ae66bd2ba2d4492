/**
 * One writer per session: a lease row, not an advisory lock. An advisory lock lives and dies with one
 * connection, so a network blip would silently hand the session to another host while this one still thinks
 * it writes (and connection poolers in transaction mode cannot hold one at all). A lease is a row
 * (`lease_holder`, `lease_expires_at`) that survives blips shorter than its term, is renewed by a heartbeat
 * and by every write, and fences writes: an append commits only while `lease_holder` is still this process.
 * A crashed holder stops renewing, and the session can be taken over once the lease expires. Times are the
 * database's `now()`, so hosts' clocks never have to agree.
 */
import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Pool, PoolClient } from "pg";
import { StoreError } from "./pg-connect.js";

/** How long a lease lasts without renewal; a crashed holder's session can be taken over after this. */
export const DEFAULT_LEASE_MS = 30_000;

/** Environment variable overriding the lease term, in seconds. */
export const LEASE_SECONDS_ENV = "THREADLINE_STORE_LEASE_SECONDS";

/** Heartbeats per lease term: renewal every third of it, so two may fail before the lease lapses. */
export const HEARTBEATS_PER_LEASE = 3;

type Queryable = Pick<Pool | PoolClient, "query">;

/** This process's holder name: host, pid and a random tag (a pid can be reused; the tag cannot). */
export function newHolderId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`;
}

/** The lease term from `THREADLINE_STORE_LEASE_SECONDS`, else `DEFAULT_LEASE_MS`. Throws one line on a bad value. */
export function leaseMsFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const value = env[LEASE_SECONDS_ENV];
  if (value === undefined || value.trim() === "") return DEFAULT_LEASE_MS;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) {
    throw new StoreError(`${LEASE_SECONDS_ENV} must be a positive number of seconds, got "${value}"`);
  }
  return Math.round(seconds * 1000);
}

/** Another live process holds the session. */
export class SessionLeasedError extends StoreError {
  constructor(
    readonly sessionId: string,
    readonly holder: string,
    readonly expiresAt: Date,
  ) {
    super(
      `session ${sessionId} is in use by ${holder} (lease renewed until ${expiresAt.toISOString()}); ` +
        "it can be resumed once that process exits or its lease expires",
    );
  }
}

/** The session is not in the store. */
export class SessionNotFoundError extends StoreError {
  constructor(readonly sessionId: string) {
    super(`no session ${sessionId} in the PostgreSQL store`);
  }
}

/**
 * Takes the session for `holder`: one atomic UPDATE that succeeds only when the lease is free, expired, or
 * already ours. Throws `SessionLeasedError` naming the live holder, or `SessionNotFoundError`.
 */
export async function takeLease(
  db: Queryable,
  sessionId: string,
  holder: string,
  leaseMs: number,
  retried = false,
): Promise<void> {
  const taken = await db.query(
    `UPDATE threadline_sessions
        SET lease_holder = $2, lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1 AND (lease_holder IS NULL OR lease_expires_at <= now() OR lease_holder = $2)`,
    [sessionId, holder, leaseMs],
  );
  if (taken.rowCount === 1) return;
  const found = await db.query<{ lease_holder: string | null; lease_expires_at: Date | null }>(
    "SELECT lease_holder, lease_expires_at FROM threadline_sessions WHERE id = $1",
    [sessionId],
  );
  const row = found.rows[0];
  if (row === undefined) throw new SessionNotFoundError(sessionId);
  // Released or expired between the two statements: try once more rather than refuse a free session.
  if (row.lease_holder === null && !retried) return takeLease(db, sessionId, holder, leaseMs, true);
  throw new SessionLeasedError(sessionId, row.lease_holder ?? "another process", row.lease_expires_at ?? new Date(0));
}

/** Extends the lease; false when it is no longer ours (taken over after it expired). */
export async function renewLease(db: Queryable, sessionId: string, holder: string, leaseMs: number): Promise<boolean> {
  const renewed = await db.query(
    `UPDATE threadline_sessions SET lease_expires_at = now() + make_interval(secs => $3::float8 / 1000)
      WHERE id = $1 AND lease_holder = $2`,
    [sessionId, holder, leaseMs],
  );
  return renewed.rowCount === 1;
}

/** Gives the session up at once (a clean exit), if it is still ours. */
export async function releaseLease(db: Queryable, sessionId: string, holder: string): Promise<void> {
  await db.query(
    "UPDATE threadline_sessions SET lease_holder = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_holder = $2",
    [sessionId, holder],
  );
}

/** Who holds the session now ("nobody" when free). */
export async function currentHolder(db: Queryable, sessionId: string): Promise<string> {
  const found = await db.query<{ lease_holder: string | null }>(
    "SELECT lease_holder FROM threadline_sessions WHERE id = $1",
    [sessionId],
  );
  return found.rows[0]?.lease_holder ?? "nobody";
}
