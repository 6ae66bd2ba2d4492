/**
 * Every session of the file store, across projects, for `threadline sessions`: the same columns the
 * PostgreSQL store lists (id, project, last activity, entries, bytes, holder), so the command reads alike
 * for both. A file has no lease: its holder is always undefined.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import { threadlineHome } from "../home/index.js";
import { forEachJsonlLine } from "./jsonl-lines.js";
import { TRANSCRIPT_EXTENSION } from "./paths.js";

export interface StoredSessionSummary {
  sessionId: string;
  /** Project key: the folder name (a cwd slug) for files, the stored key for a database. */
  project: string;
  lastActivity: Date;
  /** Records after the header. */
  entries: number;
  bytes: number;
  /** Process holding the session's lease (database store only). */
  holder: string | undefined;
}

/** Sessions under `home` (default `threadlineHome()`), newest first; `project` limits to one project key. */
export async function listStoredFileSessions(
  options: { home?: string; project?: string; limit?: number } = {},
): Promise<StoredSessionSummary[]> {
  const projects = join(options.home ?? threadlineHome(), "projects");
  const folders =
    options.project !== undefined
      ? [options.project]
      : (await readdir(projects, { withFileTypes: true }).catch(() => []))
          .filter((entry) => entry.isDirectory())
          .map((entry) => entry.name);
  const sessions: StoredSessionSummary[] = [];
  for (const project of folders) {
    const names = await readdir(join(projects, project)).catch(() => [] as string[]);
    for (const name of names) {
      if (!name.endsWith(TRANSCRIPT_EXTENSION)) continue;
      const path = join(projects, project, name);
      const info = await stat(path).catch(() => undefined);
      if (info === undefined || !info.isFile()) continue;
      sessions.push({
        sessionId: basename(name, TRANSCRIPT_EXTENSION),
        project,
        lastActivity: info.mtime,
        entries: 0,
        bytes: info.size,
        holder: undefined,
      });
    }
  }
  sessions.sort((left, right) => right.lastActivity.getTime() - left.lastActivity.getTime());
  const listed = options.limit !== undefined ? sessions.slice(0, options.limit) : sessions;
  // Entries are counted only for the sessions shown (a line count reads the whole file).
  for (const session of listed) {
    let records = 0;
    await forEachJsonlLine(join(projects, session.project, `${session.sessionId}${TRANSCRIPT_EXTENSION}`), (line) => {
      if (line.trim() !== "" && !line.startsWith('{"type":"header"')) records++;
    });
    session.entries = records;
  }
  return listed;
}
