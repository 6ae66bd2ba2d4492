/**
 * Sessions in PostgreSQL: connecting (with the schema migrated), creating and resuming a session for
 * writing (lease taken first, then the entries read, so nobody appends in between), reading one without a
 * lease (inspect, export), listing, and importing a JSONL transcript.
 */
import type { Pool } from "pg";
import { createHeader } from "../header.js";
import { type LoadResult, TranscriptLineLoader } from "../load-transcript.js";
import { redactUrl } from "../store-url.js";
import {
  connectionError,
  createPool,
  errorReason,
  type PgConnectOptions,
  poolClient,
  StoreError,
} from "./pg-connect.js";
import { leaseMsFromEnv, newHolderId, SessionNotFoundError, takeLease } from "./pg-lease.js";
import { migrate } from "./pg-migrations.js";
import { PgTranscriptStore } from "./pg-transcript-store.js";

/** Rows read per query when loading a session (keyset pages keep memory flat for long sessions). */
export const DEFAULT_LOAD_PAGE_ROWS = 2_000;

export interface PgSessionDatabaseOptions extends PgConnectOptions {
  /** Lease term. Default `THREADLINE_STORE_LEASE_SECONDS`, else `DEFAULT_LEASE_MS`. */
  leaseMs?: number;
  /** Heartbeat period. Default a third of the lease. */
  heartbeatMs?: number;
  /** Lease holder name for this process. Default `newHolderId()`. */
  holder?: string;
}

export interface NewPgSession {
  sessionId: string;
  cwd: string;
  /** Project key (`--project`, else the cwd's slug). */
  project: string;
  /** Creation time for the header. Default now. */
  now?: Date;
}

export interface PgSessionSummary {
  sessionId: string;
  project: string;
  cwd: string;
  createdAt: Date;
  lastActivity: Date;
  entries: number;
  bytes: number;
  /** The live lease's holder, or undefined when the session is free (or its lease expired). */
  holder: string | undefined;
}

export interface WriterOptions {
  /** Called after each commit with the entries committed so far. Default none. */
  onCommit?: (committed: number) => void;
  /** Close the database when the store closes (a store opened for one engine). Default false. */
  closeDatabaseOnClose?: boolean;
}

export class PgSessionDatabase {
  readonly url: string;
  readonly holder: string;
  readonly leaseMs: number;
  readonly #pool: Pool;
  readonly #options: PgSessionDatabaseOptions;

  private constructor(url: string, pool: Pool, options: PgSessionDatabaseOptions) {
    this.url = url;
    this.#pool = pool;
    this.#options = options;
    this.holder = options.holder ?? newHolderId();
    this.leaseMs = options.leaseMs ?? leaseMsFromEnv();
  }

  /** Connects and brings the schema up to date. Fails with one line (`StoreError`) when the server is away. */
  static async connect(url: string, options: PgSessionDatabaseOptions = {}): Promise<PgSessionDatabase> {
    const pool = await createPool(url, options);
    try {
      const client = await poolClient(pool, url, options);
      try {
        await migrate(client);
      } finally {
        client.release();
      }
    } catch (error) {
      await pool.end().catch(() => undefined);
      if (error instanceof StoreError) throw error;
      throw new StoreError(`PostgreSQL at ${redactUrl(url)}: cannot prepare the schema: ${errorReason(error)}`);
    }
    return new PgSessionDatabase(url, pool, options);
  }

  /** Where the store is, safe to print. */
  get display(): string {
    return redactUrl(this.url);
  }

  async close(): Promise<void> {
    await this.#pool.end().catch(() => undefined);
  }

