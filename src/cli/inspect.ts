/**
 * `threadline inspect <transcript.jsonl | session-id>`: tokens, cache hits, cost, cache breaks and compaction
 * savings of one transcript (threadline's or Claude Code's), streamed so a 100 MB file takes seconds and
 * little memory. Problems end in one line on stderr, never a stack trace.
 */

import { stat } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { forEachJsonlLine, storeFromEnv } from "../transcript/index.js";
import { formatInspectReport } from "./inspect-format.js";
import { InspectAccumulator } from "./inspect-report.js";
import { resolveTranscript } from "./inspect-resolve.js";
import type { InspectReport } from "./inspect-types.js";

export { formatInspectReport } from "./inspect-format.js";
export { InspectAccumulator, inspectRecords, UNKNOWN_BREAK_CAUSE } from "./inspect-report.js";
export type * from "./inspect-types.js";

/** Minimum time between two progress updates on a terminal. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 100;

export interface InspectIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Whether stderr is a terminal (progress is shown only then). */
  isTTY: boolean;
  /** Environment for THREADLINE_HOME and HOME. Defaults to `process.env`. */
  env?: NodeJS.ProcessEnv;
}

const USAGE = "usage: threadline inspect [--json] <transcript.jsonl | session-id>";

/** Runs the command on the arguments after `inspect`; resolves to the exit code (0 ok, 1 bad file, 2 usage). */
export async function runInspect(argv: string[], io: InspectIo): Promise<number> {
  let parsed: ReturnType<typeof parseInspectArgs>;
  try {
    parsed = parseInspectArgs(argv);
  } catch (error) {
    io.stderr.write(`threadline inspect: ${errorText(error)}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help) {
    io.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const [argument, ...extra] = parsed.positionals;
  if (argument === undefined || extra.length > 0) {
    io.stderr.write(`${USAGE}\n`);
    return 2;
  }
  try {
    const location = storeFromEnv(io.env ?? process.env);
    if (location.kind === "postgres" && !(await isFile(argument))) {
      const { inspectStoredSession } = await import("./inspect-store.js");
      const { report, name } = await inspectStoredSession(location.url, argument);
      io.stdout.write(parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatInspectReport(report, name));
      return 0;
    }
    const resolved = await resolveTranscript(argument, io.env ?? process.env);
    if (!resolved.ok) {
      io.stderr.write(`threadline inspect: ${resolved.error}\n`);
      return 1;
    }
    const report = await inspectFile(resolved.path, io);
    if (report.records === 0 && report.malformedLines.length > 0) {
      io.stderr.write(`threadline inspect: ${resolved.path} is not a JSONL transcript (no line is a JSON record)\n`);
      return 1;
    }
    io.stdout.write(
      parsed.values.json ? `${JSON.stringify(report, null, 2)}\n` : formatInspectReport(report, resolved.path),
    );
    return 0;
  } catch (error) {
    io.stderr.write(`threadline inspect: ${errorText(error)}\n`);
    return 1;
  }
}

function parseInspectArgs(argv: string[]) {
  // Accept the subcommand name too, so callers may pass either argv form.
  const args = argv[0] === "inspect" ? argv.slice(1) : argv;
  return parseArgs({
    args,
    options: { json: { type: "boolean", default: false }, help: { type: "boolean", short: "h", default: false } },
    allowPositionals: true,
    strict: true,
  });
}

/** Streams the file through the accumulator, with a progress line on stderr when it is a terminal. */
export async function inspectFile(path: string, io: Pick<InspectIo, "stderr" | "isTTY">): Promise<InspectReport> {
  const accumulator = new InspectAccumulator();
  const name = basename(path);
  let lastProgressAt = 0;
  let shownProgress = false;
  const onProgress = (bytesRead: number, totalBytes: number) => {
    const now = Date.now();
    if (!io.isTTY || now - lastProgressAt < DEFAULT_PROGRESS_INTERVAL_MS) return;
    lastProgressAt = now;
    shownProgress = true;
    const percent = totalBytes === 0 ? 100 : Math.floor((bytesRead / totalBytes) * 100);
    io.stderr.write(`\rreading ${name}: ${percent}% (${megabytes(bytesRead)} / ${megabytes(totalBytes)} MB)`);
  };
  await forEachJsonlLine(
    path,
    (line, lineNumber, terminated) => {
      if (line.trim() === "") return;
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (error) {
        accumulator.addMalformed(lineNumber, terminated ? errorText(error) : "torn last line (no newline, not JSON)");
        return;
      }
      accumulator.add(value, lineNumber);
    },
    { onProgress },
  );
  // Erase the progress line so the report starts on a clean line.
  if (shownProgress) io.stderr.write("\r\x1b[K");
  return accumulator.finish();
}

async function isFile(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isFile() ?? false;
}

function megabytes(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}

function errorText(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const path = (error as NodeJS.ErrnoException).path;
    if (code === "ENOENT" && path !== undefined) return `no such file: ${path}`;
    if (code === "EACCES" && path !== undefined) return `permission denied: ${path}`;
    if (code === "EISDIR") return `is a directory${path === undefined ? "" : `: ${path}`}`;
    return error.message.split("\n")[0] ?? error.message;
  }
  return String(error);
}
