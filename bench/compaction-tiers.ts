/**
 * Compaction tiers benchmark: a 200-step scenario (20 tasks × 9 Reads of large generated files + an answer)
 * run against the emulator with (a) no compaction, (b) autocompact only, (c) all four tiers, at a 200K and
 * a 1M window. Prints billed-equivalent input tokens (uncached + 1.25 × cache write + 0.1 × cache read, over
 * every request, summaries included) and model calls side by side. Prints numbers; never passes or fails.
 *
 *   node --import tsx bench/compaction-tiers.ts [--windows 200000,1000000] [--tokens-per-file 6000]
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CompactionSettings } from "../src/compaction/index.js";
import { CLEARED_TOOL_RESULT_TEXT } from "../src/compaction/index.js";
import { type ScenarioStep, startEmulator } from "../src/emulator/index.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import type { ApiMessage } from "../src/messages/index.js";
import { AnthropicProvider } from "../src/provider/index.js";
import type { MessagesRequest } from "../src/request/types.js";
import { reportResult } from "./lib/result.js";

const TASKS = 20;
const READS_PER_TASK = 9;
const FILES = 30;
/** Tool results that must stay verbatim in every request of (c). */
const VERBATIM_RECENT = 5;

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
}

const CONFIGS: Config[] = [
  { name: "(a) none", compaction: { snip: false, microcompact: false, collapse: false, autocompact: false } },
  { name: "(b) autocompact", compaction: { snip: false, microcompact: false, collapse: false, autocompact: true } },
  { name: "(c) all four", compaction: { snip: true, microcompact: true, collapse: true, autocompact: true } },
];

interface Result {
  billed: number;
  calls: number;
  summaryCalls: number;
  completedTasks: number;
  stoppedBy: string;
  verbatimViolations: number;
  seconds: number;
}

async function writeFiles(workspace: string, tokensPerFile: number): Promise<void> {
  const lines = Math.round((tokensPerFile * 4) / 90);
  for (let file = 0; file < FILES; file++) {
    const body: string[] = [];
    for (let line = 0; line < lines; line++)
      body.push(
        `export const value_${file}_${line} = computeChecksum("${file}-${line}", ${(file * 7919 + line) % 9973});`,
      );
    await writeFile(join(workspace, `module-${file}.ts`), `${body.join("\n")}\n`);
  }
}

function steps(): ScenarioStep[] {
  const all: ScenarioStep[] = [];
  for (let task = 0; task < TASKS; task++) {
    for (let read = 0; read < READS_PER_TASK; read++) {
      const file = (task * READS_PER_TASK + read) % FILES;
      all.push({
        content: [
          { type: "text", text: `Checking module-${file}.ts.` },
          { type: "tool_use", name: "Read", input: { file_path: `module-${file}.ts` } },
        ],
      });
    }
    all.push(`Task ${task} done: the modules are consistent.`);
  }
  return all;
}

/** Tool results (in request order) that are neither cleared nor deleted by cache_edits. */
function verbatimViolations(body: MessagesRequest): number {
  const deleted = new Set<string>();
  const results: Array<{ id: string; cleared: boolean }> = [];
  for (const message of body.messages as ApiMessage[]) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "cache_edits") for (const edit of block.edits) deleted.add(edit.cache_reference);
      if (block.type === "tool_result")
        results.push({ id: block.tool_use_id, cleared: block.content === CLEARED_TOOL_RESULT_TEXT });
    }
  }
  return results.slice(-VERBATIM_RECENT).filter((result) => result.cleared || deleted.has(result.id)).length;
}

