/**
 * Import of Claude Code's own transcripts into threadline entries. The field names are the same; what
 * differs is looser typing (more system subtypes, structured attachment and progress payloads, multi-block
 * assistant records in older versions). Unknown record types are counted, invalid lines reported; nothing
 * is fatal. The result is in file order; pass it to `resumeConversation` to pick the live branch.
 */

import type * as z from "zod";
import type {
  AssistantContentBlock,
  AssistantEntry,
  AttachmentEntry,
  CompactMetadata,
  CustomTitleRecord,
  EntryBase,
  ProgressEntry,
  StopReason,
  SystemEntry,
  SystemSubtype,
  TimelineEntry,
  Usage,
  UserContentBlock,
  UserEntry,
} from "../messages/index.js";
import { checkNever, SYSTEM_SUBTYPES } from "../messages/index.js";
import {
  CLAUDE_CODE_METADATA_TYPES,
  type ClaudeCodeAssistant,
  type ClaudeCodeAttachment,
  type ClaudeCodeProgress,
  type ClaudeCodeSystem,
  type ClaudeCodeUser,
  claudeCodeSchemas,
} from "./claude-code-schema.js";
import { describeSchemaError } from "./entry-schema.js";
import { forEachJsonlLine } from "./jsonl-lines.js";
import { parseJsonLine } from "./load-transcript.js";
import { countInto, type LoadProblem, lineProblem } from "./problems.js";

export interface ImportCounts {
  /** Non-blank lines read. */
  lines: number;
  /** Records turned into entries, by Claude Code record type. */
  imported: Record<string, number>;
  /** Known parentless metadata records skipped (summary, file-history-snapshot, ...), by type. */
  metadata: Record<string, number>;
  /** System subtypes threadline lacks, imported as "informational", by original subtype. */
  remappedSystemSubtypes: Record<string, number>;
  /** Distinct assistant responses (`message.id`): usage repeats on every block of one response. */
  responses: number;
}

export interface ImportResult {
  entries: TimelineEntry[];
  problems: LoadProblem[];
  unknownTypes: Record<string, number>;
  counts: ImportCounts;
}

const THREADLINE_SYSTEM_SUBTYPES: ReadonlySet<string> = new Set<SystemSubtype>(SYSTEM_SUBTYPES);

/** Model name given to assistant records that carry none. */
const UNKNOWN_MODEL = "unknown";

const BLANK_LINE = /^\s*$/;

/** Reads a Claude Code transcript file into threadline timeline entries. */
export async function importClaudeCodeTranscript(path: string): Promise<ImportResult> {
  const entries: TimelineEntry[] = [];
  const problems: LoadProblem[] = [];
  const unknownTypes: Record<string, number> = {};
  const counts: ImportCounts = { lines: 0, imported: {}, metadata: {}, remappedSystemSubtypes: {}, responses: 0 };
  const responseIds = new Set<string>();

  await forEachJsonlLine(path, (line, lineNumber, terminated) => {
    if (BLANK_LINE.test(line)) return;
    counts.lines++;
    const value = parseJsonLine(line);
    if (value instanceof Error) {
      const reason = terminated ? `malformed JSON: ${value.message.slice(0, 160)}` : "torn final line";
      problems.push(lineProblem(lineNumber, reason, line));
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      problems.push(lineProblem(lineNumber, "line is valid JSON but not an object", line));
      return;
    }
    const type = (value as { type?: unknown }).type;
    if (typeof type !== "string") {
      problems.push(lineProblem(lineNumber, "record has no string `type`", line));
      return;
    }
    const conversion = convertRecord(type, value, counts);
    switch (conversion.kind) {
      case "unknown":
        countInto(unknownTypes, type);
        return;
      case "metadata":
        countInto(counts.metadata, type);
        return;
      case "problem":
        problems.push(lineProblem(lineNumber, conversion.reason, line));
        return;
      case "entries":
        countInto(counts.imported, type);
        for (const entry of conversion.entries) {
          entries.push(entry);
          if (entry.type === "assistant") responseIds.add(entry.message.id);
        }
        return;
      default:
        checkNever(conversion);
    }
  });
  counts.responses = responseIds.size;
  return { entries, problems, unknownTypes, counts };
}

