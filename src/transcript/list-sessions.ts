/**
 * Sessions of a working directory, newest first, for `--continue` and `--resume` pickers.
 */
import { readdir, stat } from "node:fs/promises";
import { basename, join } from "node:path";
import type { UserContentBlock } from "../messages/index.js";
import { contentText } from "../messages/index.js";
import { forEachJsonlLine } from "./jsonl-lines.js";
import { parseJsonLine } from "./load-transcript.js";
import { projectDir, projectKeyDir, TRANSCRIPT_EXTENSION } from "./paths.js";

/** Longest first-prompt preview, in characters. */
export const DEFAULT_PREVIEW_CHARS = 80;

/** Lines read from the top of a file while looking for the first prompt. */
export const DEFAULT_PREVIEW_SCAN_LINES = 500;

export interface SessionSummary {
  sessionId: string;
  path: string;
  /** Last modification time of the file (the session's last activity). */
  mtime: Date;
  /** The first prompt the person typed, whitespace collapsed, at most `DEFAULT_PREVIEW_CHARS`; "" if none. */
  firstPrompt: string;
}

export interface ListSessionsOptions {
  /** Read each transcript's first prompt for `firstPrompt` (otherwise ""). Default true. */
  previews?: boolean;
  /** Project key whose folder is listed instead of the cwd's (`--project`). Default the cwd's slug. */
  project?: string;
}

/** Every transcript of `cwd`, newest first. `home` defaults to `threadlineHome()`. Missing folder: []. */
export async function listSessions(
  cwd: string,
  home?: string,
  options: ListSessionsOptions = {},
): Promise<SessionSummary[]> {
  const directory = options.project !== undefined ? projectKeyDir(options.project, home) : projectDir(cwd, home);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const sessions: SessionSummary[] = [];
  for (const name of names) {
    if (!name.endsWith(TRANSCRIPT_EXTENSION)) continue;
    const path = join(directory, name);
    const info = await stat(path);
    if (!info.isFile()) continue;
    sessions.push({
      sessionId: basename(name, TRANSCRIPT_EXTENSION),
      path,
      mtime: info.mtime,
      firstPrompt: options.previews === false ? "" : await firstPromptPreview(path),
    });
  }
  sessions.sort((left, right) => right.mtime.getTime() - left.mtime.getTime());
  return sessions;
}

/** The first non-meta user text in a transcript, as a one-line preview ("" when there is none). */
async function firstPromptPreview(path: string, maxChars: number = DEFAULT_PREVIEW_CHARS): Promise<string> {
  let preview = "";
  await forEachJsonlLine(path, (line, lineNumber) => {
    if (lineNumber > DEFAULT_PREVIEW_SCAN_LINES) return false;
    const value = parseJsonLine(line);
    if (value === null || typeof value !== "object" || value instanceof Error) return true;
    const record = value as { type?: unknown; isMeta?: unknown; isCompactSummary?: unknown; message?: unknown };
    if (record.type !== "user" || record.isMeta === true || record.isCompactSummary === true) return true;
    const content = (record.message as { content?: unknown } | undefined)?.content;
    let text = "";
    if (typeof content === "string") text = content;
    else if (Array.isArray(content)) text = contentText(content as UserContentBlock[]);
    text = text.replace(/\s+/g, " ").trim();
    if (text === "") return true;
    preview = text.length > maxChars ? text.slice(0, maxChars - 1) + "…" : text;
    return false;
  });
  return preview;
}
