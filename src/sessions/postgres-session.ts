/**
 * The session manager's side of the PostgreSQL store: a new session's writer (opened in the background, so a
 * `QueryEngine` constructor stays synchronous) and a resumed one (lease first, then the load). Each owns its connection
 * pool and closes it with the transcript.
 */
import {
  type LoadResult,
  PgSessionDatabase,
  type PgSessionDatabaseOptions,
  type TranscriptStore,
} from "../transcript/index.js";
import { DeferredTranscriptStore } from "./deferred-transcript.js";

/**
 * A writer for a new session, opened in the background from now on; a failure (server away, id taken)
 * surfaces on the first flush, or at once to `SessionManager.create`, which waits for it (`ready()`).
 */
export function newPostgresTranscript(
  url: string,
  session: { sessionId: string; cwd: string; project: string },
  options: PgSessionDatabaseOptions = {},
): DeferredTranscriptStore {
  return new DeferredTranscriptStore(undefined, () =>
    withNewDatabase(url, options, (database) => database.createSession(session, { closeDatabaseOnClose: true })),
  );
}

/** Takes and loads a stored session; one-line `StoreError`s for a server that is away or a session in use. */
export async function takePostgresSession(
  url: string,
  sessionId: string,
  options: PgSessionDatabaseOptions = {},
): Promise<{ store: TranscriptStore; loaded: LoadResult }> {
  return withNewDatabase(url, options, (database) => database.takeSession(sessionId, { closeDatabaseOnClose: true }));
}

/** `use` on a new connection pool, closed again when `use` fails (on success what `use` made owns it). */
async function withNewDatabase<T>(
  url: string,
  options: PgSessionDatabaseOptions,
  use: (database: PgSessionDatabase) => Promise<T>,
): Promise<T> {
  const database = await PgSessionDatabase.connect(url, options);
  try {
    return await use(database);
  } catch (error) {
    await database.close();
    throw error;
  }
}
