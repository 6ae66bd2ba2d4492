/**
 * How memory files read to the model. Request assembly wraps every attachment in `<system-reminder>`; the
 * text inside names each file with its path and what kind of file it is, as Claude Code does ("Contents of
 * <path> (project instructions, checked into the codebase):"), so a model trained on that layout reads
 * threadline's the same way. The session-start set is one attachment with a short lead; a nested file found
 * later is one attachment of its own. docs/MEMORY.md "What the model sees".
 */
import { type AttachmentEntry, MEMORY_FILE_HEADER, MEMORY_LEAD, type TimelineEntry } from "../messages/index.js";
import {
  MEMORY_ATTACHMENT_TYPE,
  type MemoryAttachmentData,
  type MemoryFile,
  type MemoryFileRecord,
  type MemoryOrigin,
  type MemoryScope,
} from "./memory-types.js";

function label(scope: MemoryScope): string {
  switch (scope) {
    case "user":
      return "user's private global instructions for all projects";
    case "project":
    case "nested":
      return "project instructions, checked into the codebase";
    case "local":
      return "user's private project instructions, not checked in";
    default: {
      const never: never = scope;
      return never;
    }
  }
}

function section(file: MemoryFile): string {
  return `${MEMORY_FILE_HEADER}${file.path} (${label(file.scope)}):\n\n${file.content.trimEnd()}`;
}

function records(files: readonly MemoryFile[]): MemoryFileRecord[] {
  return files.map((file) => ({ path: file.path, scope: file.scope, chars: file.content.length }));
}

/** The attachment for `files` (undefined when there are none); `origin` says why it is recorded. */
export function memoryAttachment(
  files: readonly MemoryFile[],
  origin: Exclude<MemoryOrigin, "reattach">,
): MemoryAttachmentData | undefined {
  if (files.length === 0) return undefined;
  const body = files.map(section).join("\n\n");
  const content = origin === "session-start" ? `${MEMORY_LEAD}\n\n${body}` : body;
  return { content, memoryFiles: records(files), memoryOrigin: origin };
}

/** Whether an entry is a memory attachment. */
export function isMemoryAttachment(entry: TimelineEntry): entry is AttachmentEntry {
  return entry.type === "attachment" && entry.attachment.type === MEMORY_ATTACHMENT_TYPE;
}

function isRecord(value: unknown): value is MemoryFileRecord {
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return typeof record.path === "string" && typeof record.scope === "string" && typeof record.chars === "number";
}

/** The data of a recorded memory attachment (file records that do not parse are left out). */
export function memoryData(entry: AttachmentEntry): MemoryAttachmentData {
  const files = entry.attachment.memoryFiles;
  const origin = entry.attachment.memoryOrigin;
  return {
    content: entry.attachment.content,
    memoryFiles: Array.isArray(files) ? files.filter(isRecord) : [],
    memoryOrigin: origin === "nested" || origin === "reattach" ? origin : "session-start",
  };
}

/** The extra fields `createAttachmentEntry` records beside the content. */
export function attachmentExtra(data: MemoryAttachmentData): Record<string, unknown> {
  return { memoryFiles: data.memoryFiles, memoryOrigin: data.memoryOrigin };
}
