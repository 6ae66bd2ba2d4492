/**
 * The git commands behind EnterWorktree / ExitWorktree (docs/TOOLS.md "Worktrees"): git's own worktrees, run with
 * the session's secret-free environment (a tool process like any other). Each returns what git printed, or throws
 * a `WorktreeGitError` whose message is git's first line of complaint.
 */
import { execFile } from "node:child_process";

export class WorktreeGitError extends Error {
  override readonly name = "WorktreeGitError";
}

/** Runs `git args` in `cwd`; resolves with stdout, rejects with git's first stderr line. */
export function git(cwd: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", [...args], { cwd, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      const missing = (error as NodeJS.ErrnoException).code === "ENOENT";
      const line = String(stderr).trim().split("\n")[0] ?? "";
      reject(new WorktreeGitError(missing ? "git is not installed" : line !== "" ? line : error.message));
    });
  });
}

/** The top of the repository `cwd` is in, or undefined when it is not in one. */
export async function repositoryRoot(cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  try {
    return (await git(cwd, ["rev-parse", "--show-toplevel"], env)).trim();
  } catch {
    return undefined;
  }
}

/** One entry of `git worktree list --porcelain`. */
export interface ListedWorktree {
  path: string;
  head: string;
  branch?: string;
}

/** The repository's worktrees as git lists them (the main checkout first). */
export async function listWorktrees(root: string, env: NodeJS.ProcessEnv): Promise<ListedWorktree[]> {
  const out = await git(root, ["worktree", "list", "--porcelain"], env);
  const listed: ListedWorktree[] = [];
  for (const block of out.split("\n\n")) {
    const fields = new Map(
      block
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const space = line.indexOf(" ");
          return space < 0 ? [line, ""] : [line.slice(0, space), line.slice(space + 1)];
        }),
    );
    const where = fields.get("worktree");
    if (where === undefined) continue;
    const branch = fields.get("branch")?.replace(/^refs\/heads\//, "");
    listed.push({ path: where, head: fields.get("HEAD") ?? "", ...(branch !== undefined ? { branch } : {}) });
  }
  return listed;
}

/**
 * What a worktree holds that its removal would lose: files with uncommitted changes (untracked included) and
 * commits on its HEAD that `base` does not have.
 */
export async function unsavedWork(
  worktree: string,
  base: string,
  env: NodeJS.ProcessEnv,
): Promise<{ files: string[]; commits: number }> {
  const status = await git(worktree, ["status", "--porcelain", "--untracked-files=all"], env);
  const files = status
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => line.slice(3));
  const count = await git(worktree, ["rev-list", "--count", `${base}..HEAD`], env);
  return { files, commits: Number.parseInt(count.trim(), 10) || 0 };
}
