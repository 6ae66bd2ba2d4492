/**
 * `threadline inspect <transcript.jsonl | session-id>`: tokens, cache hits, cost, cache breaks and compaction
 * savings of one transcript (threadline's or Claude Code's), streamed so a 100 MB file takes seconds and
 * little memory. Problems end in one line on stderr, never a stack trace.
 */
import { stat, writeFile } from "node:fs/promises";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { forEachJsonlLine, storeFromEnv } from "../../transcript/index.js";
import { formatInspectReport, requestsLine } from "./format.js";
import { InspectAccumulator } from "./report.js";
import { resolveTranscript } from "./resolve.js";
import type { InspectReport } from "./types.js";

export { formatInspectReport } from "./format.js";
export { InspectAccumulator, inspectRecords, UNKNOWN_BREAK_CAUSE } from "./report.js";
export type * from "./types.js";

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

const USAGE =
  "usage: threadline inspect [--json] [--html FILE.html] [--what-if] <transcript.jsonl | session-id>\n" +
  "  --json       the report as JSON\n" +
  "  --html FILE  also write the report as one self-contained page (charts, prompts, savings)\n" +
  "  --what-if    what the same conversation would cost with threadline's default policy";

/** The parser's complaint in the command's own words: `--html needs a file name` for a missing value. */
function usageProblem(message: string): string {
  const missing = /^Option '(--[a-z-]+)(?: <value>)?' argument missing/.exec(message);
  if (missing?.[1] === "--html") return "--html needs a file name (e.g. --html report.html)";
  if (missing !== null) return `${missing[1]} needs a value`;
  const unknown = /^Unknown option '([^']+)'/.exec(message);
  if (unknown !== null) return `unknown option ${unknown[1]}`;
  return message;
}

/** Runs the command on the arguments after `inspect`; resolves to the exit code (0 ok, 1 bad file, 2 usage). */
export async function runInspect(argv: string[], io: InspectIo): Promise<number> {
  let parsed: ReturnType<typeof parseInspectArgs>;
  try {
    parsed = parseInspectArgs(argv);
  } catch (error) {
    io.stderr.write(`threadline inspect: ${usageProblem(errorText(error))}\n${USAGE}\n`);
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
      const { inspectStoredSession } = await import("./store.js");
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
    const problem = unusableReason(report);
    if (problem !== null) {
      io.stderr.write(`threadline inspect: ${resolved.path} ${problem}\n`);
      return 1;
    }
    if (parsed.values["what-if"]) {
      const { runWhatIf } = await import("./what-if.js");
      return await runWhatIf(resolved.path, report, { json: parsed.values.json, stdout: io.stdout, stderr: io.stderr });
    }
    if (parsed.values.html !== undefined) {
      const { renderInspectPage } = await import("./html.js");
      await writeFile(parsed.values.html, renderInspectPage(report, resolved.path));
      io.stdout.write(`wrote ${parsed.values.html}: ${requestsLine(report)}, $${report.totals.costUsd.toFixed(4)}\n`);
      return 0;
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

/** Why a report has nothing to show (one line, after the path), or null when it has requests. */
function unusableReason(report: InspectReport): string | null {
  if (report.records === 0 && report.malformedLines.length === 0) return "is empty";
  if (report.records === 0) return "is not a JSONL transcript (no line is a JSON record)";
  if (report.format === "unknown")
    return "is not a threadline or Claude Code transcript (no conversation records in it)";
  if (report.requests.length === 0 && report.refused.requests === 0)
    return "holds no model requests (nothing to price)";
  return null;
}

function parseInspectArgs(argv: string[]) {
  // Accept the subcommand name too, so callers may pass either argv form.
  const args = argv[0] === "inspect" ? argv.slice(1) : argv;
  return parseArgs({
    args,
    options: {
      json: { type: "boolean", default: false },
      html: { type: "string" },
      "what-if": { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
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
