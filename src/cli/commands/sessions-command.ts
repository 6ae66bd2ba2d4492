/**
 * `threadline sessions [--project KEY] [--limit N] [--json]`: the sessions of the store `THREADLINE_STORE`
 * names (JSONL files by default), most recently active first, with project, last activity, size and holder.
 */
import { parseArgs } from "node:util";
import type { StoredSessionSummary } from "../../transcript/index.js";
import { projectKey, UsageError } from "../args.js";
import type { CliIo } from "../io.js";
import { withSessionManager } from "../session-flags.js";

/** Sessions listed when `--limit` is not given. */
export const DEFAULT_SESSIONS_LIMIT = 50;

const USAGE = "usage: threadline sessions [--project <key>] [--limit <n>] [--json]";

/** Runs the command on the arguments after `sessions`; resolves to the exit code. */
export async function runSessionsCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseStrict(argv);
  const limit = values.limit === undefined ? DEFAULT_SESSIONS_LIMIT : positive(values.limit);
  const project = values.project === undefined ? undefined : projectKey(values.project);
  const sessions = await withSessionManager({ env: io.env }, (manager) =>
    manager.list({ limit, ...(project !== undefined ? { project } : {}) }),
  );
  if (values.json === true) {
    io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
    return 0;
  }
  io.stdout.write(formatSessionsTable(sessions));
  return 0;
}

/** The table: one line per session; "-" where there is no holder. */
function formatSessionsTable(sessions: readonly StoredSessionSummary[]): string {
  const rows = [
    ["SESSION", "PROJECT", "LAST ACTIVITY", "ENTRIES", "SIZE", "HOLDER"],
    ...sessions.map((session) => [
      session.sessionId,
      session.project,
      session.lastActivity.toISOString().replace(/\.\d{3}Z$/, "Z"),
      String(session.entries),
      formatBytes(session.bytes),
      session.holder ?? "-",
    ]),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, column) =>
        column === 3 || column === 4 ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!),
      )
      .join("  ")
      .trimEnd(),
  );
  if (sessions.length === 0) lines.push("(no sessions)");
  return `${lines.join("\n")}\n`;
}

function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

function parseStrict(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: { project: { type: "string" }, limit: { type: "string" }, json: { type: "boolean" } },
      allowPositionals: false,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error)}; ${USAGE}`);
  }
}

function positive(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) <= 0)
    throw new UsageError(`--limit must be a positive integer, got "${value}"`);
  return Number(value);
}
