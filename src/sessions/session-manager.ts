/**
 * Where a session lives: the one owner of "new session, open a saved one, continue the latest, list them",
 * over both stores (JSONL files under threadline's home, or PostgreSQL). The place — home, project key, store —
 * is worked out once, when the manager is made (`SessionPlace`), and every call takes it, as pi-mono's session
 * manager takes its session folder. Callers say what they want; the file path, the database connection and the
 * lookups (id, unique id prefix, path) are worked out here. A problem a person can fix is one `StoreError` line
 * (docs/ARCHITECTURE.md, "Where a session lives").
 *
 * What `create`, `open` and `continueLatest` return is an `OpenedSession`: the id, the entries to start from and
 * the transcript to append to. `QueryEngine.fromSession` runs it; the manager never builds an engine.
 *
 * One behaviour for PostgreSQL: a new session's transcript starts opening when the session is created, and
 * `create` waits for it, so a database that is down is one line before any prompt is read. (A `QueryEngine`
 * constructed directly opens the same way and reports such a failure on its first flush.)
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { threadlineHome } from "../home/index.js";
import type { TimelineEntry } from "../messages/index.js";
import {
  cwdSlug,
  JsonlTranscriptStore,
  listSessions,
  listStoredFileSessions,
  loadSessionFile,
  MemoryTranscriptStore,
  notATranscriptReason,
  PgSessionDatabase,
  parseStoreUrl,
  projectKeyDir,
  resumeConversation,
  type StoredSessionSummary,
  StoreError,
  type StoreLocation,
  sessionFileIn,
  THREADLINE_STORE_ENV,
  TRANSCRIPT_EXTENSION,
  type TranscriptStore,
} from "../transcript/index.js";
import { DeferredTranscriptStore } from "./deferred-transcript.js";
import { newPostgresTranscript, takePostgresSession } from "./postgres-session.js";

/** What decides where sessions live: the working directory, threadline's home, the project key, the store. */
export interface SessionPlaceOptions {
  /** Working directory: its slug is the project key unless `project` is given. Default `process.cwd()`. */
  cwd?: string;
  /** threadline's home. Default `threadlineHome(env)`. */
  home?: string;
  /** Project key sessions are filed under (`--project`). Default the cwd's slug. */
  project?: string;
  /** Store URL. Default `$THREADLINE_STORE` (unset: JSONL files). */
  store?: string;
  /** For `THREADLINE_HOME`, `HOME` and `THREADLINE_STORE`. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/** Where this manager's sessions live, worked out once. */
export interface SessionPlace {
  cwd: string;
  home: string;
  /** The project key: `project` when given, else the cwd's slug. */
  project: string;
  /** The JSONL folder of `project`: `<home>/projects/<project>`. */
  folder: string;
  store: StoreLocation;
}

/** A session ready to take turns: its id, the entries to start from, the store to append to. */
export interface OpenedSession {
  sessionId: string;
  /** The conversation to continue (empty for a new session). */
  entries: readonly TimelineEntry[];
  transcript: TranscriptStore;
  /** Whether an earlier session was loaded. */
  resumed: boolean;
  /** What the loader had to skip (torn tail, bad lines), one line each: `line 12: …` / `entry 3: …`. */
  problems: string[];
}

/** What `list` returns at most when no limit is given. */
export const DEFAULT_LIST_LIMIT = 20;

/** Shortest session-id prefix `open` looks up (shorter ones are taken as full ids). */
export const MIN_ID_PREFIX_LENGTH = 4;

/** Whether `open`'s argument names a transcript file rather than a session id: the one check. */
export function isTranscriptPath(sessionIdOrPath: string): boolean {
  return (
    sessionIdOrPath.includes("/") || sessionIdOrPath.includes("\\") || sessionIdOrPath.endsWith(TRANSCRIPT_EXTENSION)
  );
}

/** The place `options` name; a bad store URL is a `StoreError`. */
export function sessionPlace(options: SessionPlaceOptions = {}): SessionPlace {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const home = options.home ?? threadlineHome(env);
  const project = options.project ?? cwdSlug(cwd);
  let store: StoreLocation;
  try {
    store = parseStoreUrl(options.store ?? env[THREADLINE_STORE_ENV]);
  } catch (error) {
    throw new StoreError(error instanceof Error ? error.message : String(error));
  }
  return { cwd, home, project, folder: projectKeyDir(project, home), store };
}

export class SessionManager {
  readonly place: SessionPlace;

