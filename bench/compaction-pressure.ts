import { mkdtemp, rm } from "node:fs/promises";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startEmulator } from "@threadline/emulator";
import { autoCompactThreshold, type CompactionSettings, compactionTargetTokens } from "../src/compaction/index.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import { AnthropicProvider } from "../src/provider/index.js";
import { sessionCost } from "./lib/cost.js";
import { CHILD_RESULT_PREFIX, pool, runChild } from "./lib/pool.js";
import { runPressure, type SummaryCache } from "./lib/pressure-run.js";
import {
  type PressureShape,
  pressureNewTokens,
  pressurePrompt,
  pressureSteps,
  writePressureFiles,
} from "./lib/pressure-session.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";

/** The scenario's model: its window (200K) and output cap (8,192) are what the section measures, whatever the default. */
const MODEL = "claude-sonnet-4-6";
const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
}

const CONFIGS: Config[] = [
  { name: "defaults", compaction: {} },
  { name: "autocompact only", compaction: { ...OFF, autocompact: true } },
  { name: "tiers off", compaction: { ...OFF } },
];

interface Cell {
  window: number;
  /** Label of the result sizes ("3 %" or "1–7K"). */
  sizes: string;
  shape: PressureShape;
}

const READS_PER_TASK = 4;

/** A grid cell: results of `share` of the window on average, reads adding up to ~`windows` windows. */
function gridCell(window: number, sharePercent: number, windows: number): Cell {
  const mean = (window * sharePercent) / 100;
  const reads = Math.max(28, Math.min(96, Math.round((windows * 100) / sharePercent)));
  const tasks = Math.max(7, Math.ceil(reads / READS_PER_TASK));
  return {
    window,
    sizes: `${sharePercent} %`,
    shape: {
      tasks,
      readsPerTask: READS_PER_TASK,
      minTokens: Math.round(mean / 4),
      maxTokens: Math.round((mean * 7) / 4),
      factLag: 3,
    },
  };
}

/** The issue's sessions: 41 steps at each window with its result sizes. */
const REPRO: Cell[] = [
  [40_000, 1_000, 7_000],
  [120_000, 3_000, 20_000],
  [400_000, 10_000, 70_000],
].map(([window, min, max]) => ({
  window: window!,
  sizes: `${min! / 1000}–${max! / 1000}K`,
  shape: { tasks: 7, readsPerTask: READS_PER_TASK, minTokens: min!, maxTokens: max!, factLag: 3 },
}));

interface Result {
  finished: boolean;
  stoppedBy: string;
  summaries: number;
  compactions: number;
  bound: number;
  rereads: number;
  factsLost: number;
  peak: number;
  /** Largest context of the first main request after a compaction, as a share of the target (0: none). */
  worstAfterTarget: number;
  cost: number;
  seconds: number;
  steps: number;
}

function contextOf(record: {
  usage?: {
    input_tokens: number;
    cache_read_input_tokens?: number | null;
    cache_creation_input_tokens?: number | null;
  };
}): number {
  const usage = record.usage;
  if (usage === undefined) return 0;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

async function run(config: Config, cell: Cell): Promise<Result> {
  const started = performance.now();
  const workspace = await mkdtemp(join(tmpdir(), "threadline-pressure-ws-"));
  await writePressureFiles(workspace, cell.shape);
  const steps = pressureSteps(cell.shape);
  const emulator = await startEmulator({ scenario: steps, contextWindow: cell.window, cacheEditing: false });
  const engine = new QueryEngine({
    cwd: workspace,
    model: MODEL,
    provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "bench", sleep: async () => {} }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    contextWindow: cell.window,
    compaction: { cacheEdits: "off", ...config.compaction },
  });
  let compactions = 0;
  /** Request-log index of the first request after each compaction. */
  const afterCompaction: number[] = [];
  let finished = true;
  let stoppedBy = "completed";
  for (let task = 0; task < cell.shape.tasks; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(pressurePrompt(task))) {
      if (event.type === "entry" && event.entry.type === "system" && event.entry.subtype === "compact_boundary") {
        compactions++;
        afterCompaction.push(emulator.requests.length);
      }
      if (event.type === "turn_end") reason = event.reason;
    }
    if (reason !== "completed") {
      finished = false;
      stoppedBy = `${reason} at task ${task}`;
      break;
    }
  }
  await engine.idle();
  await engine.close();
  const requests = emulator.requests;
  const figures = sessionCost(requests);
  const main = (record: (typeof requests)[number]): boolean =>
    record.path === "/v1/messages" && (record.source === "scenario" || record.source === "reread");
  let peak = 0;
  for (const record of requests) if (main(record)) peak = Math.max(peak, contextOf(record));
  const target = compactionTargetTokens(MODEL, cell.window);
  let worstAfterTarget = 0;
  for (const index of afterCompaction) {
    const next = requests.slice(index).find(main);
    if (next !== undefined) worstAfterTarget = Math.max(worstAfterTarget, contextOf(next) / target);
  }
  const summaries = requests.filter((record) => record.path === "/v1/messages" && record.source === "summary").length;
  const threshold = autoCompactThreshold(MODEL, cell.window);
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return {
    finished,
    stoppedBy,
    summaries,
    compactions,
    bound: Math.ceil(pressureNewTokens(cell.shape) / (threshold / 2)) + 1,
    rereads: figures.rereads,
    factsLost: figures.factsLost,
    peak,
    worstAfterTarget,
    cost: figures.cost,
    seconds: (performance.now() - started) / 1000,
    steps: steps.length,
  };
}

