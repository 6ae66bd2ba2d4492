/**
 * Compaction tiers benchmark on the closed-loop scripted model: the long session of bench/lib/long-session.ts
 * (20 prompts, 220 steps: reads of large modules, an Edit that needs the line it replaces, an answer that
 * needs a fact from the first task) at a 200K and a 1M window, per configuration. Every figure is from the
 * emulator's request log: total cost (input at cache prices + output at 5×, over every request — main,
 * re-reads, summaries, collapse, session memory), re-reads, and facts lost. Runs on the public path by
 * default (no cache editing, either side); the cache-editing figure is printed beside it, labelled.
 * Prints numbers; never passes or fails.
 *
 *   node --import tsx bench/compaction-tiers.ts [--windows 200000,1000000] [--tasks 20] [--configs "name|name"]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { CompactionSettings } from "../src/compaction/index.js";
import { CLEARED_TOOL_RESULT_PREFIX } from "../src/compaction/index.js";
import { startEmulator } from "../src/emulator/index.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import type { ApiMessage } from "../src/messages/index.js";
import { AnthropicProvider } from "../src/provider/index.js";
import type { MessagesRequest } from "../src/request/types.js";
import { dollars, type SessionCost, sessionCost } from "./lib/cost.js";
import {
  DEFAULT_LONG_SESSION,
  type LongSessionShape,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "./lib/long-session.js";
import { reportResult } from "./lib/result.js";

/** Tool results that must stay verbatim in every main request (unless the session is over the window). */
const VERBATIM_RECENT = 3;

const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
  /** The emulator accepts cache editing and the client uses it (labelled: not the public API). */
  cacheEditing?: boolean;
}

const CONFIGS: Config[] = [
  { name: "tiers off", compaction: { ...OFF } },
  { name: "autocompact only", compaction: { ...OFF, autocompact: true } },
  { name: "snip + autocompact", compaction: { ...OFF, snip: true, autocompact: true } },
  { name: "microcompact + autocompact", compaction: { ...OFF, microcompact: true, autocompact: true } },
  { name: "collapse (+ autocompact)", compaction: { ...OFF, collapse: true, autocompact: true } },
  { name: "defaults", compaction: {} },
  { name: "all four", compaction: { snip: true, collapse: true } },
  { name: "defaults, no file restore", compaction: { postCompactRestoreTokens: 0 } },
  { name: "defaults, batches keep 5", compaction: { batchKeepRecentToolResults: 5 } },
  { name: "defaults [cache editing]", compaction: { cacheEdits: "on" }, cacheEditing: true },
];

interface Result extends SessionCost {
  completedTasks: number;
  stoppedBy: string;
  verbatimViolations: number;
  seconds: number;
}

/** Of the last VERBATIM_RECENT tool results of a request, how many were cleared or deleted. */
function verbatimViolations(body: MessagesRequest): number {
  const deleted = new Set<string>();
  const results: Array<{ id: string; cleared: boolean }> = [];
  for (const message of body.messages as ApiMessage[]) {
    if (typeof message.content === "string") continue;
    for (const block of message.content) {
      if (block.type === "cache_edits") for (const edit of block.edits) deleted.add(edit.cache_reference);
      if (block.type === "tool_result")
        results.push({
          id: block.tool_use_id,
          cleared: typeof block.content === "string" && block.content.startsWith(CLEARED_TOOL_RESULT_PREFIX),
        });
    }
  }
  return results.slice(-VERBATIM_RECENT).filter((result) => result.cleared || deleted.has(result.id)).length;
}