  /** Creates a session held by this process. Throws when the id is taken. */
  async createSession(session: NewPgSession, writer: WriterOptions = {}): Promise<PgTranscriptStore> {
    const header = JSON.stringify(createHeader(session.sessionId, session.cwd, session.now));
    const inserted = await this.#query(
      `INSERT INTO threadline_sessions (id, project, cwd, header, created_at, lease_holder, lease_expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7::float8 / 1000))
       ON CONFLICT (id) DO NOTHING`,
      [session.sessionId, session.project, session.cwd, header, session.now ?? new Date(), this.holder, this.leaseMs],
    );
    if (inserted.rowCount !== 1) throw new StoreError(`session ${session.sessionId} already exists in the store`);
    return this.#writer(session.sessionId, 1, writer);
  }

  /** Takes the session for writing (refused while another process holds it), then loads it. */
  async takeSession(
    sessionId: string,
    writer: WriterOptions = {},
  ): Promise<{ store: PgTranscriptStore; loaded: LoadResult }> {
    await this.#guard(() => takeLease(this.#pool, sessionId, this.holder, this.leaseMs));
    const loaded = await this.loadSession(sessionId);
    if (loaded === undefined) throw new SessionNotFoundError(sessionId);
    return { store: this.#writer(sessionId, loaded.lastSeq + 1, writer), loaded: loaded.result };
  }

  /** Reads a session without taking it: header as line 1, entry `seq` as line `seq + 1`. */
  async loadSession(sessionId: string): Promise<{ result: LoadResult; lastSeq: number } | undefined> {
    const header = await this.sessionHeader(sessionId);
    if (header === undefined) return undefined;
    const loader = new TranscriptLineLoader(sessionId);
    loader.addLine(header, 1);
    const lastSeq = await this.forEachRecord(sessionId, (record, seq) => loader.addLine(record, seq + 1));
    return { result: loader.result(), lastSeq };
  }

  /** The session's header line, or undefined when there is no such session. */
  async sessionHeader(sessionId: string): Promise<string | undefined> {
    const found = await this.#query<{ header: string }>("SELECT header FROM threadline_sessions WHERE id = $1", [
      sessionId,
    ]);
    return found.rows[0]?.header;
  }

  /** Calls `onRecord` for every entry in order; resolves to the last sequence number (0 when none). */
  async forEachRecord(sessionId: string, onRecord: (record: string, seq: number) => void): Promise<number> {
    let after = 0;
    for (;;) {
      const page = await this.#query<{ seq: string; record: string }>(
        "SELECT seq, record FROM threadline_entries WHERE session_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
        [sessionId, after, DEFAULT_LOAD_PAGE_ROWS],
      );
      for (const row of page.rows) {
        after = Number(row.seq);
        onRecord(row.record, after);
      }
      if (page.rows.length < DEFAULT_LOAD_PAGE_ROWS) return after;
    }
  }

  /** Sessions, most recently active first; `project` filters. */
  async listSessions(options: { project?: string; limit?: number } = {}): Promise<PgSessionSummary[]> {
    const found = await this.#query<{
      id: string;
      project: string;
      cwd: string;
      created_at: Date;
      last_activity: Date;
      last_seq: string;
      bytes: string;
      holder: string | null;
    }>(
      `SELECT s.id, s.project, s.cwd, s.created_at, s.last_activity, s.last_seq,
              (SELECT coalesce(sum(octet_length(e.record)), 0) FROM threadline_entries e WHERE e.session_id = s.id)
                + octet_length(s.header) AS bytes,
              CASE WHEN s.lease_expires_at > now() THEN s.lease_holder END AS holder
         FROM threadline_sessions s
        WHERE $1::text IS NULL OR s.project = $1
        ORDER BY s.last_activity DESC, s.id
        LIMIT $2`,
      [options.project ?? null, options.limit ?? null],
    );
    return found.rows.map((row) => ({
      sessionId: row.id,
      project: row.project,
      cwd: row.cwd,
      createdAt: row.created_at,
      lastActivity: row.last_activity,
      entries: Number(row.last_seq),
      bytes: Number(row.bytes),
      holder: row.holder ?? undefined,
    }));
  }

  /**
   * Stores a whole transcript (header line and record lines, verbatim) as a new, unheld session, in one
   * transaction: all of it or nothing. Throws when the id is taken.
   */
  async importSession(
    session: { sessionId: string; project: string; cwd: string; createdAt: Date; header: string },
    records: readonly string[],
  ): Promise<void> {
    const client = await poolClient(this.#pool, this.url, this.#options);
    try {
      await client.query("BEGIN");
      const inserted = await client.query(
        `INSERT INTO threadline_sessions (id, project, cwd, header, created_at, last_seq) VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (id) DO NOTHING`,
        [session.sessionId, session.project, session.cwd, session.header, session.createdAt, records.length],
      );
      if (inserted.rowCount !== 1)
        throw new StoreError(`session ${session.sessionId} already exists in the store; nothing imported`);
      for (let start = 0; start < records.length; start += DEFAULT_LOAD_PAGE_ROWS) {
        const chunk = records.slice(start, start + DEFAULT_LOAD_PAGE_ROWS);
        await client.query(
          `INSERT INTO threadline_entries (session_id, seq, record)
           SELECT $1, $2::bigint + ordinality, record FROM unnest($3::text[]) WITH ORDINALITY AS batch (record, ordinality)`,
          [session.sessionId, start, chunk],
        );
      }
      await client.query("COMMIT");
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  #writer(sessionId: string, nextSeq: number, writer: WriterOptions): PgTranscriptStore {
    return new PgTranscriptStore({
      ...this.#options,
      url: this.url,
      sessionId,
      holder: this.holder,
      leaseMs: this.leaseMs,
      nextSeq,
      ...(this.#options.heartbeatMs !== undefined ? { heartbeatMs: this.#options.heartbeatMs } : {}),
      ...(writer.onCommit !== undefined ? { onCommit: writer.onCommit } : {}),
      ...(writer.closeDatabaseOnClose === true ? { onClose: () => this.close() } : {}),
    });
  }

  #query<Row extends object>(text: string, values: unknown[]) {
    return this.#guard(() => this.#pool.query<Row>(text, values));
  }

  /** Runs a statement; a connection failure becomes one line naming the server. */
  async #guard<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      const code = (error as { code?: unknown }).code;
      if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && !code.startsWith("08") && !code.startsWith("57P")) {
        throw new StoreError(`PostgreSQL at ${this.display}: ${errorReason(error)}`);
      }
      throw connectionError(error, this.url, this.#options);
    }
  }
}
