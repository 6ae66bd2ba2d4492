/**
 * A session's writer in PostgreSQL. `append` numbers the entry and, when no write is in flight, sends it at
 * once on the writer's own connection (the bytes leave the process before `append` returns); entries
 * appended while a write is in flight go together in the next one (one multi-row INSERT), so a busy session
 * batches by itself and an idle one writes each entry alone. `flush()` resolves once everything appended is
 * committed; the engine awaits it before every model call, as it does for the file store.
 *
 * Every INSERT is fenced by the lease: it commits only while this process is the session's holder, and it
 * renews the lease. A failed write keeps its entries queued, in order, with their numbers; the next `flush()`
 * retries them (ON CONFLICT DO NOTHING makes a retry of a write whose commit went unacknowledged harmless)
 * and rejects with one line if the database is still away. Entries acknowledged before are never touched.
 */
import type { Client } from "pg";
import type { TimelineEntry } from "../../messages/index.js";
import { redactUrl } from "../store-url.js";
import type { TranscriptStore } from "../transcript-store.js";
import { connectClient, errorReason, type PgConnectOptions, StoreError } from "./pg-connect.js";
import { currentHolder, HEARTBEATS_PER_LEASE, releaseLease, renewLease } from "./pg-lease.js";

/** Most entries sent in one INSERT (a longer queue goes in several). */
export const DEFAULT_MAX_BATCH_ENTRIES = 500;

export interface PgTranscriptStoreOptions extends PgConnectOptions {
  url: string;
  sessionId: string;
  /** This process's lease holder name (already holding the lease). */
  holder: string;
  leaseMs: number;
  /** Sequence number of the next entry (1 for a new session). */
  nextSeq: number;
  /** Heartbeat period. Default `leaseMs / HEARTBEATS_PER_LEASE`. */
  heartbeatMs?: number;
  /** Called after each commit with the number of entries committed so far in this process. Default none. */
  onCommit?: (committed: number) => void;
  /** Runs after close (the owner's pool, when the store owns it). Default none. */
  onClose?: () => Promise<void>;
}

interface Pending {
  seq: number;
  record: string;
}

const APPEND_SQL = `
  WITH lease AS (
    UPDATE threadline_sessions
       SET lease_expires_at = now() + make_interval(secs => $3::float8 / 1000),
           last_activity = now(),
           last_seq = GREATEST(last_seq, $4::bigint)
     WHERE id = $1 AND lease_holder = $2
    RETURNING id
  ), written AS (
    INSERT INTO threadline_entries (session_id, seq, record)
    SELECT lease.id, batch.seq, batch.record FROM lease, unnest($5::bigint[], $6::text[]) AS batch (seq, record)
    ON CONFLICT (session_id, seq) DO NOTHING
    RETURNING 1
  )
  SELECT (SELECT count(*) FROM lease)::int AS held, (SELECT count(*) FROM written)::int AS written`;

export class PgTranscriptStore implements TranscriptStore {
  readonly path = undefined;
  readonly sessionId: string;
  readonly #options: PgTranscriptStoreOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #queue: Pending[] = [];
  #nextSeq: number;
  #committed = 0;
  #inFlight: Promise<void> | undefined;
  /** The last write's failure; while set, appends wait for the next flush instead of writing at once. */
  #error: unknown;
  /** Set once another process has taken the session: nothing more is written. */
  #lost: StoreError | undefined;
  #closed = false;
  readonly #heartbeat: NodeJS.Timeout;

  constructor(options: PgTranscriptStoreOptions) {
    this.#options = options;
    this.sessionId = options.sessionId;
    this.#nextSeq = options.nextSeq;
    const period = options.heartbeatMs ?? Math.max(1, Math.floor(options.leaseMs / HEARTBEATS_PER_LEASE));
    this.#heartbeat = setInterval(() => void this.#beat(), period);
    this.#heartbeat.unref();
  }

  /** Entries committed by this process so far. */
  get committed(): number {
    return this.#committed;
  }

