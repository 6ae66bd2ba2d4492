/**
 * One pressure session (bench/lib/pressure-session.ts) against an emulator that may count `tokenRatio` times the
 * estimate, judged from the emulator's request log only: finished, summaries, re-reads, lost facts, cost, and
 * for each compaction the first main request after it as the server counted it. Shared by
 * bench/compaction-pressure.ts and test/engine/token-ratio.test.ts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RequestLogEntry, startEmulator } from "@threadline/emulator";
import type { CompactionSettings } from "../../src/compaction/index.js";
import { QueryEngine } from "../../src/engine/query-engine.js";
import { AnthropicProvider, type ProviderCapabilities } from "../../src/provider/index.js";
import { sessionCost } from "./cost.js";
import { type PressureShape, pressurePrompt, pressureSteps, writePressureFiles } from "./pressure-session.js";

/** The scenario's model (200K window, 8,192 output): the recorded tables measure it, whatever the default. */
const PRESSURE_MODEL = "claude-sonnet-4-6";

export interface PressureRunOptions {
  window: number;
  shape: PressureShape;
  compaction: Partial<CompactionSettings>;
  /** The emulator's count per estimated token (EmulatorOptions.tokenRatio). Default 1. */
  tokenRatio?: number;
  /** Declarations over the provider's profile (a loopback server is `compatible`). Default none. */
  capabilities?: Partial<ProviderCapabilities>;
}

export interface PressureRun {
  finished: boolean;
  stoppedBy: string;
  /** The last turn's error message, when it ended with one. */
  error?: string;
  summaries: number;
  compactions: number;
  rereads: number;
  factsLost: number;
  /** Largest main request's input as the server counted it. */
  peak: number;
  /** Input of the first main request after each compaction, as the server counted it. */
  afterCompaction: number[];
  /**
   * The server's own count (count_tokens) of each of those requests' system prompt and tools with a one-word
   * message: the prefix no compaction removes.
   */
  afterCompactionPrefix: number[];
  /** How many requests the emulator had logged at each compaction (the next one came after it). */
  compactedAt: number[];
  /** Requests the server refused as too long. */
  rejected: number;
  cost: number;
  /** The summary requests' input as the server counted it, and how much of it was read from / written to the cache. */
  summaryCache: SummaryCache;
  seconds: number;
  steps: number;
  requests: readonly RequestLogEntry[];
}

export interface SummaryCache {
  input: number;
  read: number;
  written: number;
  /** The smallest share of one summary request's input read from the cache (1 when there was none). */
  worstReadShare: number;
}

/** The summary requests' cache split, from the emulator's log (its prompt-cache ledger's usage). */
export function summaryCacheOf(requests: readonly RequestLogEntry[]): SummaryCache {
  const split: SummaryCache = { input: 0, read: 0, written: 0, worstReadShare: 1 };
  for (const record of requests) {
    if (record.path !== "/v1/messages" || record.source !== "summary" || record.usage === undefined) continue;
    const input = serverCount(record);
    const read = record.usage.cache_read_input_tokens ?? 0;
    split.input += input;
    split.read += read;
    split.written += record.usage.cache_creation_input_tokens ?? 0;
    if (input > 0) split.worstReadShare = Math.min(split.worstReadShare, read / input);
  }
  return split;
}

/** The input side of a logged request's usage (input + cache read + cache write): the server's count. */
export function serverCount(record: Pick<RequestLogEntry, "usage">): number {
  const usage = record.usage;
  if (usage === undefined) return 0;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** A main-loop request (the scripted model's own step, or a re-read it asked for), not a side request. */
function isMain(record: RequestLogEntry): boolean {
  return record.path === "/v1/messages" && (record.source === "scenario" || record.source === "reread");
}

/**
 * The server's count (its count_tokens endpoint) of `body`'s system prompt and tools with a one-word message: the
 * prefix no compaction removes. Also the oracle of test/engine/compaction-16k-target.test.ts.
 */
export async function prefixCount(url: string, body: unknown): Promise<number> {
  const { system, tools, model } = body as { system?: unknown; tools?: unknown; model: string };
  const response = await fetch(`${url}/v1/messages/count_tokens`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": "bench", "anthropic-version": "2023-06-01" },
    body: JSON.stringify({ model, system, tools, messages: [{ role: "user", content: "x" }] }),
  });
  return ((await response.json()) as { input_tokens: number }).input_tokens;
}

export async function runPressure(options: PressureRunOptions): Promise<PressureRun> {
  const started = performance.now();
  const workspace = await mkdtemp(join(tmpdir(), "threadline-pressure-ws-"));
  await writePressureFiles(workspace, options.shape);
  const steps = pressureSteps(options.shape);
  const emulator = await startEmulator({
    scenario: steps,
    contextWindow: options.window,
    cacheEditing: false,
    ...(options.tokenRatio !== undefined ? { tokenRatio: options.tokenRatio } : {}),
  });
  const engine = new QueryEngine({
    cwd: workspace,
    model: PRESSURE_MODEL,
    provider: new AnthropicProvider({
      baseURL: emulator.url,
      apiKey: "bench",
      sleep: async () => {},
      ...(options.capabilities !== undefined ? { capabilities: options.capabilities } : {}),
    }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    contextWindow: options.window,
    compaction: { cacheEdits: "off", ...options.compaction },
  });
  let compactions = 0;
  const afterIndexes: number[] = [];
  let finished = true;
  let stoppedBy = "completed";
  let error: string | undefined;
  try {
    for (let task = 0; task < options.shape.tasks; task++) {
      let reason = "";
      for await (const event of engine.submitMessage(pressurePrompt(task))) {
        if (event.type === "entry" && event.entry.type === "system" && event.entry.subtype === "compact_boundary") {
          compactions++;
          afterIndexes.push(emulator.requests.length);
        }
        if (event.type === "turn_end") {
          reason = event.reason;
          error = event.error;
        }
      }
      if (reason !== "completed") {
        finished = false;
        stoppedBy = `${reason} at task ${task}`;
        break;
      }
    }
    await engine.idle();
  } finally {
    await engine.close();
  }
  const requests = [...emulator.requests];
  const afterCompaction: number[] = [];
  const afterCompactionPrefix: number[] = [];
  for (const index of afterIndexes) {
    const next = requests.slice(index).find((record) => isMain(record) && record.usage !== undefined);
    if (next === undefined) continue;
    afterCompaction.push(serverCount(next));
    afterCompactionPrefix.push(await prefixCount(emulator.url, next.body));
  }
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  const figures = sessionCost(requests);
  return {
    finished,
    stoppedBy,
    ...(error !== undefined ? { error } : {}),
    summaries: requests.filter((record) => record.path === "/v1/messages" && record.source === "summary").length,
    compactions,
    rereads: figures.rereads,
    factsLost: figures.factsLost,
    peak: Math.max(0, ...requests.filter(isMain).map(serverCount)),
    afterCompaction,
    afterCompactionPrefix,
    compactedAt: afterIndexes,
    rejected: requests.filter((record) => record.path === "/v1/messages" && record.status === 400).length,
    cost: figures.cost,
    summaryCache: summaryCacheOf(requests),
    seconds: (performance.now() - started) / 1000,
    steps: steps.length,
    requests,
  };
}