function runInChild(config: Config, cell: Cell): Promise<Result> {
  return runChild<Result>(
    fileURLToPath(import.meta.url),
    ["--child", JSON.stringify({ config: config.name, cell })],
    `${config.name} at ${cell.window}`,
  );
}

const { values } = parseArgs({
  options: {
    windows: { type: "string", default: "16000,32000,64000,128000,200000,400000,1000000" },
    shares: { type: "string", default: "1,3,8" },
    reads: { type: "string", default: "2.5" },
    configs: { type: "string", default: "" },
    jobs: { type: "string", default: String(availableParallelism()) },
    quick: { type: "boolean", default: false },
    repro: { type: "boolean", default: false },
    "no-readme": { type: "boolean", default: false },
    ruler: { type: "boolean", default: false },
    ratios: { type: "string", default: "1,2,4,10" },
    "ruler-windows": { type: "string", default: "16000,40000,120000,400000" },
    child: { type: "string" },
  },
});

if (values.child !== undefined) {
  process.stdin.on("end", () => process.exit(1));
  process.stdin.resume();
  const { config: name, cell } = JSON.parse(values.child) as { config: string; cell: Cell };
  const config = CONFIGS.find((candidate) => candidate.name === name);
  if (config === undefined) throw new Error(`--child: no configuration named "${name}"`);
  const result = await run(config, cell);
  process.stdout.write(`${CHILD_RESULT_PREFIX}${JSON.stringify(result)}\n`);
  process.stdin.destroy();
} else if (values.ruler) {
  await rulerMain();
} else {
  await main();
}

/**
 * The ruler dimension (issue 38): the same sessions against a server that counts ×1, ×2, ×4 and ×10 the
 * estimate (EmulatorOptions.tokenRatio), default settings. Results average 3 % of the window by the server's
 * count. "After compaction / target" is the largest first main request after a compaction, as the server counted
 * it, over the compaction target in the server's tokens.
 */
