/**
 * Crash and resume: run a session in a child process, SIGKILL it at a chosen moment (while streaming, while a
 * tool runs, right after an entry is handed to the transcript, or at a random time), then check that the
 * transcript loads, resumes and yields a contract-valid next request, and count the entries lost.
 * Shared by the `npm test` suite (a few kills) and `bench/crash.ts` (the full 50).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdir, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TurnObject } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import {
  LEASE_SECONDS_ENV,
  type LoadResult,
  loadTranscript,
  PgSessionDatabase,
  SessionLeasedError,
} from "../../src/transcript/index.js";
import { makeTempDir } from "../temp-dir.js";

/** Where a kill is aimed: the marker the child prints just before that moment. */
export type KillMoment = "streaming" | "tool" | "flush" | "random";

export const KILL_MOMENTS: readonly KillMoment[] = ["streaming", "tool", "flush", "random"];

/** Tool steps of the child's session. */
export const DEFAULT_CRASH_TOOL_STEPS = 6;

/** Longest a child may run before it is killed anyway (a hang is a failure, reported as such). */
export const DEFAULT_CHILD_DEADLINE_MS = 60_000;

const CHILD_SCRIPT = fileURLToPath(new URL("./fixtures/child-session.ts", import.meta.url));

export interface CrashRunReport {
  moment: KillMoment;
  /** The last marker the child printed before it died. */
  lastMarker: string;
  /** The child finished before the kill landed. */
  finishedBeforeKill: boolean;
  /** Entries handed to the transcript before the kill. */
  appended: number;
  /** Entries the store acknowledged as committed before the kill (database store; file writes are synchronous). */
  acknowledged: number;
  onDisk: number;
  /** Appended entries missing from disk. */
  lost: number;
  /** Problems the loader reported (a torn last line at most). */
  loadProblems: string[];
  /** What is wrong with the log itself: out-of-order, duplicated or unknown entries. */
  orderProblems: string[];
  /** The resumed session's next request: HTTP status and contract violations. */
  resumeStatus: number | undefined;
  resumeViolations: string[];
  resumeReason: string;
  /** Empty when everything held. */
  failures: string[];
}

/** The child's script: long texts (many deltas), a slow Bash step, reads and writes. */
export function crashScenario(toolSteps: number): TurnObject[] {
  const turns: TurnObject[] = [];
  const filler = "The quick brown fox jumps over the lazy dog. ".repeat(20);
  for (let step = 1; step <= toolSteps; step++) {
    const text = { type: "text" as const, text: `Step ${step}. ${filler}` };
    if (step % 3 === 1)
      turns.push({
        content: [text, { type: "tool_use", name: "Bash", input: { command: `sleep 0.2; echo ${step}` } }],
      });
    else if (step % 3 === 2)
      turns.push({ content: [text, { type: "tool_use", name: "Read", input: { file_path: "notes.txt" } }] });
    else
      turns.push({
        content: [text, { type: "tool_use", name: "Write", input: { file_path: `out-${step}.txt`, content: filler } }],
      });
  }
  turns.push({ content: [{ type: "text", text: `All ${toolSteps} steps done.` }] });
  return turns;
}

export interface CrashRunOptions {
  moment: KillMoment;
  /** Seeded choice of which occurrence of the marker and how long after it to kill. */
  random: () => number;
  toolSteps?: number;
  /** A postgres:// URL: the child writes there instead of a file, and resume goes through the lease. */
  storeUrl?: string;
}

/** Lease term of a crash child in the database store: short, so the audit can take the session over. */
const CHILD_LEASE_SECONDS = "1";

