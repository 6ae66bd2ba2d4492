/**
 * A session's worktree state (EnterWorktree / ExitWorktree, docs/TOOLS.md "Worktrees"): where the session works now,
 * the worktrees it created, and what happens to them when it ends. Claude Code 2.1.328 puts a new worktree at
 * `<repository root>/.claude/worktrees/<name>` on a new branch `worktree-<name>` (code.claude.com/docs/en/worktrees);
 * threadline does the same with git's own `git worktree add`. While a worktree is entered, every tool call's working
 * directory and workspace root is the worktree (loop/tools/tool-executor.ts reads `cwd()`).
 */
import { randomInt } from "node:crypto";
import { realpath } from "node:fs/promises";
import path from "node:path";
import { git, listWorktrees, repositoryRoot, unsavedWork } from "./worktree-git.js";

/** Where Claude Code keeps the worktrees it makes, relative to the repository root. */
export const WORKTREES_FOLDER = path.join(".claude", "worktrees");
/** Claude Code's branch prefix for a new worktree. */
export const WORKTREE_BRANCH_PREFIX = "worktree-";

/** A worktree this session is in or made. */
export interface SessionWorktree {
  path: string;
  branch?: string;
  /** The commit it started from: commits after it are the worktree's own work. */
  base: string;
  /** Whether this session created it (only those are removed by ExitWorktree or at session end). */
  created: boolean;
}

/** One line (or a few) for the model or the person; `isError` when nothing changed. */
export interface WorktreeOutcome {
  message: string;
  isError?: boolean;
  worktree?: SessionWorktree;
}

const ADJECTIVES = ["bright", "calm", "quiet", "swift", "bold", "gentle", "keen", "lucky", "brave", "clever"];
const VERBS = ["running", "jumping", "singing", "drifting", "rolling", "climbing", "gliding", "humming"];
const NOUNS = ["fox", "otter", "heron", "maple", "river", "comet", "badger", "falcon", "cedar", "lynx"];

/** A name like Claude Code's (`bright-running-fox`). */
export function randomWorktreeName(): string {
  const pick = (words: readonly string[]) => words[randomInt(words.length)]!;
  return `${pick(ADJECTIVES)}-${pick(VERBS)}-${pick(NOUNS)}`;
}

/** Why `name` is not a worktree name by Claude Code's rule, or undefined when it is one. */
export function invalidWorktreeName(name: string): string | undefined {
  if (name.length === 0 || name.length > 64) return "a worktree name has 1 to 64 characters";
  for (const segment of name.split("/")) {
    if (!/^[A-Za-z0-9._-]+$/.test(segment) || segment === "." || segment === "..")
      return `"${segment}" is not a name segment: letters, digits, dots, underscores and dashes only`;
  }
  return undefined;
}

export class WorktreeSession {
  /** The directory the session started in (where ExitWorktree returns). */
  readonly originalCwd: string;
  readonly #env: () => NodeJS.ProcessEnv;
  #current: SessionWorktree | undefined;
  /** Every worktree this session created and has not removed, in order. */
  readonly #created: SessionWorktree[] = [];

  constructor(originalCwd: string, env: () => NodeJS.ProcessEnv) {
    this.originalCwd = originalCwd;
    this.#env = env;
  }

  /** The session's working directory now: the worktree entered, or where it started. */
  cwd(): string {
    return this.#current?.path ?? this.originalCwd;
  }

  get current(): SessionWorktree | undefined {
    return this.#current;
  }

