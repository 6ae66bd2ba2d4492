/**
 * Where memory files are looked for at session start, in the order they are sent (docs/MEMORY.md "Order"):
 * the user's files first (`~/.claude/`, then threadline's home), then every directory from the repository
 * root down to the working directory. Later files are the more specific ones, so they come last, nearest the
 * conversation. Within one directory: CLAUDE.md, .claude/CLAUDE.md, AGENTS.md, then CLAUDE.local.md.
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { MemoryScope } from "./memory-types.js";

/** A place a memory file may be. */
export interface MemoryCandidate {
  path: string;
  scope: MemoryScope;
}

/** File names read in the user's folders. */
const USER_FILES = ["CLAUDE.md", "AGENTS.md"] as const;

/** The candidates of one project directory, in their order (`local` last: the person's own overrides). */
export function projectCandidates(directory: string, scope: "project" | "nested"): MemoryCandidate[] {
  return [
    { path: join(directory, "CLAUDE.md"), scope },
    { path: join(directory, ".claude", "CLAUDE.md"), scope },
    { path: join(directory, "AGENTS.md"), scope },
    { path: join(directory, "CLAUDE.local.md"), scope: "local" },
  ];
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** The nearest directory at or above `cwd` holding `.git` (a folder or a worktree's file); undefined if none. */
export async function repositoryRoot(cwd: string): Promise<string | undefined> {
  let directory = resolve(cwd);
  for (;;) {
    if (await exists(join(directory, ".git"))) return directory;
    const parent = dirname(directory);
    if (parent === directory) return undefined;
    directory = parent;
  }
}

/** Directories from `top` down to `bottom` (both included); `bottom` must be at or below `top`. */
export function directoriesDown(top: string, bottom: string): string[] {
  const chain: string[] = [];
  let directory = resolve(bottom);
  const stop = resolve(top);
  for (;;) {
    chain.push(directory);
    if (directory === stop) break;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return chain.reverse();
}

export interface SessionStartPlaces {
  cwd: string;
  userHome: string;
  threadlineHome: string;
  /** Default: found with `repositoryRoot(cwd)`; outside a repository only `cwd` itself is read. */
  repositoryRoot?: string;
}

/** Every place looked at when a session starts, in sending order. */
export function sessionStartCandidates(places: SessionStartPlaces): MemoryCandidate[] {
  const user: MemoryCandidate[] = [];
  for (const folder of [join(places.userHome, ".claude"), places.threadlineHome])
    for (const name of USER_FILES) user.push({ path: join(folder, name), scope: "user" });
  const top = places.repositoryRoot ?? places.cwd;
  const project = directoriesDown(top, places.cwd).flatMap((directory) => projectCandidates(directory, "project"));
  return [...user, ...project];
}
