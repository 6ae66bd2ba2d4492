/**
 * Where transcripts live: `<home>/projects/<cwd-slug>/<session-id>.jsonl`, the same layout Claude Code uses
 * under `~/.claude`, so people who know one know the other.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { threadlineHome } from "../home/index.js";

/** Extension of transcript files. */
export const TRANSCRIPT_EXTENSION = ".jsonl";

/** A directory name for a working directory: every non-alphanumeric character becomes "-" (Claude Code's rule). */
export function cwdSlug(cwd: string): string {
  return cwd.replace(/[^a-zA-Z0-9]/g, "-");
}

/** The folder holding every transcript of one working directory. `home` defaults to `threadlineHome()`. */
export function projectDir(cwd: string, home: string = threadlineHome()): string {
  return projectKeyDir(cwdSlug(cwd), home);
}

/** A project key given explicitly (`--project`): a folder name, so letters, digits, `.`, `_` and `-` only. */
export const PROJECT_KEY_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,200}$/;

/** The folder of a project key (an explicit `--project`, or a cwd's slug). */
export function projectKeyDir(project: string, home: string = threadlineHome()): string {
  return join(home, "projects", project);
}

/** The transcript file of one session in a project folder (`projectKeyDir`): `<folder>/<session id>.jsonl`. */
export function sessionFileIn(folder: string, sessionId: string): string {
  return join(folder, `${sessionId}${TRANSCRIPT_EXTENSION}`);
}

/** The transcript file of one session of a working directory. `home` defaults to `threadlineHome()`. */
export function transcriptPath(sessionId: string, cwd: string, home: string = threadlineHome()): string {
  return sessionFileIn(projectDir(cwd, home), sessionId);
}

/** Claude Code's transcript folder for a working directory. `home` defaults to the user's home directory. */
export function claudeCodeProjectDir(cwd: string, home: string = homedir()): string {
  return join(home, ".claude", "projects", cwdSlug(cwd));
}
