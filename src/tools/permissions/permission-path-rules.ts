/**
 * Path specifiers of `Read(...)` and `Edit(...)` rules, gitignore-style as in Claude Code's settings
 * (docs/SETTINGS.md): `//abs/path` from the filesystem root, `~/path` from the home directory, `/path` from the
 * settings file's project root, `path` or `./path` from the working directory. A pattern with no `/` before its
 * end (`*.env`, `secrets/`) matches at any depth, and a pattern that names a directory covers everything in it.
 */
import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { builtinToolTraits, pathRuleFamilies } from "../default-tools.js";
import { globToRegExp, splitGlobBase } from "../files/glob-pattern.js";

/** Where relative patterns and paths start from. */
export interface RuleScope {
  /** The working directory: relative tool paths and `./path` patterns start here. */
  cwd: string;
  /** The directory `/path` patterns start from (the settings file's project). Default `cwd`. */
  root?: string;
  /** For `~/path`. Default `os.homedir()`. */
  home?: string;
}

/** Rule tool name → the tools it covers (`pathRuleFamilies`: each tool names the rules that cover it). */
export function pathRuleFamily(ruleName: string): readonly string[] | undefined {
  return Object.hasOwn(pathRuleFamilies(), ruleName) ? pathRuleFamilies()[ruleName] : undefined;
}

/** Whether the tool's path is a folder it searches, not one file (Grep, Glob). */
export function searchesFolder(toolName: string): boolean {
  return builtinToolTraits(toolName)?.pathRule?.searchesFolder === true;
}

/** The absolute path a call touches (a file, or the folder a search starts in); undefined when it names none. */
export function toolCallPath(toolName: string, input: unknown, cwd: string): string | undefined {
  const rule = builtinToolTraits(toolName)?.pathRule;
  if (rule === undefined || typeof input !== "object" || input === null) return undefined;
  const named = (input as Record<string, unknown>)[rule.pathField] ?? (rule.searchesFolder === true ? cwd : undefined);
  if (typeof named !== "string" || named === "") return undefined;
  return isAbsolute(named) ? resolve(named) : resolve(cwd, named);
}

/** A directory name as a glob that matches only itself (a temp folder may hold `[` or `{`). */
function literal(directory: string): string {
  return directory.replace(/[*?[\]{}\\]/g, (character) => `\\${character}`);
}

/** A pattern placed: the directory it starts from (plain text) and the glob below it; `anyDepth` for `*.env`. */
interface PlacedPattern {
  directory: string;
  glob: string;
  anyDepth: boolean;
}

function place(specifier: string, scope: RuleScope): PlacedPattern {
  const pattern = specifier.trim().replace(/\/+$/, "");
  if (pattern.startsWith("//")) return { directory: "", glob: pattern.slice(1), anyDepth: false };
  if (pattern === "~" || pattern.startsWith("~/"))
    return { directory: scope.home ?? homedir(), glob: pattern.slice(1), anyDepth: false };
  if (pattern.startsWith("/")) return { directory: scope.root ?? scope.cwd, glob: pattern, anyDepth: false };
  const relative = pattern.startsWith("./") ? pattern.slice(2) : pattern;
  // gitignore: no separator before the end means "at any level below".
  const anyDepth = !relative.includes("/");
  return { directory: scope.cwd, glob: `/${anyDepth ? "**/" : ""}${relative}`, anyDepth };
}

function expressionOf(placed: PlacedPattern): RegExp {
  return globToRegExp(`${literal(placed.directory)}${placed.glob}`);
}

/** Whether `path` is `directory` or inside it. */
function isWithin(path: string, directory: string): boolean {
  return path === directory || path.startsWith(directory.endsWith("/") ? directory : `${directory}/`);
}

/** The literal folder a placed pattern's matches all sit in (`/p/secrets` for `./secrets/**`). */
function literalBase(placed: PlacedPattern): string {
  // Stryker disable next-line StringLiteral,Regex: isWithin treats "" as "/" (both give the prefix "/"), and "/" is inside any root it is tested against; a base left with one "/" at its end gives isWithin the same answers
  return `${placed.directory}${splitGlobBase(placed.glob).base}`.replace(/\/+$/, "") || "/";
}

/** Whether `path` (absolute) is matched by the path specifier, itself or as something inside a matched folder. */
export function pathRuleMatches(specifier: string, path: string, scope: RuleScope): boolean {
  const expression = expressionOf(place(specifier, scope));
  if (expression.test(path)) return true;
  // A matched folder covers everything in it: test each ancestor of the path.
  let parent = path;
  // Stryker disable next-line EqualityOperator,StringLiteral: both only add a test of "", which no placed pattern matches (each starts with "/")
  while (parent.lastIndexOf("/") > 0) {
    parent = parent.slice(0, parent.lastIndexOf("/"));
    if (expression.test(parent)) return true;
  }
  return false;
}

/**
 * Whether a search (Grep, Glob) from folder `root` can reach what a deny rule names: the root is matched or
 * inside the rule's folder, or the rule's folder is inside the root. A pattern at any depth (`*.env`) only denies
 * searches from a matched folder (it would otherwise deny every search); docs/SETTINGS.md says so.
 */
export function searchReaches(specifier: string, root: string, scope: RuleScope): boolean {
  if (pathRuleMatches(specifier, root, scope)) return true;
  const placed = place(specifier, scope);
  if (placed.anyDepth) return false;
  const base = literalBase(placed);
  return isWithin(root, base) || isWithin(base, root);
}

/** Whether everything a search from `root` reads is inside what an allow rule names. */
export function searchWithin(specifier: string, root: string, scope: RuleScope): boolean {
  if (pathRuleMatches(specifier, root, scope)) return true;
  const placed = place(specifier, scope);
  return !placed.anyDepth && splitGlobBase(placed.glob).rest === "**" && isWithin(root, literalBase(placed));
}
