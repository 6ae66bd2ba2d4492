/**
 * File checkpoints (docs/REWIND.md): before each prompt, the state of every file its turn then changes.
 * The file tools (Write, Edit, NotebookEdit) report the file before they touch it; Bash is watched by a
 * stat comparison of the workspace's files before and after each command, and a file Bash changed is given
 * the content it had when the prompt arrived (kept by the snapshot taken then, by hash). What is kept is a
 * line per file in `manifest.jsonl` beside content-addressed blobs; nothing is ever overwritten.
 */
import { existsSync } from "node:fs";
import { appendFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";
import { BlobStore } from "./blob-store.js";
import { type FileStat, sameStat, statFiles, watchedFiles } from "./workspace-files.js";

/** Largest file kept whole (a bigger one is named as not restorable). */
export const DEFAULT_MAX_CHECKPOINT_FILE_BYTES = 1024 * 1024;
/** Most workspace files the Bash watch looks at. */
export const DEFAULT_MAX_WATCHED_FILES = 5000;

/** A file's state before a prompt's turn changed it: its content's hash, null when it did not exist. */
export type FileBefore = { path: string; hash: string | null } | { path: string; notRestorable: string };

interface ManifestLine {
  promptUuid: string;
  path: string;
  hash?: string | null;
  notRestorable?: string;
  by: string;
}

export interface CheckpointOptions {
  /** Where the manifest and blobs are kept (beside the session's transcript). */
  dir: string;
  cwd: string;
  maxFileBytes?: number;
  maxWatchedFiles?: number;
}

export interface RestoreResult {
  restored: string[];
  notRestorable: { path: string; reason: string }[];
}

/** What the snapshot taken when a prompt arrives knows of one watched file. */
interface Known extends FileStat {
  /** undefined: too big to keep. */
  hash: string | undefined;
}

export class Checkpoints {
  readonly dir: string;
  readonly cwd: string;
  readonly blobs: BlobStore;
  readonly #maxFileBytes: number;
  readonly #maxWatched: number;
  #prompt: string | undefined;
  /** Paths (manifest form) already given a before-state in this prompt's turn: the first change wins. */
  readonly #captured = new Set<string>();
  /** The watched files as they were when the prompt arrived. */
  #atPrompt = new Map<string, Known>();
  /** Last snapshot's knowledge, reused when a file's size and mtime have not moved (no read). */
  #known = new Map<string, Known>();
  // Stryker disable next-line ArrayDeclaration: read only after beginPrompt has set it (aroundCommand returns early before)
  #names: string[] = [];

  constructor(options: CheckpointOptions) {
    this.dir = options.dir;
    this.cwd = options.cwd;
    this.blobs = new BlobStore(join(options.dir, "blobs"));
    this.#maxFileBytes = options.maxFileBytes ?? DEFAULT_MAX_CHECKPOINT_FILE_BYTES;
    this.#maxWatched = options.maxWatchedFiles ?? DEFAULT_MAX_WATCHED_FILES;
  }

  /** Workspace-relative (`/`) inside the workspace, else absolute: how the manifest names a file. */
  nameOf(absolute: string): string {
    const inside = relative(this.cwd, absolute);
    if (inside === "" || inside.startsWith("..") || isAbsolute(inside)) return absolute;
    return inside.split(sep).join("/");
  }

  #absolute(name: string): string {
    return isAbsolute(name) ? name : join(this.cwd, name);
  }

  /** A new prompt: snapshot the watched files (reading only those whose size or mtime moved). */
  async beginPrompt(promptUuid: string): Promise<void> {
    this.#prompt = promptUuid;
    this.#captured.clear();
    this.#names = await watchedFiles(this.cwd, this.#maxWatched);
    const stats = await statFiles(this.cwd, this.#names);
    const atPrompt = new Map<string, Known>();
    for (const [name, stat] of stats) {
      const known = this.#known.get(name);
      // Stryker disable next-line all: reusing what was known saves a read; reading the unchanged file again keeps the same hash
      if (known !== undefined && sameStat(known, stat)) {
        atPrompt.set(name, known);
        continue;
      }
      atPrompt.set(name, { ...stat, hash: await this.#keep(this.#absolute(name), stat.size) });
    }
    this.#atPrompt = atPrompt;
    this.#known = atPrompt;
  }

  /** Keeps a file's bytes when small enough; undefined when too big or unreadable. */
  async #keep(absolute: string, size: number): Promise<string | undefined> {
    if (size > this.#maxFileBytes) return undefined;
    try {
      return await this.blobs.put(await readFile(absolute));
      // Stryker disable next-line BlockStatement: an emptied catch falls off the end and returns undefined too
    } catch {
      return undefined;
    }
  }

  async #record(line: Omit<ManifestLine, "promptUuid">): Promise<void> {
    // Stryker disable next-line ConditionalExpression: every caller returns before this when no prompt began
    if (this.#prompt === undefined || this.#captured.has(line.path)) return;
    this.#captured.add(line.path);
    await mkdir(this.dir, { recursive: true });
    await appendFile(join(this.dir, "manifest.jsonl"), `${JSON.stringify({ promptUuid: this.#prompt, ...line })}\n`);
  }

  /** A file tool is about to change `absolute`: keep its content first (once per turn). */
  async beforeFileChange(absolute: string, tool: string): Promise<void> {
    const name = this.nameOf(absolute);
    // Stryker disable next-line ConditionalExpression,LogicalOperator: #record checks the prompt and the captured set again, so only a read is saved
    if (this.#prompt === undefined || this.#captured.has(name)) return;
    let bytes: Buffer | undefined;
    try {
      bytes = await readFile(absolute);
    } catch {
      await this.#record({ path: name, hash: null, by: tool });
      return;
    }
    if (bytes.length > this.#maxFileBytes) {
      const reason = `${bytes.length} bytes, over the ${this.#maxFileBytes}-byte checkpoint limit`;
      await this.#record({ path: name, notRestorable: reason, by: tool });
      return;
    }
    try {
      await this.#record({ path: name, hash: await this.blobs.put(bytes), by: tool });
    } catch (error) {
      throw new Error(checkpointFailure(tool, name, this.dir, error));
    }
  }

  /** Runs a Bash command, then records every watched file it created, changed or removed. */
  async aroundCommand<T>(run: () => Promise<T>): Promise<T> {
    // Stryker disable next-line ConditionalExpression: with no prompt the watch is empty and #record records nothing, so the result is the same
    if (this.#prompt === undefined) return run();
    const before = await statFiles(this.cwd, this.#names);
    try {
      return await run();
    } finally {
      await this.#recordCommandChanges(before);
    }
  }

  async #recordCommandChanges(before: Map<string, FileStat>): Promise<void> {
    const names = await watchedFiles(this.cwd, this.#maxWatched);
    const after = await statFiles(this.cwd, names);
    const changed = new Set<string>();
    for (const [name, stat] of after) if (!sameStat(before.get(name), stat)) changed.add(name);
    for (const name of before.keys()) if (!after.has(name)) changed.add(name);
    for (const name of changed) {
      const atPrompt = this.#atPrompt.get(name);
      if (atPrompt === undefined) {
        // Not there when the prompt arrived (or past the watch limit then): undoing it removes it.
        // Stryker disable next-line all: unreachable, before's keys come from this.#names (docs/MUTATION-TESTING.md)
        if (before.has(name) && !this.#names.includes(name))
          // Stryker disable next-line all: the branch above is never taken
          await this.#record({ path: name, notRestorable: "not watched when the prompt arrived", by: "Bash" });
        else await this.#record({ path: name, hash: null, by: "Bash" });
      } else if (atPrompt.hash === undefined) {
        const reason = `${atPrompt.size} bytes when the prompt arrived, over the ${this.#maxFileBytes}-byte checkpoint limit`;
        await this.#record({ path: name, notRestorable: reason, by: "Bash" });
      } else await this.#record({ path: name, hash: atPrompt.hash, by: "Bash" });
    }
    this.#names = names;
  }

  /** Every manifest line, in the order written (a damaged line is skipped). */
  async lines(): Promise<ManifestLine[]> {
    const file = join(this.dir, "manifest.jsonl");
    if (!existsSync(file)) return [];
    const lines: ManifestLine[] = [];
    for (const text of (await readFile(file, "utf8")).split("\n")) {
      // Stryker disable next-line ConditionalExpression,MethodExpression,StringLiteral: a blank line fails JSON.parse and the catch below skips it the same
      if (text.trim() === "") continue;
      try {
        lines.push(JSON.parse(text) as ManifestLine);
      } catch {
        // A line cut short by a crash: the rest still count.
      }
    }
    return lines;
  }

  /**
   * The state to go back to for undoing the turns of `promptUuids` (in the order they were sent): for each
   * file any of them changed, its state before the first of them that changed it.
   */
  async plan(promptUuids: readonly string[]): Promise<FileBefore[]> {
    const order = new Map(promptUuids.map((uuid, index) => [uuid, index]));
    const first = new Map<string, { at: number; line: ManifestLine }>();
    for (const line of await this.lines()) {
      const at = order.get(line.promptUuid);
      if (at === undefined) continue;
      const seen = first.get(line.path);
      // Stryker disable next-line EqualityOperator: two lines of one prompt for one path are never written (the first change of a turn wins)
      if (seen === undefined || at < seen.at) first.set(line.path, { at, line });
    }
    return [...first.values()].map(({ line }) =>
      line.notRestorable !== undefined
        ? { path: line.path, notRestorable: line.notRestorable }
        : { path: line.path, hash: line.hash ?? null },
    );
  }

  /** Puts the files of `plan` back; what cannot be is named with why, and nothing else is touched. */
  async restore(plan: readonly FileBefore[]): Promise<RestoreResult> {
    const result: RestoreResult = { restored: [], notRestorable: [] };
    for (const item of plan) {
      if ("notRestorable" in item) {
        result.notRestorable.push({ path: item.path, reason: item.notRestorable });
        continue;
      }
      const target = this.#absolute(item.path);
      try {
        if (item.hash === null) {
          await rm(target, { force: true });
        } else {
          const bytes = await this.blobs.get(item.hash);
          if (bytes === undefined) {
            result.notRestorable.push({ path: item.path, reason: "its checkpoint content is missing or damaged" });
            continue;
          }
          await mkdir(dirname(target), { recursive: true });
          await writeFile(target, bytes);
        }
        result.restored.push(item.path);
      } catch (error) {
        result.notRestorable.push({ path: item.path, reason: error instanceof Error ? error.message : String(error) });
      }
    }
    return result;
  }
}

/**
 * The one line a call gets when its file's checkpoint cannot be kept (a full disk): the call is not run, so the
 * file stays as it was and rewind never promises what it does not hold.
 */
export function checkpointFailure(tool: string, name: string, dir: string, error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const why =
    code === "ENOSPC"
      ? "the disk is full (ENOSPC)"
      : code === "EDQUOT"
        ? "the disk quota is used up (EDQUOT)"
        : (error instanceof Error ? error.message : String(error)).split("\n", 1)[0];
  return (
    `${tool} not run: the checkpoint of ${name} could not be kept in ${dir}: ${why}. ${name} is unchanged, ` +
    "earlier checkpoints are kept, and no partial blob was left. Free some space and try again."
  );
}
