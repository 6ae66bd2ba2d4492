/**
 * Where a session is opened: the one owner of "new session, open a saved one, continue the latest, list them",
 * over both stores (JSONL files under THREADLINE_HOME, or PostgreSQL). Callers say what they want; the store
 * location, the file path, the database connection and the lookups (id, unique id prefix, path) are worked out
 * here. A problem a person can fix is one `StoreError` line; the CLI shows it as is (docs/ARCHITECTURE.md,
 * "Where a session is opened").
 *
 * One behaviour for PostgreSQL: a new session's transcript starts opening when the session is created, and
 * `create` waits for it, so a database that is down is one line before any prompt is read. (A `QueryEngine`
 * constructed directly opens the same way and reports such a failure on its first flush.)
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  cwdSlug,
  listSessions,
  listStoredFileSessions,
  PgSessionDatabase,
  parseStoreUrl,
  projectKeyDir,
  type StoredSessionSummary,
  StoreError,
  type StoreLocation,
  THREADLINE_STORE_ENV,
  TRANSCRIPT_EXTENSION,
  threadlineHome,
  transcriptPath,
} from "../transcript/index.js";
import { DeferredTranscriptStore } from "./deferred-transcript.js";
import type { QueryEngineOptions } from "./engine-options.js";
import { QueryEngine } from "./query-engine.js";

/** A session ready to take turns: its engine, whether it was loaded, and what the loader had to skip. */
export interface OpenedSession {
  engine: QueryEngine;
  /** Whether an earlier session was loaded. */
  resumed: boolean;
  /** Lines the transcript loader had to skip (torn tail, bad lines), one line each. */
  problems: string[];
}

/** What `list` returns at most when no limit is given. */
export const DEFAULT_LIST_LIMIT = 20;

/** Shortest session-id prefix `open` looks up (shorter ones are taken as full ids). */
export const MIN_ID_PREFIX_LENGTH = 4;

export class SessionStore {
  readonly #options: QueryEngineOptions;
  readonly #cwd: string;

  /** `options` are the engine options every session opened here gets (`store`, `home`, `project`, `cwd` …). */
  constructor(options: QueryEngineOptions = {}) {
    this.#options = options;
    this.#cwd = options.cwd ?? process.cwd();
  }

