/**
 * Read-only git commands must not run the repository's programs (issue 53 item 3). A repository delivered with
 * its `.git` folder (an archive, a copied folder) can name programs in `.git/config` or `.git/hooks` that
 * `git status`, `diff`, `log -p`, `show` and `blame` would start: `core.fsmonitor`, `diff.external`,
 * `diff.<driver>.textconv` and `.command`, a `post-index-change` hook, a clean filter. Two layers keep them off:
 *
 * 1. A command classified read-only runs with git's own switches: command-line config (GIT_CONFIG_COUNT, which
 *    outranks the repository's and reaches submodules' git processes) turning off fsmonitor, hooks, pagers,
 *    submodule recursion and every transport; GIT_OPTIONAL_LOCKS=0 so `status` never rewrites the index; and a
 *    `git` shell function that adds `--no-ext-diff --no-textconv` to diff, log and show (`--no-textconv` to
 *    blame). The output still comes back, computed by git itself.
 * 2. What those switches cannot turn off keeps the command from counting as read-only, so it goes through the
 *    permission check like any other: a clean/smudge filter (an empty value makes git fail, `cat` would change
 *    what status reports), `core.worktree` (a work tree outside the workspace) and signature programs. Only the
 *    repository's own files count (scopes `local` and `worktree`, includes resolved); the user's global config
 *    is theirs.
 */
import { spawnSync } from "node:child_process";

/** Config that outranks the repository's for a read-only command; each value was checked against git 2.39. */
export const READ_ONLY_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ["core.fsmonitor", "false"],
  ["core.hooksPath", "/dev/null"],
  ["core.pager", "cat"],
  ["diff.ignoreSubmodules", "all"],
  ["log.showSignature", "false"],
  ["protocol.allow", "never"],
];

/** Variables besides the config: no index write (so no `post-index-change` hook), no pager, no prompt. */
const READ_ONLY_GIT_VARIABLES: Readonly<Record<string, string>> = {
  GIT_OPTIONAL_LOCKS: "0",
  GIT_PAGER: "cat",
  GIT_TERMINAL_PROMPT: "0",
};

/**
 * A `git` shell function, exported through the environment (bash imports `BASH_FUNC_git%%`), so the command's
 * text is unchanged. git's subcommand is its first word in every read-only command (global options are not
 * read-only), so the flags land right after it.
 */
export const READ_ONLY_GIT_FUNCTION =
  '() { case "$1" in diff|log|show) local subcommand="$1"; shift; ' +
  'command git "$subcommand" --no-ext-diff --no-textconv "$@";; ' +
  'blame) shift; command git blame --no-textconv "$@";; *) command git "$@";; esac; }';

/** `env` with the read-only config appended after any command-line config it already carries. */
export function readOnlyGitEnv(env: Readonly<Record<string, string>>): Record<string, string> {
  const result: Record<string, string> = { ...env, ...READ_ONLY_GIT_VARIABLES };
  result["BASH_FUNC_git%%"] = READ_ONLY_GIT_FUNCTION;
  const existing = Number.parseInt(env.GIT_CONFIG_COUNT ?? "0", 10);
  const start = Number.isInteger(existing) && existing > 0 ? existing : 0;
  READ_ONLY_GIT_CONFIG.forEach(([key, value], index) => {
    result[`GIT_CONFIG_KEY_${start + index}`] = key;
    result[`GIT_CONFIG_VALUE_${start + index}`] = value;
  });
  result.GIT_CONFIG_COUNT = String(start + READ_ONLY_GIT_CONFIG.length);
  return result;
}

/**
 * Repository config keys (lower-cased as `git config --list` prints them) that the switches above make
 * harmless for the read-only subcommands: turned off, overridden, or never consulted by them.
 */
const NEUTRALIZED_KEYS: readonly RegExp[] = [
  /^core\.(fsmonitor|hookspath|pager|sshcommand|gitproxy|askpass|editor)$/,
  /^pager\./,
  /^diff\.external$/,
  /^diff\..+\.(textconv|command)$/,
  /^(sequence\.editor|credential\..*helper|uploadpack\.packobjectshook)$/,
  /^remote\..+\.(vcs|uploadpack|receivepack|proxy)$/,
  /^(merge|difftool|mergetool)\..+\.(driver|cmd|path)$/,
];

/** Keys that name a program, a hook or a filter: unless neutralized above, they end read-only. */
const PROGRAM_KEY = /(command|program|cmd|hook|hookspath|helper|driver|process|clean|smudge|textconv|external)$/;

/** Whether a repository config key keeps its read-only git commands from running unasked. */
export function blocksReadOnlyGit(key: string): boolean {
  const name = key.toLowerCase();
  if (name === "core.worktree") return true;
  if (NEUTRALIZED_KEYS.some((pattern) => pattern.test(name))) return false;
  return PROGRAM_KEY.test(name.slice(name.lastIndexOf(".") + 1));
}

/** Scopes whose files come with the repository. */
const REPOSITORY_SCOPES = new Set(["local", "worktree"]);

/**
 * The repository's own config keys at `cwd` that its read-only git commands cannot run with, sorted; `[]` when
 * none (or when `cwd` is not in a repository). Undefined when git could not list the config: fail closed.
 */
export function repositoryBlockingGitKeys(cwd: string, env: Readonly<Record<string, string>>): string[] | undefined {
  const listed = spawnSync("git", ["config", "--list", "--includes", "--show-scope", "-z"], {
    cwd,
    env: readOnlyGitEnv(env),
    encoding: "utf8",
    timeout: 5_000,
    stdio: ["ignore", "pipe", "ignore"],
  });
  if (listed.error !== undefined || listed.status !== 0) return undefined;
  // `-z`: scope NUL key [LF value] NUL, repeated.
  const fields = listed.stdout.split("\0");
  const blocking = new Set<string>();
  for (let index = 0; index + 1 < fields.length; index += 2) {
    const scope = fields[index] ?? "";
    const entry = fields[index + 1] ?? "";
    const key = entry.split("\n", 1)[0] ?? "";
    if (REPOSITORY_SCOPES.has(scope) && blocksReadOnlyGit(key)) blocking.add(key);
  }
  return [...blocking].sort();
}
