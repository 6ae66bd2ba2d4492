/**
 * The vocabulary of memory files: where a file came from, what was loaded, and the attachment type that
 * carries them in the timeline. See docs/MEMORY.md for the order and precedence.
 */

/** Attachment type of every memory attachment (session start, nested, re-attached). */
export const MEMORY_ATTACHMENT_TYPE = "memory";

/**
 * Where a memory file sits: the user's own (`~/.claude/`, threadline's home), the project's (checked in),
 * the person's private project file (`CLAUDE.local.md`), or a nested file found when a tool touched its subtree.
 */
export type MemoryScope = "user" | "project" | "local" | "nested";

/** Why a memory attachment was recorded. */
export type MemoryOrigin = "session-start" | "nested" | "reattach";

/** One loaded memory file, as it is sent. */
export interface MemoryFile {
  /** Absolute path, as written in the "Contents of" header. */
  path: string;
  scope: MemoryScope;
  /** The text sent (after the size cap). */
  content: string;
  /** The file whose `@path` line imported this one, when imported. */
  importedBy?: string;
}

/** What an attachment records about each file it carries (kept in the transcript, read by `/memory`). */
export interface MemoryFileRecord {
  path: string;
  scope: MemoryScope;
  chars: number;
}

/** The payload of one memory attachment: its text and the files it holds. */
export interface MemoryAttachmentData {
  content: string;
  memoryFiles: MemoryFileRecord[];
  memoryOrigin: MemoryOrigin;
}
