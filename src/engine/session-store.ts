/**
 * Where a session's transcript lives: a new one (PostgreSQL or a JSONL file under THREADLINE_HOME), or a
 * saved one to resume, loaded with the problems the loader had to skip.
 */
import { join } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import {
  cwdSlug,
  JsonlTranscriptStore,
  parseStoreUrl,
  projectKeyDir,
  resumeConversation,
  resumeSession,
  THREADLINE_STORE_ENV,
  TRANSCRIPT_EXTENSION,
  type TranscriptStore,
  transcriptPath,
} from "../transcript/index.js";
import { DeferredTranscriptStore } from "./deferred-transcript.js";
import type { QueryEngineOptions } from "./engine-options.js";
import { newPostgresTranscript, resumePostgresSession } from "./postgres-session.js";

/** The store `options.store` (else `$THREADLINE_STORE`) names: PostgreSQL, or the JSONL file under home. */
export function defaultTranscript(
  sessionId: string,
  cwd: string,
  options: QueryEngineOptions,
  env: NodeJS.ProcessEnv,
): TranscriptStore {
  const location = parseStoreUrl(options.store ?? env[THREADLINE_STORE_ENV]);
  switch (location.kind) {
    case "postgres":
      return newPostgresTranscript(location.url, { sessionId, cwd, project: options.project ?? cwdSlug(cwd) });
    case "jsonl": {
      const path =
        options.project === undefined
          ? transcriptPath(sessionId, cwd, options.home)
          : join(projectKeyDir(options.project, options.home), `${sessionId}${TRANSCRIPT_EXTENSION}`);
      return openJsonl(sessionId, cwd, path);
    }
    default: {
      const never: never = location;
      throw new Error(`unknown store ${String(never)}`);
    }
  }
}

function openJsonl(sessionId: string, cwd: string, path: string): TranscriptStore {
  return new DeferredTranscriptStore(path, () => JsonlTranscriptStore.open({ sessionId, cwd, path }));
}

/** A saved session, ready to continue: its id, the entries to start from, the store to append to. */
export interface ResumedSession {
  sessionId: string;
  entries: readonly TimelineEntry[];
  /** `false` (given in the options): keep it in memory. */
  transcript: TranscriptStore | false;
  /** What the loader skipped, one line each (`line 12: …` / `entry 3: …`). */
  problems: string[];
}

/** Loads a saved session by id (or transcript path) from the store the options name. */
export async function loadResumedSession(
  sessionIdOrPath: string,
  options: QueryEngineOptions,
  cwd: string,
): Promise<ResumedSession> {
  const location = parseStoreUrl(options.store ?? (options.env ?? process.env)[THREADLINE_STORE_ENV]);
  if (location.kind === "postgres" && options.transcript === undefined) {
    const { store, loaded } = await resumePostgresSession(location.url, sessionIdOrPath);
    return {
      sessionId: loaded.header.sessionId,
      entries: resumeConversation(loaded.entries).entries,
      transcript: store,
      problems: loaded.problems.map((problem) => `entry ${problem.line - 1}: ${problem.reason}`),
    };
  }
  const resumed = await resumeSession(sessionIdOrPath, {
    cwd,
    ...(options.home !== undefined ? { home: options.home } : {}),
  });
  return {
    sessionId: resumed.header.sessionId,
    entries: resumed.entries,
    transcript: options.transcript ?? openJsonl(resumed.header.sessionId, cwd, resumed.path),
    problems: resumed.problems.map((problem) => `line ${problem.line}: ${problem.reason}`),
  };
}