async function run(config: Config, window: number, tokensPerFile: number): Promise<Result> {
  const started = performance.now();
  const workspace = await mkdtemp(join(tmpdir(), "threadline-bench-ws-"));
  await writeFiles(workspace, tokensPerFile);
  // Cache editing is emulator-only and announced (the provider no longer assumes it from a loopback URL).
  const emulator = await startEmulator({ scenario: steps(), contextWindow: window, cacheEditing: true });
  const engine = new QueryEngine({
    cwd: workspace,
    provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "bench", sleep: async () => {} }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    contextWindow: window,
    compaction: config.compaction,
    sessionMemory: false,
  });
  let completedTasks = 0;
  let stoppedBy = "completed";
  for (let task = 0; task < TASKS; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(`Task ${task}: check the next modules for consistency.`))
      if (event.type === "turn_end") reason = event.reason;
    if (reason !== "completed") {
      stoppedBy = `${reason} at task ${task}`;
      break;
    }
    completedTasks++;
  }
  await engine.close();
  let billed = 0;
  let calls = 0;
  let summaryCalls = 0;
  let violations = 0;
  for (const record of emulator.requests) {
    if (record.path !== "/v1/messages") continue;
    calls++;
    if (record.source === "summary" || record.source === "side") summaryCalls++;
    const usage = record.usage;
    if (usage)
      billed +=
        usage.input_tokens +
        1.25 * (usage.cache_creation_input_tokens ?? 0) +
        0.1 * (usage.cache_read_input_tokens ?? 0);
    if (record.source === "scenario" && record.body !== undefined)
      violations += verbatimViolations(record.body as MessagesRequest);
  }
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return {
    billed,
    calls,
    summaryCalls,
    completedTasks,
    stoppedBy,
    verbatimViolations: violations,
    seconds: (performance.now() - started) / 1000,
  };
}

const { values } = parseArgs({
  options: {
    windows: { type: "string", default: "200000,1000000" },
    "tokens-per-file": { type: "string", default: "6000" },
  },
});
const windows = values.windows.split(",").map(Number);
const tokensPerFile = Number(values["tokens-per-file"]);
console.log(
  `compaction tiers: ${TASKS} tasks × (${READS_PER_TASK} Reads of ~${tokensPerFile} tokens + answer) = ${TASKS * (READS_PER_TASK + 1)} steps`,
);
for (const window of windows) {
  console.log(`\nwindow ${window.toLocaleString("en-US")}`);
  console.log(
    `${"config".padEnd(18)}${"billed-eq input".padStart(18)}${"model calls".padStart(13)}${"side calls".padStart(12)}${"tasks".padStart(7)}  ${"recent-5 kept".padEnd(14)}outcome`,
  );
  const results: Record<string, Result> = {};
  for (const config of CONFIGS) {
    const result = await run(config, window, tokensPerFile);
    results[config.name] = result;
    console.log(
      `${config.name.padEnd(18)}${Math.round(result.billed).toLocaleString("en-US").padStart(18)}${String(result.calls).padStart(13)}${String(result.summaryCalls).padStart(12)}${String(result.completedTasks).padStart(7)}  ${(result.verbatimViolations === 0 ? "yes" : `no (${result.verbatimViolations})`).padEnd(14)}${result.stoppedBy} (${result.seconds.toFixed(1)} s)`,
    );
  }
  const b = results["(b) autocompact"]!;
  const c = results["(c) all four"]!;
  console.log(`(c) / (b) billed-equivalent: ${(c.billed / b.billed).toFixed(3)}`);
  const label = `${window / 1000}K window`;
  for (const config of CONFIGS) {
    const result = results[config.name]!;
    reportResult({
      bench: "compaction-tiers",
      metric: `billed input, 200 steps, ${label}, ${config.name}`,
      value: Math.round(result.billed),
      unit: "tokens",
      note: `${result.calls} calls, ${result.stoppedBy}`,
    });
  }
  reportResult({
    bench: "compaction-tiers",
    metric: `(c)/(b) billed ratio, ${label}`,
    value: Number((c.billed / b.billed).toFixed(3)),
    unit: "×",
    ...(window >= 1_000_000 ? { target: "≤ 0.5" } : {}),
  });
}
