/**
 * Loading a threadline transcript: every line is parsed and validated on its own, so one torn or
 * malformed line costs that line only. Problems are reported with their line numbers, never thrown.
 */
import { basename } from "node:path";
import type { TimelineEntry } from "../messages/index.js";
import { describeSchemaError, entrySchemas, isKnownEntryType } from "./entry-schema.js";
import {
  HEADERLESS_VERSION,
  headerForLegacyFile,
  migrateRecord,
  type RawRecord,
  TRANSCRIPT_FORMAT_VERSION,
  type TranscriptHeader,
  transcriptHeaderSchema,
} from "./header.js";
import { type ForEachJsonlLineOptions, forEachJsonlLine } from "./jsonl-lines.js";
import { TRANSCRIPT_EXTENSION } from "./paths.js";
import { countInto, type LoadProblem, lineProblem } from "./problems.js";

export interface LoadResult {
  /** The file's header; synthesized (version `HEADERLESS_VERSION`) for files that have none. */
  header: TranscriptHeader;
  /** Format version found in the file before migration (`HEADERLESS_VERSION` when it had no header). */
  sourceVersion: number;
  /** Valid entries in file order, migrated to the current format. */
  entries: TimelineEntry[];
  /** Lines skipped, with why. */
  problems: LoadProblem[];
  /** Records of types this build does not know, counted by type (skipped, not problems). */
  unknownTypes: Record<string, number>;
}

export interface LoadTranscriptOptions {
  /** Progress callback, as in `forEachJsonlLine`. Default: none. */
  onProgress?: ForEachJsonlLineOptions["onProgress"];
}

/** Longest JSON error message kept in a problem reason (V8 quotes part of the input in some messages). */
const MAX_REASON_CHARS = 160;

const BLANK_LINE = /^\s*$/;

/** Reads a transcript file: header, entries, and every skipped line with its reason. */
export async function loadTranscript(path: string, options: LoadTranscriptOptions = {}): Promise<LoadResult> {
  const loader = new TranscriptLineLoader(sessionIdFromPath(path));
  await forEachJsonlLine(
    path,
    (line, lineNumber, terminated) => loader.addLine(line, lineNumber, terminated),
    options.onProgress === undefined ? {} : { onProgress: options.onProgress },
  );
  return loader.result();
}

/**
 * The per-line half of loading, for any source of lines (a file, database rows): each line is parsed and
 * validated on its own; problems are collected with their line numbers.
 */
export class TranscriptLineLoader {
  readonly #entries: TimelineEntry[] = [];
  readonly #problems: LoadProblem[] = [];
  readonly #unknownTypes: Record<string, number> = {};
  #header: TranscriptHeader | undefined;
  #sourceVersion: number | undefined;
  readonly #fallbackSessionId: string;

  /** `fallbackSessionId` names the session when its lines carry no id (a headerless file). */
  constructor(fallbackSessionId: string) {
    this.#fallbackSessionId = fallbackSessionId;
  }

  /** One line, without its LF; `terminated` is false for a final line that had no LF. */
  addLine(line: string, lineNumber: number, terminated = true): void {
    if (BLANK_LINE.test(line)) return;
    const value = parseJsonLine(line);
    if (value instanceof Error) {
      const reason = terminated
        ? `malformed JSON: ${value.message.slice(0, MAX_REASON_CHARS)}`
        : "torn final line: no newline and not valid JSON (the writer stopped mid-line)";
      this.#problems.push(lineProblem(lineNumber, reason, line));
      return;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      this.#problems.push(lineProblem(lineNumber, "line is valid JSON but not an object", line));
      return;
    }
    this.#addRecord(value as RawRecord, lineNumber, line);
  }

  #addRecord(value: RawRecord, lineNumber: number, line: string): void {
    const problems = this.#problems;
    if (value.type === "header") {
      if (this.#sourceVersion !== undefined) {
        problems.push(lineProblem(lineNumber, "header record after the first line", line));
        return;
      }
      const parsed = transcriptHeaderSchema.safeParse(value);
      if (!parsed.success) {
        problems.push(lineProblem(lineNumber, `invalid header: ${describeSchemaError(parsed.error)}`, line));
        return;
      }
      const header = value as unknown as TranscriptHeader;
      this.#header = header;
      this.#sourceVersion = header.version;
      if (header.version > TRANSCRIPT_FORMAT_VERSION) {
        problems.push(
          lineProblem(
            lineNumber,
            `format version ${header.version} is newer than this build's ${TRANSCRIPT_FORMAT_VERSION}; loading what it can`,
            line,
          ),
        );
      }
      return;
    }
    if (this.#sourceVersion === undefined) {
      this.#sourceVersion = HEADERLESS_VERSION;
      this.#header = headerForLegacyFile(value, this.#fallbackSessionId);
    }
    const record = this.#sourceVersion < TRANSCRIPT_FORMAT_VERSION ? migrateRecord(value, this.#sourceVersion) : value;
    const type = record.type;
    if (typeof type !== "string") {
      problems.push(lineProblem(lineNumber, "record has no string `type`", line));
      return;
    }
    if (!isKnownEntryType(type)) {
      countInto(this.#unknownTypes, type);
      return;
    }
    const parsed = entrySchemas()[type].safeParse(record);
    if (!parsed.success) {
      problems.push(lineProblem(lineNumber, `invalid ${type} record: ${describeSchemaError(parsed.error)}`, line));
      return;
    }
    // The validated original is kept (not zod's copy): the schema checked it, and copying 100 MB twice is waste.
    this.#entries.push(record as unknown as TimelineEntry);
  }

  /** Everything loaded so far. */
  result(): LoadResult {
    return {
      header: this.#header ?? headerForLegacyFile(undefined, this.#fallbackSessionId),
      sourceVersion: this.#sourceVersion ?? HEADERLESS_VERSION,
      entries: this.#entries,
      problems: this.#problems,
      unknownTypes: this.#unknownTypes,
    };
  }
}

/** `JSON.parse`, with the failure returned as a value (this runs once per line; no exceptions escape). */
export function parseJsonLine(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

function sessionIdFromPath(path: string): string {
  return basename(path, TRANSCRIPT_EXTENSION);
}