/** What one Claude Code record becomes. */
type Conversion =
  | { kind: "entries"; entries: TimelineEntry[] }
  | { kind: "metadata" }
  | { kind: "unknown" }
  | { kind: "problem"; reason: string };

const problem = (reason: string): Conversion => ({ kind: "problem", reason });
const converted = (entries: TimelineEntry[]): Conversion => ({ kind: "entries", entries });

/** `value` checked against `schema`, or the problem naming the record type and the first failing field. */
function parseRecord<T>(
  schema: z.ZodType<T>,
  type: string,
  value: object,
): { ok: true; data: T } | { ok: false; conversion: Conversion } {
  const parsed = schema.safeParse(value);
  if (parsed.success) return { ok: true, data: parsed.data };
  return { ok: false, conversion: problem(`invalid ${type} record: ${describeSchemaError(parsed.error)}`) };
}

function convertRecord(type: string, value: object, counts: ImportCounts): Conversion {
  switch (type) {
    case "user": {
      const parsed = parseRecord(claudeCodeSchemas().user, type, value);
      return parsed.ok ? converted([convertUser(parsed.data)]) : parsed.conversion;
    }
    case "assistant": {
      const parsed = parseRecord(claudeCodeSchemas().assistant, type, value);
      if (!parsed.ok) return parsed.conversion;
      if (parsed.data.message.content.length === 0) return problem("assistant record with no content blocks");
      return converted(convertAssistant(parsed.data));
    }
    case "system": {
      const parsed = parseRecord(claudeCodeSchemas().system, type, value);
      return parsed.ok ? converted([convertSystem(parsed.data, counts)]) : parsed.conversion;
    }
    case "attachment": {
      const parsed = parseRecord(claudeCodeSchemas().attachment, type, value);
      return parsed.ok ? converted([convertAttachment(parsed.data)]) : parsed.conversion;
    }
    case "progress": {
      const parsed = parseRecord(claudeCodeSchemas().progress, type, value);
      return parsed.ok ? converted([convertProgress(parsed.data)]) : parsed.conversion;
    }
    case "custom-title": {
      const parsed = parseRecord(claudeCodeSchemas().customTitle, type, value);
      if (!parsed.ok) return parsed.conversion;
      const record: CustomTitleRecord = {
        type: "custom-title",
        customTitle: parsed.data.customTitle,
        sessionId: parsed.data.sessionId,
      };
      return converted([record]);
    }
    default:
      return CLAUDE_CODE_METADATA_TYPES.has(type) ? { kind: "metadata" } : { kind: "unknown" };
  }
}

type ClaudeCodeMessageBase = Pick<
  ClaudeCodeUser,
  "uuid" | "parentUuid" | "sessionId" | "timestamp" | "isSidechain" | "agentId"
>;

function baseOf(record: ClaudeCodeMessageBase, uuid = record.uuid, parentUuid = record.parentUuid ?? null): EntryBase {
  const base: EntryBase = { uuid, parentUuid, timestamp: record.timestamp, sessionId: record.sessionId };
  if (record.isSidechain) base.isSidechain = true;
  if (record.agentId !== undefined) base.agentId = record.agentId;
  return base;
}

function convertUser(record: ClaudeCodeUser): UserEntry {
  const content = record.message.content as string | UserContentBlock[];
  const entry: UserEntry = { ...baseOf(record), type: "user", message: { role: "user", content } };
  if (record.isMeta) entry.isMeta = true;
  if (record.isCompactSummary) entry.isCompactSummary = true;
  // Claude Code shows these in its transcript view but never sends them: threadline's "virtual".
  if (record.isVisibleInTranscriptOnly) entry.isVirtual = true;
  if (record.sourceToolAssistantUUID !== undefined) entry.sourceToolAssistantUUID = record.sourceToolAssistantUUID;
  if (record.toolUseResult !== undefined) entry.toolUseResult = record.toolUseResult;
  return entry;
}

/**
 * One entry per content block. Current Claude Code already writes one block per record; older versions
 * wrote whole responses. The last block keeps the record's uuid, so children that point at it still do.
 */