/** Runs one child, kills it, audits what it left. */
export async function runCrash(options: CrashRunOptions): Promise<CrashRunReport> {
  const directory = await makeTempDir("crash");
  const workspace = join(directory, "workspace");
  await mkdir(workspace);
  await writeFile(join(workspace, "notes.txt"), "some notes\n".repeat(50));
  const path = join(directory, "session.jsonl");
  const sessionId = `crash-${randomUUID()}`;
  const emulator = await startEmulator({ scenario: crashScenario(options.toolSteps ?? DEFAULT_CRASH_TOOL_STEPS) });
  try {
    const run = await runAndKill(workspace, path, emulator.url, options, sessionId);
    const target: AuditTarget =
      options.storeUrl === undefined ? { kind: "file", path } : { kind: "postgres", url: options.storeUrl, sessionId };
    const report = await auditCrash(target, workspace, run, options.moment);
    return report;
  } finally {
    await emulator.close();
    await rm(directory, { recursive: true, force: true });
  }
}

interface ChildRun {
  appended: string[];
  acknowledged: number;
  lastMarker: string;
  finishedBeforeKill: boolean;
  stderr: string;
}

function markerKind(line: string): KillMoment | "done" | undefined {
  if (line.startsWith("STREAM")) return "streaming";
  if (line.startsWith("TOOL ")) return "tool";
  if (line.startsWith("APPEND ")) return "flush";
  if (line === "DONE") return "done";
  return undefined;
}

async function runAndKill(
  workspace: string,
  path: string,
  url: string,
  options: CrashRunOptions,
  sessionId: string,
): Promise<ChildRun> {
  const env: NodeJS.ProcessEnv = { ...process.env, THREADLINE_CRASH_EMULATOR_URL: url };
  if (options.storeUrl !== undefined) {
    env.THREADLINE_CRASH_STORE = options.storeUrl;
    env[LEASE_SECONDS_ENV] = CHILD_LEASE_SECONDS;
  }
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", CHILD_SCRIPT, workspace, path, sessionId], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const run: ChildRun = { appended: [], acknowledged: 0, lastMarker: "(none)", finishedBeforeKill: false, stderr: "" };
  // Which occurrence of the marker to strike at, and a small delay so the kill lands somewhere inside the moment.
  const occurrence = 1 + Math.floor(options.random() * (options.moment === "streaming" ? 40 : 6));
  const delayMs = options.moment === "random" ? Math.floor(options.random() * 1500) : Math.floor(options.random() * 4);
  let seen = 0;
  let armed = false;
  const kill = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  const deadline = setTimeout(kill, DEFAULT_CHILD_DEADLINE_MS);
  let buffered = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (line.startsWith("ACK ")) run.acknowledged = Number(line.slice("ACK ".length));
      const kind = markerKind(line);
      if (kind === undefined) continue;
      if (line.startsWith("APPEND ")) run.appended.push(line.slice("APPEND ".length));
      if (kind === "done") {
        run.finishedBeforeKill = true;
        continue;
      }
      run.lastMarker = line.split(" ")[0] ?? line;
      // "random" counts from the first entry, so the child is past start-up.
      const matches = options.moment === "random" ? kind === "flush" : kind === options.moment;
      if (!matches || armed) continue;
      seen++;
      if (options.moment === "random" || seen >= occurrence) {
        armed = true;
        if (delayMs === 0) kill();
        else setTimeout(kill, delayMs);
      }
    }
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    run.stderr += chunk.toString("utf8");
  });
  await new Promise<void>((resolve) => child.on("close", () => resolve()));
  clearTimeout(deadline);
  if (child.signalCode !== "SIGKILL" && child.exitCode !== 0) {
    throw new Error(`crash child exited with ${child.exitCode}: ${run.stderr.slice(0, 2000)}`);
  }
  return run;
}

type AuditTarget = { kind: "file"; path: string } | { kind: "postgres"; url: string; sessionId: string };

/** What the store holds for the crashed session; undefined when it holds nothing (no file, no session row). */
async function loadTarget(target: AuditTarget): Promise<LoadResult | undefined> {
  if (target.kind === "file") {
    const exists = await stat(target.path).then(
      () => true,
      () => false,
    );
    return exists ? loadTranscript(target.path) : undefined;
  }
  const database = await PgSessionDatabase.connect(target.url);
  try {
    return (await database.loadSession(target.sessionId))?.result;
  } finally {
    await database.close();
  }
}