  /** The store the options (else `$THREADLINE_STORE`) name; a bad URL is a `StoreError`. */
  get location(): StoreLocation {
    try {
      return parseStoreUrl(this.#options.store ?? (this.#options.env ?? process.env)[THREADLINE_STORE_ENV]);
    } catch (error) {
      throw new StoreError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The project key sessions here are filed under (`project`, else the cwd's slug). */
  get project(): string {
    return this.#options.project ?? cwdSlug(this.#cwd);
  }

  /**
   * A new session, `sessionId` or a random one. A JSONL id already on disk is refused (resume it instead); a
   * PostgreSQL session is opened before this resolves.
   */
  async create(sessionId?: string): Promise<OpenedSession> {
    const location = this.location;
    if (location.kind === "jsonl" && sessionId !== undefined && existsSync(this.#sessionFile(sessionId))) {
      throw new StoreError(`Session ID ${sessionId} is already in use; use --resume ${sessionId} to continue it.`);
    }
    const engine = new QueryEngine({ ...this.#options, cwd: this.#cwd, sessionId: sessionId ?? randomUUID() });
    if (location.kind === "postgres" && engine.transcript instanceof DeferredTranscriptStore) {
      try {
        await engine.transcript.ready();
      } catch (error) {
        await engine.close().catch(() => undefined);
        throw error;
      }
    }
    return { engine, resumed: false, problems: [] };
  }

  /** A saved session by id, a unique prefix of one (JSONL), or a transcript path (JSONL). */
  async open(sessionIdOrPath: string): Promise<OpenedSession> {
    const isPath = sessionIdOrPath.includes("/") || sessionIdOrPath.endsWith(TRANSCRIPT_EXTENSION);
    if (this.location.kind === "postgres") {
      if (isPath) {
        throw new StoreError(
          `${THREADLINE_STORE_ENV} is a database: resume a session by id, or bring the file in first with \`threadline import ${sessionIdOrPath}\``,
        );
      }
      return this.#resume(sessionIdOrPath);
    }
    const path = isPath ? sessionIdOrPath : await this.#fileOf(sessionIdOrPath);
    if (!existsSync(path)) {
      throw new StoreError(
        isPath
          ? `No transcript at ${path}.`
          : `No conversation found with session ID: ${sessionIdOrPath} (in this directory).`,
      );
    }
    return this.#resume(path);
  }

  /** The most recently active session of this directory (JSONL) or project (PostgreSQL). */
  async continueLatest(): Promise<OpenedSession> {
    const location = this.location;
    if (location.kind === "postgres") {
      const [latest] = await this.#withDatabase(location.url, (database) =>
        database.listSessions({ project: this.project, limit: 1 }),
      );
      if (latest === undefined) throw new StoreError(`No conversation found to continue in project ${this.project}.`);
      return this.#resume(latest.sessionId);
    }
    // Only the newest is wanted: no need to open every transcript for its preview.
    const [latest] = await this.#localSessions();
    if (latest === undefined) throw new StoreError("No conversation found to continue in this directory.");
    return this.#resume(latest.path);
  }

  /** Stored sessions, most recently active first: every project's, or the one with key `project`. */
  async list(options: { limit?: number; project?: string } = {}): Promise<StoredSessionSummary[]> {
    const limit = options.limit ?? DEFAULT_LIST_LIMIT;
    const { project } = options;
    const location = this.location;
    if (location.kind === "postgres") {
      return this.#withDatabase(location.url, (database) =>
        database.listSessions({ limit, ...(project !== undefined ? { project } : {}) }),
      );
    }
    return listStoredFileSessions({
      home: this.#options.home ?? threadlineHome(this.#options.env ?? process.env),
      limit,
      ...(project !== undefined ? { project } : {}),
    });
  }

  async #resume(sessionIdOrPath: string): Promise<OpenedSession> {
    const { engine, problems } = await QueryEngine.resume(sessionIdOrPath, { ...this.#options, cwd: this.#cwd });
    return { engine, resumed: true, problems };
  }

  /** The JSONL file of a session id: under `project`'s folder when given, else this directory's. */
  #sessionFile(sessionId: string): string {
    const home = this.#options.home ?? threadlineHome();
    if (this.#options.project === undefined) return transcriptPath(sessionId, this.#cwd, home);
    return join(projectKeyDir(this.#options.project, home), `${sessionId}${TRANSCRIPT_EXTENSION}`);
  }

  /** The file of an id, or of the one session here whose id starts with it (as short ids are shown and typed). */
  async #fileOf(sessionId: string): Promise<string> {
    const path = this.#sessionFile(sessionId);
    if (existsSync(path) || !new RegExp(`^[0-9a-f-]{${MIN_ID_PREFIX_LENGTH},}$`, "i").test(sessionId)) return path;
    const prefix = sessionId.toLowerCase();
    const matches = (await this.#localSessions()).filter((session) => session.sessionId.startsWith(prefix));
    if (matches.length > 1) {
      throw new StoreError(`Session ID prefix ${sessionId} matches ${matches.length} sessions; type more of it.`);
    }
    return matches[0]?.path ?? path;
  }

  #localSessions() {
    return listSessions(this.#cwd, this.#options.home, {
      previews: false,
      ...(this.#options.project !== undefined ? { project: this.#options.project } : {}),
    });
  }

  /** `use` on a new connection, closed afterwards. */
  async #withDatabase<T>(url: string, use: (database: PgSessionDatabase) => Promise<T>): Promise<T> {
    const database = await PgSessionDatabase.connect(url);
    try {
      return await use(database);
    } finally {
      await database.close();
    }
  }
}
