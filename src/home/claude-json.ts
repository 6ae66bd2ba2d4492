/**
 * Claude Code's own record, `~/.claude.json` (or `$CLAUDE_CONFIG_DIR/.claude.json`): the MCP servers its
 * `claude mcp add` writes (user scope: top-level `mcpServers`; local scope, its default:
 * `projects[<folder>].mcpServers`) and the folders a person trusted there (`projects[<folder>]
 * .hasTrustDialogAccepted: true`). threadline reads it, and writes it only to add what the person asked for
 * (`threadline mcp add|add-json|remove`, a yes to the trust question), keeping every other byte: the file is
 * changed only when it is in Claude Code's own layout (`JSON.stringify(value, null, 2)`), under Claude Code's
 * lock directory, through a temporary file and a rename, and never over a change made since it was read.
 */
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { userHome } from "./threadline-home.js";

/** Claude Code's variable that moves its configuration folder (and `.claude.json` with it). */
export const CLAUDE_CONFIG_DIR_ENV = "CLAUDE_CONFIG_DIR";

/** The file's name in the home folder (or in `$CLAUDE_CONFIG_DIR`). */
export const CLAUDE_JSON_FILE = ".claude.json";

/** How long a writer waits for another's lock before giving up (and changing nothing). Default 3 s. */
export const DEFAULT_CLAUDE_JSON_LOCK_WAIT_MS = 3_000;

/** A lock directory older than this is left over from a crashed writer (proper-lockfile's default stale time). */
const STALE_LOCK_MS = 10_000;

/** Where Claude Code keeps the record: `$CLAUDE_CONFIG_DIR/.claude.json`, else `<home>/.claude.json`. */
export function claudeJsonPath(env: NodeJS.ProcessEnv = process.env): string {
  const configDirectory = env[CLAUDE_CONFIG_DIR_ENV];
  if (configDirectory !== undefined && configDirectory !== "") return join(configDirectory, CLAUDE_JSON_FILE);
  return join(userHome(env), CLAUDE_JSON_FILE);
}

export type ClaudeJson = Record<string, unknown>;

/** The file's contents: absent (no Claude Code here), an object, or one problem line (nothing read from it). */
export type ClaudeJsonRead =
  | { kind: "absent" }
  | { kind: "read"; document: ClaudeJson; text: string }
  | { kind: "problem"; problem: string };