  /** `options` (or a place already worked out) say where sessions live; a bad store URL throws `StoreError`. */
  constructor(options: SessionPlaceOptions | SessionPlace = {}) {
    this.place = "folder" in options ? options : sessionPlace(options);
  }

  /** The JSONL file of a session id in this place. */
  fileOf(sessionId: string): string {
    return sessionFileIn(this.place.folder, sessionId);
  }

  /**
   * The transcript a new session appends to, opening in the background (a failure surfaces on the first
   * flush, or at once to `ready()`): PostgreSQL, or the JSONL file under this place's folder.
   */
  newTranscript(sessionId: string): DeferredTranscriptStore {
    const { store, cwd, project } = this.place;
    if (store.kind === "postgres") return newPostgresTranscript(store.url, { sessionId, cwd, project });
    return this.#jsonlWriter(sessionId, this.fileOf(sessionId));
  }

  /**
   * A new session, `sessionId` or a random one. A JSONL id already on disk is refused (resume it instead); a
   * PostgreSQL session is opened before this resolves.
   */
  async create(sessionId?: string): Promise<OpenedSession> {
    const { store } = this.place;
    if (store.kind === "jsonl" && sessionId !== undefined && existsSync(this.fileOf(sessionId))) {
      throw new StoreError(`Session ID ${sessionId} is already in use; use --resume ${sessionId} to continue it.`);
    }
    const id = sessionId ?? randomUUID();
    const transcript = this.newTranscript(id);
    if (store.kind === "postgres") {
      try {
        await transcript.ready();
      } catch (error) {
        await transcript.close().catch(() => undefined);
        throw error;
      }
    }
    return { sessionId: id, entries: [], transcript, resumed: false, problems: [] };
  }

  /**
   * A saved session by id, a unique prefix of one (JSONL), or a transcript path (JSONL). `keep` (a store, or
   * `false` for memory only) is appended to instead of the session's own file, which is then only read.
   */
  async open(sessionIdOrPath: string, keep?: TranscriptStore | false): Promise<OpenedSession> {
    const isPath = isTranscriptPath(sessionIdOrPath);
    const { store } = this.place;
    if (store.kind === "postgres" && keep === undefined) {
      if (isPath) {
        throw new StoreError(
          `${THREADLINE_STORE_ENV} is a database: resume a session by id, or bring the file in first with \`threadline import ${sessionIdOrPath}\``,
        );
      }
      return this.#takePostgres(store.url, sessionIdOrPath);
    }
    const path = isPath ? sessionIdOrPath : await this.#fileOfIdOrPrefix(sessionIdOrPath);
    // A path a person typed is opened for appending only when its first line says threadline wrote it.
    const refusal = isPath ? await notATranscriptReason(path) : undefined;
    if (refusal !== undefined) throw new StoreError(refusal);
    if (!existsSync(path)) {
      throw new StoreError(
        isPath
          ? `No transcript at ${path}.`
          : `No conversation found with session ID: ${sessionIdOrPath} (in this directory).`,
      );
    }
    return this.#openFile(path, keep);
  }

  /**
   * `--fork-session`: a new session (new id, new file) that starts from a copy of a saved one (`from`, or the
   * latest here), which is only read, so it may be in use by another process. JSONL only.
   */
  async fork(from: string | undefined): Promise<OpenedSession> {
    if (this.place.store.kind === "postgres")
      throw new StoreError(`--fork-session works on JSONL sessions; ${THREADLINE_STORE_ENV} is a database.`);
    const source = from === undefined ? await this.continueLatest(false) : await this.open(from, false);
    const sessionId = randomUUID();
    const transcript = this.newTranscript(sessionId);
    const entries = source.entries.map((entry) => ("sessionId" in entry ? { ...entry, sessionId } : entry));
    for (const entry of entries) transcript.append(entry);
    return { ...source, sessionId, entries, transcript };
  }

