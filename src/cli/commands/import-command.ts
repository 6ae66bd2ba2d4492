/**
 * `threadline import FILE [--project KEY]`: a JSONL transcript into the store `THREADLINE_STORE` names, as a
 * new session (its id from the file's header). Every line that is a JSON object is kept verbatim, so
 * exporting it again gives the same bytes; a line that is not (a torn tail, garbage) is skipped and named on
 * stderr. All or nothing: an id already in the store imports nothing.
 */
import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { SessionManager } from "../../sessions/index.js";
import {
  cwdSlug,
  forEachJsonlLine,
  headerForLegacyFile,
  parseJsonLine,
  type RawRecord,
  StoreError,
  type TranscriptHeader,
  transcriptHeaderSchema,
} from "../../transcript/index.js";
import { projectKey, UsageError } from "../args.js";
import type { CliIo } from "../io.js";
import { CliError, connectStore } from "../session-flags.js";

const USAGE = "usage: threadline import <file.jsonl> [--project <key>]";

export interface ParsedTranscriptFile {
  /** The header line as written (synthesized for a file that had none). */
  headerLine: string;
  header: TranscriptHeader;
  /** Every other line that is a JSON object, verbatim, in file order. */
  records: string[];
  /** Lines left out, with why (1-based line numbers). */
  skipped: string[];
}

/** Reads a transcript for import: header, records kept verbatim, and the lines that are not records. */
async function readTranscriptForImport(path: string): Promise<ParsedTranscriptFile> {
  let headerLine: string | undefined;
  let header: TranscriptHeader | undefined;
  let firstRecord: RawRecord | undefined;
  const records: string[] = [];
  const skipped: string[] = [];
  await forEachJsonlLine(path, (line, lineNumber, terminated) => {
    if (line.trim() === "") return;
    const value = parseJsonLine(line);
    if (value instanceof Error || value === null || typeof value !== "object" || Array.isArray(value)) {
      skipped.push(
        `line ${lineNumber} skipped: ${terminated ? "not a JSON object" : "torn final line (no newline, not JSON)"}`,
      );
      return;
    }
    const record = value as RawRecord;
    if (record.type === "header") {
      if (headerLine === undefined && records.length === 0 && transcriptHeaderSchema.safeParse(record).success) {
        headerLine = line;
        header = record as unknown as TranscriptHeader;
      } else {
        skipped.push(`line ${lineNumber} skipped: a header that is not the file's first record`);
      }
      return;
    }
    firstRecord ??= record;
    records.push(line);
  });
  if (header === undefined || headerLine === undefined) {
    // A file written before headers existed: the header its loader would synthesize is stored with it.
    header = headerForLegacyFile(firstRecord, randomUUID());
    headerLine = JSON.stringify(header);
  }
  return { headerLine, header, records, skipped };
}

/** Runs the command on the arguments after `import`; resolves to the exit code. */
export async function runImportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseStrict(argv);
  const [path, ...extra] = positionals;
  if (path === undefined || extra.length > 0) throw new UsageError(USAGE);
  if (!existsSync(path)) throw new CliError(`no such file: ${path}`);
  const file = await readTranscriptForImport(path);
  const { sessionId, cwd } = file.header;
  const project = values.project === undefined ? cwdSlug(cwd) : projectKey(values.project);
  if (file.records.length === 0 && file.skipped.length > 0) {
    throw new CliError(`${path} is not a JSONL transcript (no line is a JSON record); nothing imported`);
  }
  const manager = new SessionManager({ cwd, project, env: io.env });
  const location = manager.place.store;
  let where: string;
  if (location.kind === "postgres") {
    const database = await connectStore(location.url);
    try {
      await database.importSession(
        { sessionId, project, cwd, createdAt: validDate(file.header.createdAt), header: file.headerLine },
        file.records,
      );
      where = `PostgreSQL at ${database.display}`;
    } catch (error) {
      if (error instanceof StoreError) throw new CliError(error.message);
      throw error;
    } finally {
      await database.close();
    }
  } else {
    const target = manager.fileOf(sessionId);
    if (existsSync(target)) throw new CliError(`session ${sessionId} already exists at ${target}; nothing imported`);
    await mkdir(dirname(target), { recursive: true });
    // Written beside the target and renamed: a reader never sees half a transcript.
    const temporary = `${target}.import-${process.pid}`;
    await writeFile(temporary, `${[file.headerLine, ...file.records].join("\n")}\n`, { flag: "wx" });
    await rename(temporary, target);
    where = target;
  }
  for (const line of file.skipped) io.stderr.write(`threadline import: ${path}: ${line}\n`);
  io.stderr.write(
    `threadline import: session ${sessionId}: ${file.records.length} records into ${where} (project ${project})` +
      `${file.skipped.length > 0 ? `; ${file.skipped.length} lines skipped` : ""}\n`,
  );
  io.stdout.write(`${sessionId}\n`);
  return 0;
}

function validDate(text: string): Date {
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? new Date() : date;
}

function parseStrict(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { project: { type: "string" } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)}; ${USAGE}`);
  }
}
