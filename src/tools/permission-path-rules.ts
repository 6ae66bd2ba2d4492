/**
 * Path specifiers of `Read(...)` and `Edit(...)` rules, gitignore-style as in Claude Code's settings
 * (docs/SETTINGS.md): `//abs/path` from the filesystem root, `~/path` from the home directory, `/path` from the
 * settings file's project root, `path` or `./path` from the working directory. A pattern with no `/` before its
 * end (`*.env`, `secrets/`) matches at any depth, and a pattern that names a directory covers everything in it.
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { globToRegExp } from "./glob-pattern.js";

/** Where relative patterns and paths start from. */
export interface RuleScope {
  /** The working directory: relative tool paths and `./path` patterns start here. */
  cwd: string;
  /** The directory `/path` patterns start from (the settings file's project). Default `cwd`. */
  root?: string;
  /** For `~/path`. Default `os.homedir()`. */
  home?: string;
}

/** Rule tool name → the tools it covers: an Edit rule also covers Write, a Read rule the tools that read files. */
export const PATH_RULE_FAMILIES: Readonly<Record<string, readonly string[]>> = {
  Edit: ["Edit", "Write", "MultiEdit", "NotebookEdit"],
  Write: ["Write"],
  Read: ["Read", "Grep", "Glob"],
};

/** The absolute path a call touches (a file, or the folder a search starts in); undefined when it names none. */
export function toolCallPath(toolName: string, input: unknown, cwd: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const fields = input as { file_path?: unknown; notebook_path?: unknown; path?: unknown };
  const named =
    toolName === "Grep" || toolName === "Glob" ? (fields.path ?? cwd) : (fields.file_path ?? fields.notebook_path);
  if (typeof named !== "string" || named === "") return undefined;
  return isAbsolute(named) ? resolve(named) : resolve(cwd, named);
}

/** A directory name as a glob that matches only itself (a temp folder may hold `[` or `{`). */
function literal(directory: string): string {
  return directory.replace(/[*?[\]{}\\]/g, (character) => `\\${character}`);
}

/** The pattern as an absolute glob (without the directory-covering tail). */
function absolutePattern(specifier: string, scope: RuleScope): string {
  const pattern = specifier.trim();
  if (pattern.startsWith("//")) return pattern.slice(1);
  if (pattern === "~" || pattern.startsWith("~/")) return `${literal(scope.home ?? homedir())}${pattern.slice(1)}`;
  if (pattern.startsWith("/")) return `${literal(scope.root ?? scope.cwd)}${pattern}`;
  const relative = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  // gitignore: no separator before the end means "at any level below".
  const anyDepth = !relative.replace(/\/+$/, "").includes("/");
  return `${literal(scope.cwd)}/${anyDepth ? "**/" : ""}${relative}`;
}

/** Whether `path` (absolute) is matched by the path specifier, itself or as something inside a matched folder. */
export function pathRuleMatches(specifier: string, path: string, scope: RuleScope): boolean {
  const pattern = absolutePattern(specifier, scope).replace(/\/+$/, "");
  const expression = globToRegExp(pattern);
  if (expression.test(path)) return true;
  // A matched folder covers everything in it: test each ancestor of the path.
  let parent = path;
  while (parent.lastIndexOf("/") > 0) {
    parent = parent.slice(0, parent.lastIndexOf("/"));
    if (expression.test(parent)) return true;
  }
  return false;
}