async function auditCrash(
  target: AuditTarget,
  workspace: string,
  run: ChildRun,
  moment: KillMoment,
): Promise<CrashRunReport> {
  const failures: string[] = [];
  const report: CrashRunReport = {
    moment,
    lastMarker: run.lastMarker,
    finishedBeforeKill: run.finishedBeforeKill,
    appended: run.appended.length,
    acknowledged: run.acknowledged,
    onDisk: 0,
    lost: 0,
    loadProblems: [],
    orderProblems: [],
    resumeStatus: undefined,
    resumeViolations: [],
    resumeReason: "not run",
    failures,
  };
  const loaded = await loadTarget(target);
  if (loaded === undefined) {
    if (run.appended.length > 0) failures.push("transcript missing although entries were appended");
    return report;
  }
  const onDisk = loaded.entries.flatMap((entry) => ("uuid" in entry ? [entry.uuid] : []));
  report.onDisk = onDisk.length;
  report.loadProblems = loaded.problems.map((problem) => `line ${problem.line}: ${problem.reason}`);
  const tornOnly = loaded.problems.every((problem) => problem.reason.startsWith("torn final line"));
  if (!tornOnly || loaded.problems.length > 1) failures.push(`load problems: ${report.loadProblems.join("; ")}`);
  // What is on disk must be exactly a prefix of what was appended: nothing reordered, repeated or invented.
  for (let index = 0; index < onDisk.length; index++) {
    if (onDisk[index] !== run.appended[index]) {
      report.orderProblems.push(`entry ${index}: disk has ${onDisk[index]}, appended ${run.appended[index]}`);
      break;
    }
  }
  report.lost = run.appended.filter((uuid) => !onDisk.includes(uuid)).length;
  if (report.orderProblems.length > 0) failures.push(...report.orderProblems);
  // Nothing acknowledged may be missing: the store said it was committed.
  if (onDisk.length < run.acknowledged) {
    failures.push(`${run.acknowledged} entries acknowledged, only ${onDisk.length} stored`);
  }
  await resumeAndContinue(target, workspace, report);
  return report;
}

/** Resumes into a fresh emulator and sends one more message; the request must be served and contract-valid. */
async function resumeAndContinue(target: AuditTarget, workspace: string, report: CrashRunReport): Promise<void> {
  const emulator = await startEmulator({ scenario: ["Resumed after the crash."] });
  try {
    const provider = new AnthropicProvider({
      baseURL: emulator.url,
      apiKey: "test-key-not-secret",
      sleep: async () => {},
    });
    const common = { cwd: workspace, provider, permission: { mode: "bypassPermissions" as const } };
    // The database store resumes for real: the dead child's lease must lapse first, then it is taken over.
    const { engine } =
      target.kind === "file"
        ? await QueryEngine.resume(target.path, { ...common, transcript: false })
        : await resumeWhenFree(() => QueryEngine.resume(target.sessionId, { ...common, store: target.url }));
    for await (const event of engine.submitMessage("Continue where you left off.")) {
      if (event.type === "turn_end")
        report.resumeReason = event.error ? `${event.reason}: ${event.error}` : event.reason;
    }
    await engine.close();
    const first = emulator.requests.find((record) => record.path === "/v1/messages");
    report.resumeStatus = first?.status;
    report.resumeViolations = emulator.requests.flatMap((record) => record.violations.map((v) => v.message));
  } catch (error) {
    report.resumeReason = `threw: ${error instanceof Error ? error.message : String(error)}`;
  } finally {
    await emulator.close();
  }
  if (report.resumeStatus !== 200) report.failures.push(`resumed request status ${report.resumeStatus}`);
  if (report.resumeViolations.length > 0)
    report.failures.push(`resume violations: ${report.resumeViolations.join("; ")}`);
  if (report.resumeReason !== "completed") report.failures.push(`resumed turn: ${report.resumeReason}`);
}

/** Retries a resume refused because the session is in use, until the dead holder's lease lapses. */
async function resumeWhenFree<T>(resume: () => Promise<T>, deadlineMs = 10_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      return await resume();
    } catch (error) {
      if (!(error instanceof SessionLeasedError) || Date.now() - started > deadlineMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