async function run(config: Config, window: number, shape: LongSessionShape): Promise<Result> {
  const started = performance.now();
  const workspace = await mkdtemp(join(tmpdir(), "threadline-bench-ws-"));
  // Cache editing is emulator-only and announced (the provider no longer assumes it from a loopback URL):
  // only the cache-editing rows turn it on; every other row measures the public path.
  await writeLongSessionFiles(workspace, shape);
  const emulator = await startEmulator({
    scenario: longSessionSteps(shape),
    contextWindow: window,
    cacheEditing: config.cacheEditing === true,
  });
  const engine = new QueryEngine({
    cwd: workspace,
    provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "bench", sleep: async () => {} }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    contextWindow: window,
    compaction: { cacheEdits: config.cacheEditing === true ? "on" : "off", ...config.compaction },
  });
  let completedTasks = 0;
  let stoppedBy = "completed";
  for (let task = 0; task < shape.tasks; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(longSessionPrompt(task)))
      if (event.type === "turn_end") reason = event.reason;
    if (reason !== "completed") {
      stoppedBy = `${reason} at task ${task}`;
      break;
    }
    completedTasks++;
  }
  await engine.idle();
  await engine.close();
  let violations = 0;
  for (const record of emulator.requests)
    if ((record.source === "scenario" || record.source === "reread") && record.body !== undefined)
      violations += verbatimViolations(record.body as MessagesRequest);
  const figures = sessionCost(emulator.requests);
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return {
    ...figures,
    completedTasks,
    stoppedBy,
    verbatimViolations: violations,
    seconds: (performance.now() - started) / 1000,
  };
}

const { values } = parseArgs({
  options: {
    windows: { type: "string", default: "200000,1000000" },
    tasks: { type: "string", default: String(DEFAULT_LONG_SESSION.tasks) },
    "tokens-per-file": { type: "string", default: String(DEFAULT_LONG_SESSION.tokensPerFile) },
    configs: { type: "string", default: "" },
  },
});
const shape: LongSessionShape = {
  ...DEFAULT_LONG_SESSION,
  tasks: Number(values.tasks),
  tokensPerFile: Number(values["tokens-per-file"]),
};
const wanted = values.configs === "" ? undefined : new Set(values.configs.split("|").map((name) => name.trim()));
const configs = CONFIGS.filter((config) => wanted === undefined || wanted.has(config.name));
const stepCount = longSessionSteps(shape).length;
console.log(
  `compaction tiers, closed loop: ${shape.tasks} prompts, ${stepCount} steps (Reads of ~${shape.tokensPerFile}-token modules, Edits needing their old_string, answers needing an early fact)`,
);
console.log("cost = input at cache prices (1× / write 1.25× 5m, 2× 1h / read 0.1×) + output 5×, every request");
const format = (value: number): string => Math.round(value).toLocaleString("en-US");
for (const window of windows()) {
  console.log(`\nwindow ${window.toLocaleString("en-US")}`);
  console.log(
    `${"config".padEnd(28)}${"cost".padStart(13)}${"$".padStart(8)}${"vs AC".padStart(7)}${"side cost".padStart(12)}${"calls".padStart(7)}${"re-reads".padStart(9)}${"lost".padStart(6)}${"tasks".padStart(6)}  ${"last-3 kept".padEnd(12)}outcome`,
  );
  const results = new Map<string, Result>();
  for (const config of configs) {
    const result = await run(config, window, shape);
    results.set(config.name, result);
    const baseline = results.get("autocompact only");
    const ratio = baseline === undefined ? "" : (result.cost / baseline.cost).toFixed(3);
    console.log(
      `${config.name.padEnd(28)}${format(result.cost).padStart(13)}${dollars(result.cost).toFixed(2).padStart(8)}${ratio.padStart(7)}${format(result.sideCost).padStart(12)}${String(result.requests).padStart(7)}${String(result.rereads).padStart(9)}${String(result.factsLost).padStart(6)}${String(result.completedTasks).padStart(6)}  ${(result.verbatimViolations === 0 ? "yes" : `no (${result.verbatimViolations})`).padEnd(12)}${result.stoppedBy} (${result.seconds.toFixed(1)} s)`,
    );
  }
  const label = `${window / 1000}K window`;
  const baseline = results.get("autocompact only");
  for (const [name, result] of results) {
    reportResult({
      bench: "compaction-tiers",
      metric: `cost, ${stepCount} steps, ${label}, ${name}`,
      value: Math.round(result.cost),
      unit: "input-eq tokens",
      note: `${result.requests} calls, ${result.rereads} re-reads, ${result.factsLost} lost, ${result.stoppedBy}${baseline ? `, ${(result.cost / baseline.cost).toFixed(3)}× autocompact only` : ""}`,
    });
  }
}

function windows(): number[] {
  return values.windows.split(",").map(Number);
}