  append(entry: TimelineEntry): void {
    if (this.#closed) throw new Error(`transcript store is closed: session ${this.sessionId}`);
    this.#queue.push({ seq: this.#nextSeq++, record: JSON.stringify(entry) });
    if (this.#inFlight === undefined && this.#error === undefined && this.#lost === undefined) this.#startWriting();
  }

  async flush(): Promise<void> {
    if (this.#inFlight !== undefined) await this.#inFlight;
    if (this.#lost !== undefined) throw this.#lost;
    if (this.#queue.length > 0) {
      this.#error = undefined;
      this.#startWriting();
      await this.#inFlight;
    }
    if (this.#lost !== undefined) throw this.#lost;
    if (this.#error !== undefined) {
      const where = redactUrl(this.#options.url);
      throw new StoreError(
        `transcript not saved: PostgreSQL at ${where}: ${errorReason(this.#error)}; ` +
          `${this.#committed} entries of session ${this.sessionId} saved by this process are kept, ` +
          `${this.#queue.length} waiting are retried on the next save`,
      );
    }
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    try {
      await this.flush();
    } finally {
      this.#closed = true;
      clearInterval(this.#heartbeat);
      // A session that never wrote has no connection yet; the lease still has to be given back.
      const client =
        this.#client ?? (this.#lost === undefined ? await this.#connect(true).catch(() => undefined) : undefined);
      this.#client = undefined;
      if (client !== undefined) {
        if (this.#lost === undefined) {
          await releaseLease(client, this.sessionId, this.#options.holder).catch(() => undefined);
        }
        await client.end().catch(() => undefined);
      }
      await this.#options.onClose?.();
    }
  }

  #startWriting(): void {
    const writing = this.#writeQueued().finally(() => {
      if (this.#inFlight === writing) this.#inFlight = undefined;
    });
    this.#inFlight = writing;
  }

  /** Writes batches until the queue is empty or a write fails (the failure is kept for the next flush). */
  async #writeQueued(): Promise<void> {
    while (this.#queue.length > 0 && this.#lost === undefined) {
      const batch = this.#queue.slice(0, DEFAULT_MAX_BATCH_ENTRIES);
      try {
        // With a live connection the INSERT is sent synchronously, before `append` returns.
        const client = this.#client ?? (await this.#connect());
        await this.#insert(client, batch);
      } catch (error) {
        this.#error = error;
        this.#dropClient();
        return;
      }
      this.#queue.splice(0, batch.length);
      this.#committed += batch.length;
      this.#options.onCommit?.(this.#committed);
    }
  }

  async #insert(client: Client, batch: Pending[]): Promise<void> {
    const last = batch[batch.length - 1]!.seq;
    const result = await client.query<{ held: number; written: number }>({
      name: "threadline_append",
      text: APPEND_SQL,
      values: [
        this.sessionId,
        this.#options.holder,
        this.#options.leaseMs,
        last,
        batch.map((pending) => pending.seq),
        batch.map((pending) => pending.record),
      ],
    });
    if (result.rows[0]?.held === 1) return;
    const holder = await currentHolder(client, this.sessionId).catch(() => "another process");
    this.#lost = new StoreError(
      `session ${this.sessionId} was taken over by ${holder} after this process's lease expired; ` +
        `${this.#queue.length} entries not saved`,
    );
  }

  /** Opens the writer's connection (`closing`: for the final lease release, after `#closed` is set). */
  #connect(closing = false): Promise<Client> {
    this.#connecting ??= connectClient(this.#options.url, this.#options, () => this.#dropClient()).then(
      (client) => {
        this.#connecting = undefined;
        if (this.#closed && !closing) {
          client.end().catch(() => undefined);
          throw new Error("transcript store is closed");
        }
        this.#client = client;
        return client;
      },
      (error: unknown) => {
        this.#connecting = undefined;
        throw error;
      },
    );
    return this.#connecting;
  }

  /** Forgets a broken connection (the next write opens a new one). */
  #dropClient(): void {
    const client = this.#client;
    this.#client = undefined;
    client?.end().catch(() => undefined);
  }

  /** Renews the lease between writes; a renewal that finds another holder stops all writing. */
  async #beat(): Promise<void> {
    if (this.#closed || this.#lost !== undefined || this.#inFlight !== undefined) return;
    try {
      const client = this.#client ?? (await this.#connect());
      const held = await renewLease(client, this.sessionId, this.#options.holder, this.#options.leaseMs);
      if (!held) {
        const holder = await currentHolder(client, this.sessionId).catch(() => "another process");
        this.#lost = new StoreError(
          `session ${this.sessionId} was taken over by ${holder} after this process's lease expired`,
        );
      }
    } catch {
      // The database is away: the next write reports it; the lease may lapse meanwhile, and fencing then
      // refuses this process's later writes rather than interleave them with a new holder's.
      this.#dropClient();
    }
  }
}