  /** The most recently active session of this directory (JSONL) or project (PostgreSQL). */
  async continueLatest(keep?: false): Promise<OpenedSession> {
    const { store, project } = this.place;
    if (store.kind === "postgres") {
      const [latest] = await this.#withDatabase(store.url, (database) => database.listSessions({ project, limit: 1 }));
      if (latest === undefined) throw new StoreError(`No conversation found to continue in project ${project}.`);
      return this.#takePostgres(store.url, latest.sessionId);
    }
    // Only the newest is wanted: no need to open every transcript for its preview.
    const [latest] = await this.#localSessions();
    if (latest === undefined) throw new StoreError("No conversation found to continue in this directory.");
    return this.#openFile(latest.path, keep);
  }

  /** Stored sessions, most recently active first: every project's, or the one with key `project`. */
  async list(options: { limit?: number; project?: string } = {}): Promise<StoredSessionSummary[]> {
    const limit = options.limit ?? DEFAULT_LIST_LIMIT;
    const { project } = options;
    const { store, home } = this.place;
    if (store.kind === "postgres") {
      return this.#withDatabase(store.url, (database) =>
        database.listSessions({ limit, ...(project !== undefined ? { project } : {}) }),
      );
    }
    return listStoredFileSessions({ home, limit, ...(project !== undefined ? { project } : {}) });
  }

  /** Loads a JSONL session; it goes on appending to its own file unless `keep` says otherwise. */
  async #openFile(path: string, keep?: TranscriptStore | false): Promise<OpenedSession> {
    const loaded = await loadSessionFile(path);
    const sessionId = loaded.header.sessionId;
    const transcript = keep === false ? new MemoryTranscriptStore() : (keep ?? this.#jsonlWriter(sessionId, path));
    // One writer per session: a file another live process holds is refused now, with a line naming it.
    if (transcript instanceof DeferredTranscriptStore) await transcript.ready();
    return {
      sessionId,
      entries: loaded.entries,
      transcript,
      resumed: true,
      problems: loaded.problems.map((problem) => `line ${problem.line}: ${problem.reason}`),
    };
  }

  /** Leases and loads a PostgreSQL session (one-line `StoreError`s for a server away or a session in use). */
  async #takePostgres(url: string, sessionId: string): Promise<OpenedSession> {
    const { store, loaded } = await takePostgresSession(url, sessionId);
    return {
      sessionId: loaded.header.sessionId,
      entries: resumeConversation(loaded.entries).entries,
      transcript: store,
      resumed: true,
      problems: loaded.problems.map((problem) => `entry ${problem.line - 1}: ${problem.reason}`),
    };
  }

  #jsonlWriter(sessionId: string, path: string): DeferredTranscriptStore {
    const { cwd } = this.place;
    return new DeferredTranscriptStore(path, () => JsonlTranscriptStore.open({ sessionId, cwd, path }));
  }

  /** The file of an id, or of the one session here whose id starts with it (as short ids are shown and typed). */
  async #fileOfIdOrPrefix(sessionId: string): Promise<string> {
    const path = this.fileOf(sessionId);
    if (existsSync(path) || !new RegExp(`^[0-9a-f-]{${MIN_ID_PREFIX_LENGTH},}$`, "i").test(sessionId)) return path;
    const prefix = sessionId.toLowerCase();
    const matches = (await this.#localSessions()).filter((session) => session.sessionId.startsWith(prefix));
    if (matches.length > 1) {
      throw new StoreError(`Session ID prefix ${sessionId} matches ${matches.length} sessions; type more of it.`);
    }
    return matches[0]?.path ?? path;
  }

  #localSessions() {
    return listSessions(this.place.cwd, this.place.home, { previews: false, project: this.place.project });
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
