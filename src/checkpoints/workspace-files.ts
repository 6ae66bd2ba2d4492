/**
 * Which files of the workspace a checkpoint watches for changes made outside the file tools (Bash): in a git
 * repository, the tracked files and the untracked ones git does not ignore; elsewhere a walk that skips `.git`
 * and `node_modules`. Either way at most `maxFiles` (docs/REWIND.md says what that leaves out).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import { readOnlyGitEnv, walkFiles } from "../tools/index.js";

export interface FileStat {
  mtimeMs: number;
  size: number;
}

/** How long `git ls-files` may take before the checkpoint walks the folder itself. */
export const GIT_LIST_TIMEOUT_MS = 30_000;

function gitFiles(cwd: string): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    execFile(
      "git",
      ["ls-files", "-z", "--cached", "--others", "--exclude-standard"],
      // The repository's own programs (core.fsmonitor, hooks) stay off: this runs before any trust question
      // and on every checkpoint. A git that does not answer in time leaves the walk below to list the files.
      {
        cwd,
        maxBuffer: 64 * 1024 * 1024,
        timeout: GIT_LIST_TIMEOUT_MS,
        env: readOnlyGitEnv({ PATH: process.env.PATH ?? "" }),
      },
      (error, stdout) => resolve(error ? undefined : stdout.split("\0").filter((name) => name !== "")),
    );
  });
}

/** Workspace-relative names of the watched files (`/`-separated), at most `maxFiles`. */
export async function watchedFiles(cwd: string, maxFiles: number): Promise<string[]> {
  if (existsSync(join(cwd, ".git"))) {
    const names = await gitFiles(cwd);
    if (names !== undefined) return [...new Set(names)].slice(0, maxFiles);
  }
  const names: string[] = [];
  for await (const file of walkFiles(cwd)) {
    names.push(file.relative);
    if (names.length >= maxFiles) break;
  }
  return names;
}

/** The size and modification time of each named file that exists as a regular file (cheap: no reads). */
export async function statFiles(cwd: string, names: readonly string[]): Promise<Map<string, FileStat>> {
  const stats = new Map<string, FileStat>();
  await Promise.all(
    names.map(async (name) => {
      try {
        const stat = await lstat(join(cwd, name));
        if (stat.isFile()) stats.set(name, { mtimeMs: stat.mtimeMs, size: stat.size });
      } catch {
        // Gone since it was listed: not there.
      }
    }),
  );
  return stats;
}

export function sameStat(left: FileStat | undefined, right: FileStat | undefined): boolean {
  return left?.mtimeMs === right?.mtimeMs && left?.size === right?.size;
}
