/**
 * Real git for tests that make worktrees (EnterWorktree/ExitWorktree, Agent `isolation: "worktree"`): commands with
 * a fixed identity, a workspace made a repository with one commit, and what git itself lists afterwards.
 */
import { execFileSync } from "node:child_process";

const IDENTITY = ["-c", "user.name=Test", "-c", "user.email=test@example.com"];

/** Runs git in `cwd` with a test identity; its stdout. */
export function gitIn(cwd: string, ...args: string[]): string {
  return execFileSync("git", [...IDENTITY, ...args], { cwd, encoding: "utf8" });
}

/** Makes a workspace a repository with one commit (the files already in it). */
export function initRepository(workspace: string): void {
  gitIn(workspace, "init", "-q", "-b", "main");
  gitIn(workspace, "add", "-A");
  gitIn(workspace, "commit", "-q", "-m", "start");
}

/** The paths `git worktree list` shows, realpath'd by git itself. */
export function listedWorktrees(workspace: string): string[] {
  return gitIn(workspace, "worktree", "list", "--porcelain")
    .split("\n")
    .filter((line) => line.startsWith("worktree "))
    .map((line) => line.slice("worktree ".length));
}

/** The repository's local branch names. */
export function branches(workspace: string): string[] {
  return gitIn(workspace, "branch", "--format=%(refname:short)").split("\n").filter(Boolean);
}
