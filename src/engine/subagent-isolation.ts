/**
 * Agent `isolation: "worktree"` (docs/TOOLS.md "Worktrees"): the subagent works in a fresh git worktree of its own,
 * made with git's own `git worktree add` where Claude Code 2.1.328 puts an agent's (`<repository root>/.claude/
 * worktrees/agent-<id>`, branch `worktree-agent-<id>`, from HEAD). Its tools' working directory and workspace root
 * (so its write access) are that worktree. At the end a worktree without changes is removed with its branch; one
 * with changes is kept, and the Agent result names its path and branch, as Claude Code does.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import {
  git,
  repositoryRoot,
  unsavedWork,
  WORKTREE_BRANCH_PREFIX,
  WORKTREES_FOLDER,
  WorktreeGitError,
} from "../tools/index.js";

/** A worktree made for one subagent run. */
export interface AgentWorktree {
  /** The repository's main checkout (where git is run to remove it). */
  root: string;
  path: string;
  branch: string;
  /** The commit it started from: commits after it are the agent's work. */
  base: string;
}

/** Makes the agent's worktree from `cwd`'s repository HEAD; throws one line (nothing created) when it cannot. */
export async function createAgentWorktree(
  cwd: string,
  agentId: string,
  env: NodeJS.ProcessEnv,
): Promise<AgentWorktree> {
  const root = await repositoryRoot(cwd, env);
  if (root === undefined)
    throw new Error(`isolation "worktree" needs a git repository, and ${cwd} is not in one; no agent was started`);
  const base = (await git(root, ["rev-parse", "HEAD"], env).catch(() => "")).trim();
  if (base === "")
    throw new Error(
      `isolation "worktree" needs a commit to check out, and the repository at ${root} has none; no agent was started`,
    );
  const name = `agent-${agentId}`;
  const target = path.join(root, WORKTREES_FOLDER, name);
  const branch = `${WORKTREE_BRANCH_PREFIX}${name}`;
  try {
    await git(root, ["worktree", "add", "-b", branch, target, base], env);
  } catch (error) {
    const why = error instanceof WorktreeGitError ? error.message : String(error);
    throw new Error(`git worktree add failed: ${why}; no agent was started`);
  }
  return { root, path: await realpath(target), branch, base };
}

/**
 * After the run: removes the worktree and its branch when the agent left no uncommitted file and no commit, and
 * returns undefined; otherwise keeps it and returns where it is (also when it could not be checked: work is
 * never thrown away on a doubt).
 */
export async function finishAgentWorktree(
  worktree: AgentWorktree,
  env: NodeJS.ProcessEnv,
): Promise<{ path: string; branch: string } | undefined> {
  const kept = { path: worktree.path, branch: worktree.branch };
  try {
    const work = await unsavedWork(worktree.path, worktree.base, env);
    if (work.files.length > 0 || work.commits > 0) return kept;
    await git(worktree.root, ["worktree", "remove", "--force", worktree.path], env);
    await git(worktree.root, ["branch", "-D", worktree.branch], env).catch(() => "");
    return undefined;
  } catch {
    return kept;
  }
}