/** Reads the record; never throws. */
export function readClaudeJson(path: string): ClaudeJsonRead {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { kind: "absent" };
    return { kind: "problem", problem: `${path}: cannot be read (${(error as Error).message}); nothing read from it` };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { kind: "problem", problem: `${path}: not valid JSON (${(error as Error).message}); nothing read from it` };
  }
  if (!isObject(value)) return { kind: "problem", problem: `${path}: not a JSON object; nothing read from it` };
  return { kind: "read", document: value, text };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function realOr(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/** The keys Claude Code may have filed `folder` under: the path as given (resolved) and its real path. */
export function projectKeys(folder: string): string[] {
  const given = resolve(folder).replaceAll("\\", "/");
  const real = realOr(folder).replaceAll("\\", "/");
  return given === real ? [given] : [given, real];
}

/** `projects[<folder>]` of the record, by either key; undefined when there is none. */
export function projectEntry(document: ClaudeJson, folder: string): Record<string, unknown> | undefined {
  const projects = document.projects;
  if (!isObject(projects)) return undefined;
  for (const key of projectKeys(folder)) {
    const entry = projects[key];
    if (isObject(entry)) return entry;
  }
  return undefined;
}

/**
 * Whether Claude Code's record says the person trusted `folder` or a folder above it
 * (`hasTrustDialogAccepted: true`; anything else, a missing file or one that does not parse: not trusted).
 */
export function isTrustedByClaudeCode(folder: string, path: string): boolean {
  const read = readClaudeJson(path);
  if (read.kind !== "read") return false;
  let current = resolve(folder);
  for (;;) {
    if (projectEntry(read.document, current)?.hasTrustDialogAccepted === true) return true;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  // The real path's ancestors too (a symlinked checkout trusted under its real name).
  const real = realOr(folder);
  return real !== resolve(folder) && isTrustedByClaudeCode(real, path);
}

/** The MCP servers Claude Code's `mcp add` wrote: user scope and this folder's local scope (raw values). */
export function claudeCodeServers(document: ClaudeJson, folder: string): { user: unknown; local: unknown } {
  return { user: document.mcpServers, local: projectEntry(document, folder)?.mcpServers };
}

/** What a change did: written, nothing to write, or one line saying why the file was left as it was. */
export type ClaudeJsonWrite = { kind: "written" } | { kind: "unchanged" } | { kind: "refused"; problem: string };

export interface UpdateOptions {
  /** Create the file when there is none (an explicit `mcp add`); default false (no Claude Code here: leave it). */
  create?: boolean;
  /** Milliseconds to wait for another writer's lock; default `DEFAULT_CLAUDE_JSON_LOCK_WAIT_MS`. */
  lockWaitMs?: number;
}

/**
 * Read-modify-write of the record. `change` edits the parsed document in place and says whether it changed
 * anything. Refused (file untouched) when the file is not in Claude Code's layout (re-serializing would move
 * other bytes), when another writer holds the lock past the wait, or when the file changed between the read and
 * the rename, three times over.
 */
export function updateClaudeJson(
  path: string,
  change: (document: ClaudeJson) => boolean,
  options: UpdateOptions = {},
): ClaudeJsonWrite {
  const lock = `${path}.lock`;
  if (!takeLock(lock, options.lockWaitMs ?? DEFAULT_CLAUDE_JSON_LOCK_WAIT_MS))
    return { kind: "refused", problem: `${path}: another program holds ${lock}; left unchanged` };
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      const read = readClaudeJson(path);
      if (read.kind === "problem") return { kind: "refused", problem: `${read.problem}; left unchanged` };
      if (read.kind === "absent" && options.create !== true) return { kind: "unchanged" };
      const before = read.kind === "read" ? read.text : undefined;
      const document = read.kind === "read" ? read.document : {};
      const ending = before === undefined || before.endsWith("\n") ? "\n" : "";
      const layoutKept = before === undefined || `${JSON.stringify(document, null, 2)}${ending}` === before;
      if (!layoutKept)
        return {
          kind: "refused",
          problem: `${path}: not in Claude Code's own layout (2-space JSON), so rewriting it would change other lines; left unchanged`,
        };
      if (!change(document)) return { kind: "unchanged" };
      const after = `${JSON.stringify(document, null, 2)}${ending}`;
      const temporary = `${path}.threadline-${process.pid}-${attempt}.tmp`;
      writeWhole(temporary, after, modeOf(path));
      // The last look before the rename: a change made since our read is never overwritten.
      if (currentText(path) !== before) {
        unlinkSync(temporary);
        continue;
      }
      renameSync(temporary, path);
      return { kind: "written" };
    }
    return { kind: "refused", problem: `${path}: kept changing while threadline wrote it; left unchanged` };
  } finally {
    releaseLock(lock);
  }
}

/**
 * Records `folder` as trusted where Claude Code would (`projects[<folder>].hasTrustDialogAccepted = true`, the
 * entry created when missing). Only where Claude Code already keeps the file: threadline never creates it for this.
 */
export function recordClaudeCodeTrust(folder: string, path: string): ClaudeJsonWrite {
  const key = projectKeys(folder)[0] ?? resolve(folder);
  return updateClaudeJson(path, (document) => {
    const projects = isObject(document.projects) ? document.projects : {};
    const entry = projectEntry(document, folder) ?? {};
    if (entry.hasTrustDialogAccepted === true) return false;
    entry.hasTrustDialogAccepted = true;
    if (!Object.values(projects).includes(entry)) projects[key] = entry;
    document.projects = projects;
    return true;
  });
}

function currentText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

function modeOf(path: string): number {
  try {
    return statSync(path).mode & 0o777;
  } catch {
    return 0o600; // the record holds account details: readable by its owner only
  }
}

function writeWhole(path: string, text: string, mode: number): void {
  mkdirSync(dirname(path), { recursive: true });
  const descriptor = openSync(path, "wx", mode);
  try {
    writeSync(descriptor, text);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
}

/** A lock directory beside the file (mkdir is atomic), as proper-lockfile makes it; a stale one is taken over. */
function takeLock(lock: string, waitMs: number): boolean {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      mkdirSync(lock);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") {
        mkdirSync(dirname(lock), { recursive: true });
        continue;
      }
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") return false;
    }
    try {
      if (Date.now() - statSync(lock).mtimeMs > STALE_LOCK_MS) {
        rmdirSync(lock);
        continue;
      }
    } catch {
      continue; // released meanwhile
    }
    if (Date.now() >= deadline) return false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}

function releaseLock(lock: string): void {
  try {
    rmdirSync(lock);
  } catch {
    // Already gone: nothing to release.
  }
}