function convertAssistant(record: ClaudeCodeAssistant): AssistantEntry[] {
  const blocks = record.message.content as unknown as AssistantContentBlock[];
  const result: AssistantEntry[] = [];
  let parentUuid = record.parentUuid ?? null;
  blocks.forEach((block, index) => {
    const uuid = index === blocks.length - 1 ? record.uuid : `${record.uuid}.block-${index}`;
    const entry: AssistantEntry = {
      ...baseOf(record, uuid, parentUuid),
      type: "assistant",
      message: {
        id: record.message.id,
        type: "message",
        role: "assistant",
        model: record.message.model ?? UNKNOWN_MODEL,
        content: [block],
        stop_reason: (record.message.stop_reason ?? null) as StopReason | null,
      },
    };
    if (record.message.stop_sequence !== undefined) entry.message.stop_sequence = record.message.stop_sequence;
    if (record.message.usage !== undefined) entry.message.usage = record.message.usage as Usage;
    if (record.isApiErrorMessage) entry.isApiErrorMessage = true;
    if (record.requestId !== undefined) entry.requestId = record.requestId;
    result.push(entry);
    parentUuid = uuid;
  });
  return result;
}

function convertSystem(record: ClaudeCodeSystem, counts: ImportCounts): SystemEntry {
  const original = record.subtype ?? "informational";
  let subtype: SystemSubtype = "informational";
  if (THREADLINE_SYSTEM_SUBTYPES.has(original)) subtype = original as SystemSubtype;
  else countInto(counts.remappedSystemSubtypes, original);
  const entry: SystemEntry = { ...baseOf(record), type: "system", subtype, content: record.content ?? "" };
  if (record.level === "info" || record.level === "warning" || record.level === "error") entry.level = record.level;
  if (record.logicalParentUuid !== undefined) entry.logicalParentUuid = record.logicalParentUuid;
  if (subtype === "compact_boundary") entry.compactMetadata = compactMetadataOf(record);
  const microcompact = record.microcompactMetadata;
  if (subtype === "microcompact_boundary" && typeof microcompact === "object" && microcompact !== null) {
    const raw = microcompact as Record<string, unknown>;
    entry.microcompactMetadata = {
      trigger: raw.trigger === "cached" || raw.trigger === "context_management" ? raw.trigger : "time",
      preTokens: numberOr(raw.preTokens, 0),
      tokensSaved: numberOr(raw.tokensSaved, 0),
      compactedToolIds: Array.isArray(raw.compactedToolIds) ? raw.compactedToolIds.map(String) : [],
    };
  }
  return entry;
}

/** Claude Code records no post-compaction size; 0 stands for "not recorded". */
function compactMetadataOf(record: ClaudeCodeSystem): CompactMetadata {
  const trigger = record.compactMetadata?.trigger;
  return {
    trigger: trigger === "manual" || trigger === "reactive" ? trigger : "auto",
    preTokens: record.compactMetadata?.preTokens ?? 0,
    postTokens: numberOr((record.compactMetadata as Record<string, unknown> | undefined)?.postTokens, 0),
  };
}

/** Structured attachment payloads are kept, with `content` as text (JSON when it was not a string). */
function convertAttachment(record: ClaudeCodeAttachment): AttachmentEntry {
  const { type, ...rest } = record.attachment;
  const raw = record.attachment.content;
  const content = typeof raw === "string" ? raw : JSON.stringify(raw ?? null);
  return { ...baseOf(record), type: "attachment", attachment: { ...rest, type, content } };
}

function convertProgress(record: ClaudeCodeProgress): ProgressEntry {
  const data: Record<string, unknown> = { ...(record.data ?? {}) };
  const message = data.message;
  if (typeof message !== "string") {
    if (message !== undefined) data.detail = message;
    data.message = typeof data.type === "string" ? data.type : "progress";
  }
  return {
    ...baseOf(record),
    type: "progress",
    toolUseID: record.toolUseID ?? "",
    data: data as ProgressEntry["data"],
  };
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === "number" && Number.isFinite(value) ? value : fallback;
}
