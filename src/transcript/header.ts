/**
 * The transcript header (the first line of every file) and the migrations that bring older files to the
 * current format. Loading never guesses silently: a file without a header, or with an older version, goes
 * through `migrateRecord` one version step at a time.
 */
import * as z from "zod";

/** Format version written by this build. */
export const TRANSCRIPT_FORMAT_VERSION = 1;

/** Value of `generator` in headers written by threadline. */
export const TRANSCRIPT_GENERATOR = "threadline";

/** Version assigned to files that have no header line (written before headers existed). */
export const HEADERLESS_VERSION = 0;

export interface TranscriptHeader {
  type: "header";
  version: number;
  sessionId: string;
  cwd: string;
  /** ISO-8601 time the file was created. */
  createdAt: string;
  generator: string;
}

export const transcriptHeaderSchema = z.looseObject({
  type: z.literal("header"),
  version: z.number().int().nonnegative(),
  sessionId: z.string(),
  cwd: z.string(),
  createdAt: z.string(),
  generator: z.string(),
});

/** The header for a new file. `now` defaults to the current time. */
export function createHeader(sessionId: string, cwd: string, now: Date = new Date()): TranscriptHeader {
  return {
    type: "header",
    version: TRANSCRIPT_FORMAT_VERSION,
    sessionId,
    cwd,
    createdAt: now.toISOString(),
    generator: TRANSCRIPT_GENERATOR,
  };
}

/** One raw JSON record from a line, before schema validation. */
export type RawRecord = Record<string, unknown>;

/**
 * Migration steps: `MIGRATIONS[n]` turns a version-n record into a version-(n+1) record.
 * v0 → v1: headerless files already used today's entry shapes; only the header is new (see `headerForLegacyFile`).
 */
const MIGRATIONS: ReadonlyArray<(record: RawRecord) => RawRecord> = [(record) => record];

/** Brings one record from `fromVersion` to `TRANSCRIPT_FORMAT_VERSION`. */
export function migrateRecord(record: RawRecord, fromVersion: number): RawRecord {
  let current = record;
  for (let version = fromVersion; version < TRANSCRIPT_FORMAT_VERSION; version++) {
    const step = MIGRATIONS[version];
    if (step === undefined) throw new Error(`no transcript migration from version ${version}`);
    current = step(current);
  }
  return current;
}

/** A header for a file that had none, built from its first record (session id and cwd when present). */
export function headerForLegacyFile(firstRecord: RawRecord | undefined, fallbackSessionId: string): TranscriptHeader {
  const sessionId = typeof firstRecord?.sessionId === "string" ? firstRecord.sessionId : fallbackSessionId;
  const cwd = typeof firstRecord?.cwd === "string" ? firstRecord.cwd : "";
  const timestamp = typeof firstRecord?.timestamp === "string" ? firstRecord.timestamp : new Date(0).toISOString();
  return {
    type: "header",
    version: HEADERLESS_VERSION,
    sessionId,
    cwd,
    createdAt: timestamp,
    generator: "unknown",
  };
}