async function rulerMain(): Promise<void> {
  const windows = values["ruler-windows"].split(",").map(Number);
  const ratios = values.ratios.split(",").map(Number);
  const started = performance.now();
  const header =
    "| window | server counts | finished | summary requests | compactions | re-reads | lost | rejected | prefix / threshold | after compaction / target | summary input | read from cache | written | least read | cost |";
  const rows = [header, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"];
  const total = { input: 0, read: 0, written: 0 };
  // Each window: the emulator scaling its real tokenizer's count, then real content the estimate misjudges
  // unevenly (Chinese notes ~3.3×, minified JSON ~1.7×, code ~1.5× characters ÷ 4) under the unscaled tokenizer.
  const cells = [
    ...ratios.map((ratio) => ({ ratio, filler: "tilde" as const, label: `×${ratio}`, sizeRatio: ratio })),
    { ratio: 1, filler: "cjk-json" as const, label: "CJK / JSON", sizeRatio: 1 },
  ];
  for (const window of windows) {
    for (const { ratio, filler, label, sizeRatio } of cells) {
      const mean = (window * 0.03) / sizeRatio;
      const shape = {
        tasks: 7,
        readsPerTask: READS_PER_TASK,
        minTokens: Math.round(mean / 4),
        maxTokens: Math.round((mean * 7) / 4),
        factLag: 3,
        filler,
      };
      const run = await runPressure({ window, shape, compaction: {}, tokenRatio: ratio });
      // The target in the server's tokens: 40 % of the threshold, or the prefix the server counted (system and
      // tools, which no compaction removes) plus a fifth of the room above it where that is more
      // (docs/CONTEXT-BUDGET.md "The fixed prefix").
      const threshold = autoCompactThreshold(MODEL, window);
      const worst = Math.max(
        0,
        ...run.afterCompaction.map((count, index) => {
          const prefix = run.afterCompactionPrefix[index] ?? 0;
          return count / Math.max(threshold * 0.4, prefix + (threshold - prefix) * 0.2);
        }),
      );
      // The share of the threshold system and tools take by the server's count: near 1, no compaction can reach a
      // target above them (16K ×10: the lean prefix alone is ~79 %).
      const prefixShare =
        run.afterCompactionPrefix.length === 0 ? undefined : run.afterCompactionPrefix[0]! / threshold;
      console.error(`  done: ${window / 1000}K ${label} (${run.seconds.toFixed(1)} s)`);
      rows.push(
        `| ${window / 1000}K | ${label} | ${run.finished ? "yes" : run.stoppedBy} | ${run.summaries} | ${run.compactions} | ${run.rereads} | ${run.factsLost} | ${run.rejected} | ${prefixShare === undefined ? "–" : `${(prefixShare * 100).toFixed(0)} %`} | ${run.compactions === 0 ? "–" : `${(worst * 100).toFixed(1)} %`} | ${summaryColumns(run.summaryCache)} | ${format(run.cost)} |`,
      );
      total.input += run.summaryCache.input;
      total.read += run.summaryCache.read;
      total.written += run.summaryCache.written;
      reportResult({
        bench: "compaction-pressure",
        metric: `cost, ${window / 1000}K window, server counts ${label}`,
        value: Math.round(run.cost),
        unit: "input-eq tokens",
        note: `${run.finished ? "finished" : run.stoppedBy}, ${run.compactions} compactions, ${run.rereads} re-reads, worst after/target ${(worst * 100).toFixed(1)} %`,
      });
    }
  }
  const table = rows.join("\n");
  const overall = `Summary requests overall: input ${format(total.input)}, read from the cache ${format(total.read)} (${share(total.read, total.input)}), written ${format(total.written)}.`;
  console.log(`\n${table}\n\n${overall}`);
  const seconds = (performance.now() - started) / 1000;
  if (values["no-readme"]) return;
  await writeReadmeSection(
    "compaction-pressure-ruler",
    [
      `Written by \`node --import tsx bench/compaction-pressure.ts --ruler\` (${rows.length - 2} runs, one at a time, ${seconds.toFixed(0)} s wall).`,
      'Default settings, public path, closed-loop model; the emulator counts the given multiple of its real tokenizer\'s count (`tokenRatio`; that tokenizer counts these modules\' code lines ~1.5× characters ÷ 4 and their `~` padding ~0.14×). Module sizes are 3 % of the window ÷ the multiple, in the estimate\'s units. "CJK / JSON": the ×1 sizes padded with Chinese notes (even modules, ~3.3× characters ÷ 4) and minified JSON (odd ones, ~1.7×) instead, under the unscaled tokenizer: content the estimate misjudges unevenly. 7 tasks of four reads, an Edit and an answer needing a fact read three tasks back. "After compaction / target": the largest first main request after a compaction as the server counted it, over the compaction target in the server\'s tokens: 40 % of the autocompact threshold, or where more, the prefix the server counts for that request\'s system and tools plus a fifth of the room above it. The tools block goes lean once it takes over a quarter of the window (docs/CONTEXT-BUDGET.md "The fixed prefix"). "Summary input / read from cache / written / least read": the summary requests\' input as the server counted it, the part its prompt-cache ledger read and wrote, and the smallest read share of one summary request (issue 52: a cache-safe fork reads everything the previous main request sent). "Prefix / threshold": system and tools as the server counts them, over the autocompact threshold (where a compaction ran); near 100 % no compaction can leave the conversation room, and the first request after one holds at least the task and the last exchange.',
      "",
      table,
      "",
      overall,
    ].join("\n"),
    provenanceOf(import.meta.url, process.argv.slice(2), "slow"),
  );
}

function share(part: number, whole: number): string {
  return whole === 0 ? "–" : `${((part / whole) * 100).toFixed(0)} %`;
}

/** Summary input, read, written and the least read share of one summary request ("–" without summaries). */
function summaryColumns(split: SummaryCache): string {
  if (split.input === 0) return "– | – | – | –";
  return `${format(split.input)} | ${format(split.read)} (${share(split.read, split.input)}) | ${format(split.written)} | ${(split.worstReadShare * 100).toFixed(0)} %`;
}

function format(value: number): string {
  return Math.round(value).toLocaleString("en-US");
}

async function main(): Promise<void> {
  const windows = values.quick ? [16_000, 64_000, 200_000] : values.windows.split(",").map(Number);
  const shares = values.quick ? [3, 8] : values.shares.split(",").map(Number);
  const cells = values.repro
    ? REPRO
    : windows.flatMap((window) => shares.map((share) => gridCell(window, share, Number(values.reads))));
  const wanted = values.configs === "" ? undefined : new Set(values.configs.split("|").map((name) => name.trim()));
  const configs = CONFIGS.filter((config) => wanted === undefined || wanted.has(config.name));
  const jobs = Number(values.jobs);
  console.log(
    `compaction pressure, closed loop, public path: ${cells.length} cells × ${configs.length} configurations, ${jobs} at a time`,
  );
  console.log("cost = input at cache prices (1× / write 1.25× / read 0.1×) + output 5×, every request");
  const started = performance.now();
  const order = cells
    .flatMap((cell) => configs.map((config) => ({ cell, config })))
    .sort((a, b) => b.cell.window * b.cell.shape.tasks - a.cell.window * a.cell.shape.tasks);
  const done = await pool(
    order.map(({ cell, config }) => async () => {
      const result = await runInChild(config, cell);
      console.error(`  done: ${cell.window / 1000}K ${cell.sizes} ${config.name} (${result.seconds.toFixed(1)} s)`);
      return { cell, config, result };
    }),
    jobs,
  );
  const header =
    "| window | results | steps | config | finished | summary requests | compactions (bound) | re-reads | lost | peak context | after compaction / target | cost | × autocompact only | × tiers off |";
  const rows = [header, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"];
  for (const cell of cells) {
    const of = (name: string) => done.find((item) => item.cell === cell && item.config.name === name)?.result;
    const autocompactOnly = of("autocompact only");
    const off = of("tiers off");
    for (const config of configs) {
      const result = of(config.name);
      if (result === undefined) continue;
      const ratio = (base: Result | undefined): string =>
        base === undefined || !base.finished ? "–" : (result.cost / base.cost).toFixed(2);
      rows.push(
        `| ${cell.window / 1000}K | ${cell.sizes} | ${result.steps} | ${config.name} | ${result.finished ? "yes" : result.stoppedBy} | ${result.summaries} | ${result.compactions} (${result.bound}) | ${result.rereads} | ${result.factsLost} | ${format(result.peak)} | ${result.compactions === 0 ? "–" : `${(result.worstAfterTarget * 100).toFixed(1)} %`} | ${format(result.cost)} | ${ratio(autocompactOnly)} | ${ratio(off)} |`,
      );
      reportResult({
        bench: "compaction-pressure",
        metric: `cost, ${cell.window / 1000}K window, results ${cell.sizes}, ${config.name}`,
        value: Math.round(result.cost),
        unit: "input-eq tokens",
        note: `${result.finished ? "finished" : result.stoppedBy}, ${result.compactions} compactions (bound ${result.bound}), ${result.rereads} re-reads, ${result.factsLost} lost`,
      });
    }
  }
  const table = rows.join("\n");
  console.log(`\n${table}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\nwall time ${seconds.toFixed(0)} s`);
  if (!values["no-readme"] && !values.repro && wanted === undefined) {
    const what = values.quick ? "the --quick subset" : "the whole grid";
    await writeReadmeSection(
      "compaction-pressure",
      [
        `Written by \`node --import tsx bench/compaction-pressure.ts${values.quick ? " --quick" : ""}\` (${what}, ${done.length} runs, ${jobs} at a time, ${seconds.toFixed(0)} s wall).`,
        'Closed-loop model, public path (no cache editing; 400 above the window). Results average the given share of the window (each between ¼ and 1¾ of it); four reads, an Edit and an answer needing a fact read three tasks back per task. Bound = ⌈new tokens ÷ (½ autocompact threshold)⌉ + 1. "After compaction / target": the largest context of a first request after a compaction, as a share of the post-compaction target.',
        "",
        table,
      ].join("\n"),
      provenanceOf(import.meta.url, process.argv.slice(2), "slow"),
    );
  }
}