  /** Creates `.claude/worktrees/<name>` on branch `worktree-<name>` from HEAD and moves the session into it. */
  async enterNew(name: string | undefined): Promise<WorktreeOutcome> {
    if (this.#current !== undefined)
      return refused(
        `Already in a worktree session (${this.#current.path}). Call ExitWorktree first, or EnterWorktree with the path of another worktree to switch to it.`,
      );
    const chosen = name ?? randomWorktreeName();
    const invalid = invalidWorktreeName(chosen);
    if (invalid !== undefined) return refused(`Invalid worktree name "${chosen}": ${invalid}.`);
    const env = this.#env();
    const root = await repositoryRoot(this.originalCwd, env);
    if (root === undefined) return notARepository(this.originalCwd);
    const target = path.join(root, WORKTREES_FOLDER, chosen);
    const branch = `${WORKTREE_BRANCH_PREFIX}${chosen}`;
    const base = (await git(root, ["rev-parse", "HEAD"], env).catch(() => "")).trim();
    if (base === "")
      return refused(
        `The repository at ${root} has no commit yet, so a worktree has nothing to check out; nothing was created.`,
      );
    try {
      await git(root, ["worktree", "add", "-b", branch, target, base], env);
    } catch (error) {
      return refused(`git worktree add failed: ${(error as Error).message}; nothing was created.`);
    }
    const worktree: SessionWorktree = { path: await realpath(target), branch, base, created: true };
    this.#created.push(worktree);
    this.#current = worktree;
    return {
      message:
        `Created worktree at ${worktree.path} on branch ${branch} (from ${base.slice(0, 12)}). The session now works ` +
        "there: tools' working directory and the workspace are the worktree. Call ExitWorktree to leave it.",
      worktree,
    };
  }

  /** Moves the session into an existing worktree of the repository (one `git worktree list` shows). */
  async enterExisting(where: string): Promise<WorktreeOutcome> {
    const env = this.#env();
    const from = this.cwd();
    const root = await repositoryRoot(from, env);
    if (root === undefined) return notARepository(from);
    const wanted = await realpath(path.resolve(from, where)).catch(() => path.resolve(from, where));
    const listed = await listWorktrees(root, env);
    const found = [];
    for (const entry of listed) if ((await realpath(entry.path).catch(() => entry.path)) === wanted) found.push(entry);
    const entry = found[0];
    if (entry === undefined)
      return refused(
        `${wanted} is not a worktree of this repository (git worktree list does not show it); nothing changed.`,
      );
    if (wanted === (await realpath(this.originalCwd).catch(() => this.originalCwd)))
      return refused(`${wanted} is where the session started; call ExitWorktree to go back there.`);
    const mine = this.#created.find((worktree) => worktree.path === wanted);
    const worktree: SessionWorktree = mine ?? {
      path: wanted,
      ...(entry.branch !== undefined ? { branch: entry.branch } : {}),
      base: entry.head,
      created: false,
    };
    this.#current = worktree;
    return {
      message: `Switched to worktree ${wanted}${entry.branch ? ` (branch ${entry.branch})` : ""}. The session now works there.`,
      worktree,
    };
  }

  /** Leaves the worktree: "keep" leaves it on disk; "remove" deletes it and its branch (refused over unsaved work). */
  async exit(action: "keep" | "remove", discardChanges: boolean): Promise<WorktreeOutcome> {
    const worktree = this.#current;
    if (worktree === undefined)
      return refused(
        "No active worktree session: ExitWorktree only leaves a worktree EnterWorktree entered in this session; nothing changed.",
      );
    if (action === "keep") {
      this.#current = undefined;
      return {
        message: `Exited worktree. Its work stays at ${worktree.path}${worktree.branch ? ` on branch ${worktree.branch}` : ""}. The session is back in ${this.originalCwd}.`,
        worktree,
      };
    }
    if (!worktree.created)
      return refused(`${worktree.path} was not created by this session, so it is not removed; use action "keep".`);
    const env = this.#env();
    const work = await unsavedWork(worktree.path, worktree.base, env);
    if (!discardChanges && (work.files.length > 0 || work.commits > 0))
      return refused(
        `The worktree has ${describeWork(work)}; removing it would lose them (${work.files.slice(0, 10).join(", ")}${work.files.length > 10 ? ", …" : ""}). ` +
          'Nothing was removed. Confirm with the user and call again with discard_changes: true, or use action "keep".',
      );
    await this.#remove(worktree, env);
    this.#current = undefined;
    return {
      message: `Exited and removed worktree ${worktree.path}${worktree.branch ? ` and branch ${worktree.branch}` : ""}. The session is back in ${this.originalCwd}.`,
      worktree,
    };
  }

  /**
   * At session end (Claude Code's exit cleanup): the worktree the session is still in, when it made it, is
   * removed with its branch if it holds no work, and kept and named otherwise. Returns the lines to show.
   */
  async close(): Promise<string[]> {
    const worktree = this.#current;
    this.#current = undefined;
    if (worktree === undefined || !worktree.created) return [];
    const env = this.#env();
    try {
      const work = await unsavedWork(worktree.path, worktree.base, env);
      if (work.files.length === 0 && work.commits === 0) {
        await this.#remove(worktree, env);
        return [];
      }
      return [
        `Worktree kept at ${worktree.path}${worktree.branch ? ` (branch ${worktree.branch})` : ""}: it has ${describeWork(work)}.`,
      ];
    } catch (error) {
      return [`Worktree kept at ${worktree.path}: it could not be checked (${(error as Error).message}).`];
    }
  }

  async #remove(worktree: SessionWorktree, env: NodeJS.ProcessEnv): Promise<void> {
    const root = (await repositoryRoot(this.originalCwd, env)) ?? this.originalCwd;
    await git(root, ["worktree", "remove", "--force", worktree.path], env);
    if (worktree.branch !== undefined) await git(root, ["branch", "-D", worktree.branch], env).catch(() => "");
    const index = this.#created.indexOf(worktree);
    if (index >= 0) this.#created.splice(index, 1);
  }
}

function refused(message: string): WorktreeOutcome {
  return { message, isError: true };
}

function notARepository(where: string): WorktreeOutcome {
  return refused(`${where} is not in a git repository, so there is no worktree to create; nothing was created.`);
}

function describeWork(work: { files: string[]; commits: number }): string {
  const files = `${work.files.length} uncommitted file${work.files.length === 1 ? "" : "s"}`;
  return `${files} and ${work.commits} commit${work.commits === 1 ? "" : "s"} not on the branch it started from`;
}
