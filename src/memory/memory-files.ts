/**
 * One session's memory files: the set read when the session starts, and nested files found later when a
 * tool first touches a path in their subtree (Read, Edit, Write, Grep, Glob). Each file is read at most
 * once per session; on resume the files the transcript already holds count as read, so nothing is sent
 * twice and nothing is re-read from disk (the transcript's bytes are what a resumed request sends).
 */
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import { builtinToolTraits } from "../tools/index.js";
import { isMemoryAttachment, memoryAttachment, memoryData } from "./memory-attachment.js";
import type { MemoryLimits } from "./memory-limits.js";
import { isInside, MemoryReader } from "./memory-reader.js";
import { directoriesDown, projectCandidates, repositoryRoot, sessionStartCandidates } from "./memory-sources.js";
import type { MemoryAttachmentData, MemoryFile } from "./memory-types.js";
import { loadedMemory } from "./reattach.js";

export interface MemoryFilesOptions {
  /** The workspace (working directory). */
  cwd: string;
  /** Directories the tools may also use; nested files below them are found too. Default none. */
  additionalDirectories?: readonly string[];
  /** The user's home (`~/.claude/CLAUDE.md`, `~/` in imports). */
  userHome: string;
  /** threadline's home (its CLAUDE.md and AGENTS.md are the user's too). */
  threadlineHome: string;
  /** Default DEFAULT_MEMORY_LIMITS. */
  limits?: MemoryLimits;
}

/** What one look produced: an attachment to record (if any file was found) and notice lines. */
export interface MemoryFound {
  attachment?: MemoryAttachmentData;
  notices: string[];
}

export class MemoryFiles {
  readonly #options: MemoryFilesOptions;
  readonly #reader: MemoryReader;
  #adopted = false;
  #started = false;

  constructor(options: MemoryFilesOptions) {
    this.#options = options;
    const roots = [options.cwd, ...(options.additionalDirectories ?? [])];
    this.#reader = new MemoryReader({
      userHome: options.userHome,
      projectRoots: roots,
      userRoots: [join(options.userHome, ".claude"), options.threadlineHome],
      ...(options.limits ? { limits: options.limits } : {}),
    });
  }

  /** Files the transcript already carries count as read (once per session, before the first look). */
  async #adopt(entries: readonly TimelineEntry[]): Promise<void> {
    if (this.#adopted) return;
    this.#adopted = true;
    for (const memory of loadedMemory(entries))
      await this.#reader.remember(
        memory.memoryFiles.map((file) => file.path),
        memory.memoryFiles.reduce((sum, file) => sum + file.chars, 0),
      );
  }

  /**
   * The session-start attachment: undefined when the session already has one (a resume sends the recorded
   * bytes) or no memory file exists. Called before the first message of the process is recorded.
   */
  async start(entries: readonly TimelineEntry[]): Promise<MemoryFound> {
    if (this.#started) return { notices: [] };
    this.#started = true;
    await this.#adopt(entries);
    if (entries.some((entry) => isMemoryAttachment(entry) && memoryData(entry).memoryOrigin === "session-start"))
      return { notices: [] };
    const root = await repositoryRoot(this.#options.cwd);
    const candidates = sessionStartCandidates({
      cwd: this.#options.cwd,
      userHome: this.#options.userHome,
      threadlineHome: this.#options.threadlineHome,
      ...(root !== undefined ? { repositoryRoot: root } : {}),
    });
    const files: MemoryFile[] = [];
    for (const candidate of candidates) files.push(...(await this.#reader.read(candidate.path, candidate.scope)));
    return this.#found(files, "session-start");
  }

  /** Nested memory files that `toolName` touching `input`'s path brings into force, not attached before. */
  async touched(toolName: string, input: unknown, entries: readonly TimelineEntry[]): Promise<MemoryFound> {
    if (builtinToolTraits(toolName)?.revealsMemoryFiles !== true) return { notices: [] };
    const target = pathOf(input);
    if (target === undefined) return { notices: [] };
    await this.#adopt(entries);
    const absolute = resolve(this.#options.cwd, target);
    const roots = [this.#options.cwd, ...(this.#options.additionalDirectories ?? [])].map((root) => resolve(root));
    const root = roots.filter((candidate) => isInside(absolute, candidate)).sort((a, b) => b.length - a.length)[0];
    if (root === undefined) return { notices: [] };
    const bottom = (await isDirectory(absolute)) ? absolute : dirname(absolute);
    if (!isInside(bottom, root)) return { notices: [] };
    const files: MemoryFile[] = [];
    // The root's own files were read at session start; below it, shallow to deep.
    for (const directory of directoriesDown(root, bottom).slice(1))
      for (const candidate of projectCandidates(directory, "nested"))
        files.push(...(await this.#reader.read(candidate.path, candidate.scope)));
    return this.#found(files, "nested");
  }

  #found(files: readonly MemoryFile[], origin: "session-start" | "nested"): MemoryFound {
    const attachment = memoryAttachment(files, origin);
    const notices = this.#reader.notices.splice(0);
    return attachment ? { attachment, notices } : { notices };
  }
}

function pathOf(input: unknown): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const path = record.file_path ?? record.path;
  return typeof path === "string" && path.length > 0 ? path : undefined;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
