/**
 * One fault-soak session: a scripted tool session (Read, Grep, Glob, Bash, Write, Edit) against the emulator
 * with a seeded share of requests failing, then an audit of what landed on disk against the scenario.
 * Shared by the `npm test` suite (few sessions) and `bench/soak.ts` (the full 50).
 */
import { appendFile, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { TurnObject } from "@threadline/emulator";
import { type FaultKind, startEmulator } from "@threadline/emulator";
import { QueryEngine } from "../../src/engine/query-engine.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import { loadTranscript } from "../../src/transcript/index.js";
import { makeTempDir } from "../temp-dir.js";

/** Share of `POST /v1/messages` requests that fail. */
export const DEFAULT_FAULT_RATE = 0.2;
/** Tool steps per session (the issue asks for 20 or more). */
export const DEFAULT_TOOL_STEPS = 20;
/** The fault kinds of the soak: 429 with retry-after, 529, 500, mid-stream cut, error event after 200. */
export const SOAK_FAULT_KINDS: FaultKind[] = [
  "rate_limit",
  "overloaded",
  "server_error",
  "connection_cut",
  "stream_error",
];

/** A fake key shaped like a real one, distinctive enough to grep for in every artifact. */
export function fakeSecretKey(seed: number): string {
  return `sk-ant-test-SECRET-${seed.toString(16).padStart(8, "0")}-do-not-log`;
}

/** The marker every artifact is grepped for (survives redaction of the `sk-ant-` prefix only if leaked raw). */
export const SECRET_MARKER = "SECRET-";

export interface SoakSessionOptions {
  /** Seed of the fault plan and emulator ids. */
  seed: number;
  /** Default DEFAULT_TOOL_STEPS. */
  toolSteps?: number;
  /** Default DEFAULT_FAULT_RATE. */
  faultRate?: number;
  /** Keep the artifact directory (default false: removed after the audit). */
  keep?: boolean;
}

export interface SoakSessionReport {
  seed: number;
  completed: boolean;
  terminalReason: string;
  terminalError: string | undefined;
  messagesRequests: number;
  faultsInjected: number;
  /** Requests whose record carries at least one contract violation. */
  invalidRequests: number;
  /** Scenario steps the emulator never served. */
  stepsRemaining: number;
  /** Transcript audit against the scenario; empty when everything is exactly once and in order. */
  auditProblems: string[];
  /** Artifact files (transcripts, emulator log, event log) that contain the fake key or its marker. */
  secretLeaks: string[];
  toolCalls: number;
  entriesOnDisk: number;
  artifacts: string;
}

/** The scripted turns: each says which step it is and calls one or two tools; the last one ends the turn. */
export function soakScenario(toolSteps: number): TurnObject[] {
  const turns: TurnObject[] = [];
  for (let step = 1; step <= toolSteps; step++) {
    const text = { type: "text" as const, text: `Step ${step}: working.` };
    const note = `notes/step-${step}.txt`;
    switch (step % 6) {
      case 1:
        turns.push({
          content: [
            text,
            { type: "tool_use", name: "Read", input: { file_path: "greet.ts" } },
            { type: "tool_use", name: "Grep", input: { pattern: "Helo", output_mode: "content" } },
          ],
        });
        break;
      case 2:
        turns.push({ content: [text, { type: "tool_use", name: "Glob", input: { pattern: "**/*.ts" } }] });
        break;
      case 3:
        turns.push({ content: [text, { type: "tool_use", name: "Bash", input: { command: `echo step-${step}` } }] });
        break;
      case 4:
        turns.push({
          content: [text, { type: "tool_use", name: "Write", input: { file_path: note, content: `value ${step}\n` } }],
        });
        break;
      case 5: {
        const previous = `notes/step-${step - 1}.txt`;
        turns.push({
          content: [
            text,
            {
              type: "tool_use",
              name: "Edit",
              input: { file_path: previous, old_string: `value ${step - 1}`, new_string: `done ${step - 1}` },
            },
          ],
        });
        break;
      }
      default:
        turns.push({ content: [text, { type: "tool_use", name: "Read", input: { file_path: "README.md" } }] });
    }
  }
  turns.push({ content: [{ type: "text", text: "Soak session finished." }] });
  return turns;
}

/** Runs one session and audits it. Never throws for a session failure: the report says what went wrong. */
export async function runSoakSession(options: SoakSessionOptions): Promise<SoakSessionReport> {
  const toolSteps = options.toolSteps ?? DEFAULT_TOOL_STEPS;
  const artifacts = await makeTempDir("soak");
  const workspace = join(artifacts, "workspace");
  const home = join(artifacts, "home");
  const eventLog = join(artifacts, "events.log");
  await mkdir(workspace, { recursive: true });
  await writeFile(join(workspace, "greet.ts"), 'export function greet(name: string) {\n  return "Helo, " + name;\n}\n');
  await writeFile(join(workspace, "README.md"), "# sample\nA tiny project.\n");
  const apiKey = fakeSecretKey(options.seed);
  const scenario = soakScenario(toolSteps);
  const emulator = await startEmulator({
    scenario,
    faults: [{ rate: options.faultRate ?? DEFAULT_FAULT_RATE, kinds: SOAK_FAULT_KINDS, seed: options.seed }],
    retryAfterSeconds: 1,
    apiKey,
    seed: options.seed,
    logPath: join(artifacts, "emulator.jsonl"),
  });
  // Instant backoff keeps the soak fast; the retry-after header is still sent and parsed.
  const provider = new AnthropicProvider({
    baseURL: emulator.url,
    apiKey,
    sleep: async () => {},
    fallbackModel: "claude-haiku-4-5",
  });
  const engine = new QueryEngine({ cwd: workspace, home, provider, permission: { mode: "bypassPermissions" } });
  let terminalReason = "none";
  let terminalError: string | undefined;
  try {
    for await (const event of engine.submitMessage("Run the soak script.")) {
      // Everything a person or a log would see of failures goes to the event log, which is grepped for the key.
      if (event.type === "notice") await appendFile(eventLog, `${event.level}: ${event.message}\n`);
      if (event.type === "tool_end" && event.isError) await appendFile(eventLog, `tool error ${event.block.name}\n`);
      if (event.type === "turn_end") {
        terminalReason = event.reason;
        terminalError = event.error;
        await appendFile(eventLog, `turn_end ${event.reason} ${event.error ?? ""}\n`);
      }
    }
  } catch (error) {
    terminalReason = "threw";
    terminalError = error instanceof Error ? `${error.name}: ${error.message}\n${error.stack}` : String(error);
    await appendFile(eventLog, `thrown ${terminalError}\n`);
  } finally {
    await engine.close();
    await emulator.close();
  }
  const stats = emulator.stats();
  const path = engine.transcriptPath;
  const loaded = path === undefined ? undefined : await loadTranscript(path);
  const auditProblems = loaded === undefined ? ["no transcript path"] : auditTranscript(loaded.entries, scenario);
  if (loaded !== undefined && loaded.problems.length > 0)
    auditProblems.push(...loaded.problems.map((problem) => `line ${problem.line}: ${problem.reason}`));
  const report: SoakSessionReport = {
    seed: options.seed,
    completed: terminalReason === "completed",
    terminalReason,
    terminalError,
    messagesRequests: stats.messagesRequests,
    faultsInjected: stats.faults,
    invalidRequests: emulator.requests.filter((record) => record.violations.length > 0).length,
    stepsRemaining: stats.stepsRemaining,
    auditProblems,
    secretLeaks: await filesContaining(artifacts, [apiKey, SECRET_MARKER], workspace),
    toolCalls: scenario.reduce((sum, turn) => sum + turn.content.filter((b) => b.type === "tool_use").length, 0),
    entriesOnDisk: loaded?.entries.length ?? 0,
    artifacts,
  };
  if (!options.keep) await rm(artifacts, { recursive: true, force: true });
  return report;
}

/**
 * Compares a transcript with its scenario: every scripted text and tool call exactly once and in order, every
 * tool call answered by exactly one successful result, no uuid written twice.
 */
export function auditTranscript(entries: readonly TimelineEntry[], scenario: readonly TurnObject[]): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!("uuid" in entry)) continue;
    if (seen.has(entry.uuid)) problems.push(`duplicate uuid ${entry.uuid} (${entry.type})`);
    seen.add(entry.uuid);
  }
  const expectedTexts = scenario.flatMap((turn) => turn.content.flatMap((b) => (b.type === "text" ? [b.text] : [])));
  const expectedCalls = scenario.flatMap((turn) =>
    turn.content.flatMap((b) => (b.type === "tool_use" ? [`${b.name} ${JSON.stringify(b.input)}`] : [])),
  );
  const texts: string[] = [];
  const calls: string[] = [];
  const callIds: string[] = [];
  const results = new Map<string, { count: number; errors: number }>();
  for (const entry of entries) {
    if (entry.type === "assistant" && entry.isApiErrorMessage !== true) {
      const block = entry.message.content[0];
      if (block.type === "text") texts.push(block.text);
      if (block.type === "tool_use") {
        calls.push(`${block.name} ${JSON.stringify(block.input)}`);
        callIds.push(block.id);
      }
    }
    if (entry.type === "user" && Array.isArray(entry.message.content)) {
      for (const block of entry.message.content) {
        if (block.type !== "tool_result") continue;
        const tally = results.get(block.tool_use_id) ?? { count: 0, errors: 0 };
        tally.count++;
        if (block.is_error === true) tally.errors++;
        results.set(block.tool_use_id, tally);
      }
    }
  }
  compareSequences("assistant text", expectedTexts, texts, problems);
  compareSequences("tool call", expectedCalls, calls, problems);
  for (const id of callIds) {
    const tally = results.get(id);
    if (tally === undefined) problems.push(`tool call ${id} has no result`);
    else if (tally.count !== 1) problems.push(`tool call ${id} has ${tally.count} results`);
    else if (tally.errors > 0) problems.push(`tool call ${id} failed`);
  }
  for (const id of results.keys()) if (!callIds.includes(id)) problems.push(`result for unknown call ${id}`);
  return problems;
}

function compareSequences(what: string, expected: readonly string[], actual: readonly string[], out: string[]): void {
  const length = Math.max(expected.length, actual.length);
  for (let index = 0; index < length; index++) {
    if (expected[index] !== actual[index]) {
      out.push(
        `${what} #${index + 1}: expected ${JSON.stringify(expected[index])}, found ${JSON.stringify(actual[index])} ` +
          `(${actual.length} found, ${expected.length} expected)`,
      );
      return;
    }
  }
}

/** Files under `directory` (skipping `exclude`) whose bytes contain any of `needles`. */
export async function filesContaining(
  directory: string,
  needles: readonly string[],
  exclude?: string,
): Promise<string[]> {
  const hits: string[] = [];
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    if (exclude !== undefined && file.startsWith(exclude)) continue;
    const text = await readFile(file, "utf8");
    if (needles.some((needle) => text.includes(needle))) hits.push(file);
  }
  return hits;
}
