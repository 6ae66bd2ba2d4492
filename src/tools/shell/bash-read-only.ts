/**
 * Conservative classification of shell commands as read-only: a read-only command runs without asking in the
 * default mode and may run concurrently, so it must only read, and only inside the workspace. A command counts
 * only when every part of it is an allow-listed program, every argument that could name a file stays in the
 * workspace (after symlinks), and no option writes, runs another program or follows symlinks out. Anything the
 * reader cannot prove (expansions, globs it cannot resolve, `~`, substitutions) is not read-only and goes through the normal
 * permission check. Programs run from their usual system locations; what they read is what is checked.
 */
import { readdirSync, realpathSync } from "node:fs";
import path from "node:path";
import { allowedRoots } from "../permissions/workspace-paths.js";
import type { WorkspaceScope } from "../types.js";
import { repositoryBlockingGitKeys } from "./git-read-only.js";
import { processSecretEnvironment } from "./secret-env.js";
import { readShellSegments, type ShellSegment, type ShellWord } from "./shell-words.js";

/** How an allow-listed program's arguments are checked. */
interface CommandSpec {
  /** `paths`: every operand and option value must stay in the workspace. `strings`: operands are never read. */
  operands: "paths" | "strings";
  /** Long options (GNU abbreviations included) that write, run programs, follow symlinks or read file lists. */
  forbiddenLong?: readonly string[];
  /** Short option letters with the same effects. */
  forbiddenShort?: string;
  /** Whole words refused (find's predicates are words, not letter clusters). */
  forbiddenWords?: readonly string[];
}

const PATHS: CommandSpec = { operands: "paths" };
const STRINGS: CommandSpec = { operands: "strings" };

/**
 * Programs that only read, with the options that would make them do more. Environment printers (`env`,
 * `printenv`, `set`, `export`, `declare`, `compgen`) are deliberately absent.
 */
const READ_ONLY_COMMANDS: ReadonlyMap<string, CommandSpec> = new Map([
  ["ls", { operands: "paths", forbiddenShort: "L", forbiddenLong: ["--dereference"] }],
  ["cat", PATHS],
  ["head", PATHS],
  ["tail", PATHS],
  ["wc", { operands: "paths", forbiddenLong: ["--files0-from"] }],
  ["nl", PATHS],
  ["stat", PATHS],
  ["cmp", PATHS],
  ["realpath", PATHS],
  ["readlink", PATHS],
  ["df", PATHS],
  ["grep", { operands: "paths", forbiddenShort: "R", forbiddenLong: ["--dereference-recursive"] }],
  ["egrep", { operands: "paths", forbiddenShort: "R", forbiddenLong: ["--dereference-recursive"] }],
  ["fgrep", { operands: "paths", forbiddenShort: "R", forbiddenLong: ["--dereference-recursive"] }],
  ["rg", { operands: "paths", forbiddenShort: "L", forbiddenLong: ["--pre", "--pre-glob", "--follow"] }],
  [
    "find",
    {
      operands: "paths",
      forbiddenWords: [
        "-exec",
        "-execdir",
        "-ok",
        "-okdir",
        "-delete",
        "-fprint",
        "-fprint0",
        "-fprintf",
        "-fls",
        "-L",
        "-follow",
        "-files0-from",
      ],
    },
  ],
  ["file", { operands: "paths", forbiddenShort: "Cf", forbiddenLong: ["--compile", "--files-from"] }],
  ["du", { operands: "paths", forbiddenShort: "L", forbiddenLong: ["--dereference", "--files0-from"] }],
  ["tree", { operands: "paths", forbiddenShort: "oRl", forbiddenLong: ["--fromfile", "--output"] }],
  [
    "sort",
    {
      operands: "paths",
      forbiddenShort: "oT",
      forbiddenLong: ["--output", "--temporary-directory", "--compress-program", "--files0-from"],
    },
  ],
  ["diff", { operands: "paths", forbiddenShort: "r", forbiddenLong: ["--recursive"] }],
  ["pwd", STRINGS],
  ["echo", STRINGS],
  ["which", STRINGS],
  ["whoami", STRINGS],
  ["uname", STRINGS],
  ["basename", STRINGS],
  ["dirname", STRINGS],
  ["true", STRINGS],
  ["false", STRINGS],
  [
    "git",
    {
      operands: "paths",
      forbiddenLong: ["--output", "--ext-diff", "--textconv", "--no-index", "--exec-path", "--upload-pack"],
      forbiddenShort: "O",
    },
  ],
]);

/** git subcommands that only read. */
const READ_ONLY_GIT_SUBCOMMANDS = new Set(["status", "log", "diff", "show", "rev-parse", "ls-files", "blame"]);

/**
 * `git branch` only lists with these words and nothing else (a name would create a branch; `-d`, `-m`, `-c`,
 * `-u` and the rest change one): `git branch --show-current`, which published commit commands run.
 */
const READ_ONLY_GIT_BRANCH_WORDS = new Set([
  "--show-current",
  "--list",
  "-l",
  "-a",
  "--all",
  "-r",
  "--remotes",
  "-v",
  "-vv",
  "--verbose",
  "--no-color",
]);

function isWithin(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/** The real location of `target`: its realpath, or its nearest existing ancestor's joined with the rest. */
function realLocationSync(target: string): string {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return target;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/** Checks file arguments against the workspace roots, lexically and after symlinks (roots computed once). */
class WorkspaceCheck {
  readonly #cwd: string;
  readonly #roots: string[];
  readonly #realRoots: string[];
  readonly #commandCwd: string;
  #gitBlocked: boolean | undefined;

  constructor(scope: WorkspaceScope) {
    this.#commandCwd = scope.cwd;
    this.#roots = allowedRoots(scope);
    this.#cwd = this.#roots[0] ?? path.resolve(scope.cwd);
    this.#realRoots = this.#roots.map(realLocationSync);
  }

  /**
   * Whether every file an unquoted glob could expand to stays inside. Only a glob in the last path component
   * is resolved (its directory must be inside); it is matched loosely (`*` also matches dot files), so the
   * files checked are a superset of what bash would pass.
   */
  containsGlob(pattern: string): boolean {
    const directory = path.dirname(pattern);
    const last = path.basename(pattern);
    if (/[*?[]/.test(directory) || !this.contains(directory)) return false;
    const matcher = globMatcher(last);
    if (matcher === undefined) return false;
    let names: string[];
    try {
      names = readdirSync(path.resolve(this.#cwd, directory));
    } catch {
      return true; // nothing to expand: bash passes the pattern itself, which names nothing
    }
    return names.filter((name) => matcher.test(name)).every((name) => this.contains(path.join(directory, name)));
  }

  /**
   * Whether the repository the command runs in names programs its read-only git commands would start and
   * that git-read-only.ts cannot switch off (asked of git once per command; a failure to ask counts as yes).
   */
  gitConfigBlocks(): boolean {
    this.#gitBlocked ??=
      (repositoryBlockingGitKeys(this.#commandCwd, processSecretEnvironment().toolEnv)?.length ?? 1) > 0;
    return this.#gitBlocked;
  }

  /** Whether `argument`, read as a path relative to the workspace, stays inside it. */
  contains(argument: string): boolean {
    if (argument === "") return true;
    const absolute = path.resolve(this.#cwd, argument);
    const lexical = [...this.#roots, ...this.#realRoots].some((root) => isWithin(root, absolute));
    return lexical && this.#realRoots.some((root) => isWithin(root, realLocationSync(absolute)));
  }
}

/** A loose regular expression for one glob component (`*`, `?`, `[...]`); undefined for one it cannot read. */
function globMatcher(component: string): RegExp | undefined {
  let source = "";
  for (let index = 0; index < component.length; index++) {
    const character = component[index] ?? "";
    if (character === "*") source += ".*";
    else if (character === "?") source += ".";
    else if (character === "[") {
      const end = component.indexOf("]", index + 2);
      if (end < 0) return undefined;
      const inside = component.slice(index + 1, end).replace(/^!/, "^");
      if (/[\\[]/.test(inside)) return undefined;
      source += `[${inside}]`;
      index = end;
    } else source += character.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  }
  try {
    return new RegExp(`^${source}$`, "s");
  } catch {
    return undefined;
  }
}

function forbiddenLongOption(name: string, forbidden: readonly string[]): boolean {
  // GNU and git accept unambiguous abbreviations (`--out` for `--output`), so a prefix counts too.
  return forbidden.some((option) => option === name || (name.length > 3 && option.startsWith(name)));
}

/** Whether one option word is allowed; its value (after `=`) must stay in the workspace like any path. */
function optionIsSafe(word: ShellWord, spec: CommandSpec, check: WorkspaceCheck): boolean {
  const text = word.text;
  if (spec.forbiddenWords !== undefined) {
    return !spec.forbiddenWords.some((forbidden) => text === forbidden || text.startsWith(`${forbidden}=`));
  }
  if (text.startsWith("--")) {
    const equals = text.indexOf("=");
    const name = equals < 0 ? text : text.slice(0, equals);
    if (forbiddenLongOption(name, spec.forbiddenLong ?? [])) return false;
    if (equals < 0) return true;
    const value = text.slice(equals + 1);
    return spec.operands === "strings" || (!word.hasGlob && check.contains(value));
  }
  // A short cluster (`-la`, `-n5`); a path glued to a letter (`-f/etc/x`) cannot be told from a value.
  if (text.includes("/")) return false;
  const letters = text.slice(1);
  return ![...(spec.forbiddenShort ?? "")].some((letter) => letters.includes(letter));
}

function segmentIsReadOnly(segment: ShellSegment, check: WorkspaceCheck): boolean {
  if (!segment.inputs.every((input) => check.contains(input))) return false;
  const [program, ...rest] = segment.words;
  // A bare name only: `/tmp/evil/cat` or `LD_PRELOAD=… cat` is not the allow-listed program.
  if (program === undefined || program.hasGlob || program.text.includes("/") || program.text.includes("=")) {
    return false;
  }
  const spec = READ_ONLY_COMMANDS.get(program.text);
  if (spec === undefined) return false;
  let operands = rest;
  if (program.text === "git") {
    // Global options such as `-c` or `-C` could set hooks, pagers or another repository: the subcommand first.
    const subcommand = rest[0];
    if (subcommand?.text === "branch") return rest.slice(1).every((word) => READ_ONLY_GIT_BRANCH_WORDS.has(word.text));
    if (subcommand === undefined || !READ_ONLY_GIT_SUBCOMMANDS.has(subcommand.text)) return false;
    operands = rest.slice(1);
    // `rev:path` names a file relative to the repository root, which may lie outside the workspace.
    if (operands.some((word) => !word.text.startsWith("-") && word.text.includes(":"))) return false;
  }
  let optionsEnded = false;
  for (const word of operands) {
    if (!optionsEnded && word.text === "--") {
      optionsEnded = true;
      continue;
    }
    if (!optionsEnded && word.text.startsWith("-") && word.text.length > 1) {
      if (!optionIsSafe(word, spec, check)) return false;
      continue;
    }
    if (spec.operands === "strings") continue;
    if (word.hasGlob ? !check.containsGlob(word.text) : !check.contains(word.text)) return false;
  }
  // Last, as it asks git: a repository whose config names programs git would run is not read-only.
  return program.text !== "git" || !check.gitConfigBlocks();
}

/**
 * Whether `command` clearly only reads inside `scope`: each part of a `|`, `&&`, `||` or `;` chain is an
 * allow-listed program whose file arguments (and `<` inputs) stay in the workspace, with no expansion,
 * substitution, backgrounding, glob, `~`, output redirection (except to /dev/null) or writing option.
 */
export function isReadOnlyCommand(command: string, scope: WorkspaceScope): boolean {
  const segments = readShellSegments(command);
  if (segments === undefined || segments.length === 0) return false;
  const check = new WorkspaceCheck(scope);
  return segments.every((segment) => segmentIsReadOnly(segment, check));
}
