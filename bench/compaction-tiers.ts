import { rm } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { type EmulatorRequest, flattenRequest, startEmulator } from "@threadline/emulator";
import type { CompactionSettings } from "../src/compaction/index.js";
import { CLEARED_TOOL_RESULT_PREFIX } from "../src/compaction/index.js";
import { QueryEngine } from "../src/engine/query-engine.js";
import type { ApiMessage } from "../src/messages/index.js";
import { AnthropicProvider } from "../src/provider/index.js";
import type { MessagesRequest } from "../src/request/types.js";
import { makeTempDir } from "../support/temp-dir.js";
import { dollars, PRICE, type SessionCost, sessionCost } from "./lib/cost.js";
import {
  DEFAULT_LONG_SESSION,
  type LongSessionShape,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "./lib/long-session.js";
import { CHILD_RESULT_PREFIX, pool, runChild } from "./lib/pool.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";
import { renderMarkdownTable } from "./lib/table.js";

/** Tool results that must stay verbatim in every main request (unless the session is over the window). */
const VERBATIM_RECENT = 3;

const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
  /** The emulator accepts cache editing and the client uses it (labelled: not the public API). */
  cacheEditing?: boolean;
  /** An experiment, run only when `--configs` names it (or with `--all`); not a row of the published table. */
  extra?: boolean;
  /** Run only at windows of at least / below this many tokens (default: every window). */
  from?: number;
  below?: number;
}

/**
 * Where tiers off completes the session (1M), each tier runs alone; where it cannot (200K), each tier runs
 * with autocompact behind it, since without it the session stops at the blocking limit.
 */
const ALONE_FROM = 1_000_000;

const CONFIGS: Config[] = [
  { name: "tiers off", compaction: { ...OFF } },
  { name: "autocompact only", compaction: { ...OFF, autocompact: true } },
  { name: "snip only", compaction: { ...OFF, snip: true }, from: ALONE_FROM },
  { name: "snip + autocompact", compaction: { ...OFF, snip: true, autocompact: true }, below: ALONE_FROM },
  { name: "microcompact only", compaction: { ...OFF, microcompact: true }, from: ALONE_FROM },
  {
    name: "microcompact + autocompact",
    compaction: { ...OFF, microcompact: true, autocompact: true },
    below: ALONE_FROM,
  },
  { name: "collapse only", compaction: { ...OFF, collapse: true }, from: ALONE_FROM },
  { name: "collapse + autocompact", compaction: { ...OFF, collapse: true, autocompact: true }, below: ALONE_FROM },
  { name: "defaults (microcompact + autocompact)", compaction: {} },
  { name: "all four", compaction: { snip: true, collapse: true } },
  { name: "defaults [cache editing]", compaction: { cacheEdits: "on" }, cacheEditing: true },
  // Post-compact file restore (default 50,000 tokens: at most 5 files of 5,000) against none and 10K,
  // behind autocompact alone (where a compaction happens) and with the defaults.
  {
    name: "autocompact only, no file restore",
    compaction: { ...OFF, autocompact: true, postCompactRestoreTokens: 0 },
    extra: true,
  },
  {
    name: "autocompact only, restore 10K",
    compaction: { ...OFF, autocompact: true, postCompactRestoreTokens: 10_000 },
    extra: true,
  },
  { name: "defaults, no file restore", compaction: { postCompactRestoreTokens: 0 }, extra: true },
  { name: "defaults, batches keep 5", compaction: { batchKeepRecentToolResults: 5 }, extra: true },
];

/**
 * The least any policy that keeps the last VERBATIM_RECENT tool results verbatim can pay for this session,
 * from the requests of a run that clears nothing: every block a request adds is written to the cache once
 * (1.25×: it is re-read by later requests, so writing beats sending it uncached), every request reads the
 * tools and system prompt and the kept results it did not just add (0.1×), and every response's output is
 * paid (5×). Nothing else is needed: everything beyond that (earlier results, rewrites after a clear,
 * re-reads) is what a clearing policy trades against.
 */
interface FloorTerms {
  /** Tokens of the tool_result blocks first sent by each request (each written once). */
  newToolResults: number;
  /** Tokens of every other block first sent (prompts, the model's turns, the first request's tools and system). */
  newOther: number;
  /** Tools and system tokens read by every request after the first. */
  baseReads: number;
  /** Tokens of the last VERBATIM_RECENT results each request holds but did not add (read, not written). */
  keptReads: number;
  output: number;
  requests: number;
}

function floorCost(terms: FloorTerms): number {
  return (
    PRICE.write5m * (terms.newToolResults + terms.newOther) +
    PRICE.read * (terms.baseReads + terms.keptReads) +
    PRICE.output * terms.output
  );
}

interface Result extends SessionCost {
  completedTasks: number;
  stoppedBy: string;
  verbatimViolations: number;
  seconds: number;
  /** Only for the run that clears nothing (tiers off). */
  floor?: FloorTerms;
}

/** Adds one main request of a run that clears nothing to `terms`; `previous` is the block count before it. */
function addFloorTerms(terms: FloorTerms, body: EmulatorRequest, output: number, previous: number): number {
  const blocks = flattenRequest(body, new Set());
  const isResult = (path: string): boolean => {
    const match = /^messages\.(\d+)\.content\.(\d+)$/.exec(path);
    if (match === null) return false;
    const content = body.messages[Number(match[1])]?.content;
    return Array.isArray(content) && content[Number(match[2])]?.type === "tool_result";
  };
  const resultIndexes = blocks.flatMap((block, index) => (isResult(block.path) ? [index] : []));
  const kept = new Set(resultIndexes.slice(-VERBATIM_RECENT));
  for (const [index, block] of blocks.entries()) {
    const base = block.path.startsWith("tools.") || block.path.startsWith("system");
    if (index >= previous) {
      if (isResult(block.path)) terms.newToolResults += block.tokens;
      else terms.newOther += block.tokens;
    } else if (base) terms.baseReads += block.tokens;
    else if (kept.has(index)) terms.keptReads += block.tokens;
  }
  terms.output += output;
  terms.requests++;
  return blocks.length;
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
  const workspace = await makeTempDir("bench-ws");
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
    // The scenario's model (8,192 max_tokens, standard cache prices), whatever the default is.
    model: "claude-sonnet-4-6",
    provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "bench", sleep: async () => {} }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    contextWindow: window,
    compaction: { cacheEdits: config.cacheEditing === true ? "on" : "off", ...config.compaction },
  });
  let violations = 0;
  let checked = 0;
  const clearsNothing = config.name === "tiers off";
  const floor: FloorTerms = { newToolResults: 0, newOther: 0, baseReads: 0, keptReads: 0, output: 0, requests: 0 };
  let previousBlocks = 0;
  // Each logged body is checked once and then dropped: holding every request of a 1M-window session
  // (~1 GB of parsed JSON) only feeds the garbage collector.
  const checkNewRequests = (): void => {
    for (; checked < emulator.requests.length; checked++) {
      const record = emulator.requests[checked]!;
      if ((record.source === "scenario" || record.source === "reread") && record.body !== undefined) {
        violations += verbatimViolations(record.body as MessagesRequest);
        if (clearsNothing && record.status === 200)
          previousBlocks = addFloorTerms(
            floor,
            record.body as EmulatorRequest,
            record.usage?.output_tokens ?? 0,
            previousBlocks,
          );
      }
      record.body = undefined;
    }
  };
  let completedTasks = 0;
  let stoppedBy = "completed";
  for (let task = 0; task < shape.tasks; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(longSessionPrompt(task))) {
      if (event.type === "turn_end") reason = event.reason;
      checkNewRequests();
    }
    if (reason !== "completed") {
      stoppedBy = `${reason} at task ${task}`;
      break;
    }
    completedTasks++;
  }
  await engine.idle();
  await engine.close();
  checkNewRequests();
  const figures = sessionCost(emulator.requests);
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return {
    ...figures,
    completedTasks,
    stoppedBy,
    verbatimViolations: violations,
    seconds: (performance.now() - started) / 1000,
    ...(clearsNothing ? { floor } : {}),
  };
}

/** Runs one (window, config) in a child process of this script; rejects with the child's stderr. */
function runInChild(config: Config, window: number): Promise<Result> {
  return runChild<Result>(
    fileURLToPath(import.meta.url),
    [...childArgs, "--child", `${window}|${config.name}`],
    `${config.name} at ${window}`,
  );
}

const { values } = parseArgs({
  options: {
    windows: { type: "string", default: "200000,1000000" },
    tasks: { type: "string", default: String(DEFAULT_LONG_SESSION.tasks) },
    "tokens-per-file": { type: "string", default: String(DEFAULT_LONG_SESSION.tokensPerFile) },
    configs: { type: "string", default: "" },
    jobs: { type: "string", default: String(availableParallelism()) },
    all: { type: "boolean", default: false },
    "no-write": { type: "boolean", default: false },
    child: { type: "string" },
  },
});
const shape: LongSessionShape = {
  ...DEFAULT_LONG_SESSION,
  tasks: Number(values.tasks),
  tokensPerFile: Number(values["tokens-per-file"]),
};
/** The shape options a child gets, as given to the parent. */
const childArgs = ["--tasks", String(shape.tasks), "--tokens-per-file", String(shape.tokensPerFile)];

if (values.child !== undefined) {
  // A parent killed outright (a timeout's SIGKILL) cannot stop its children: each stops itself when the pipe
  // the parent holds open on its stdin closes.
  process.stdin.on("end", () => process.exit(1));
  process.stdin.resume();
  const [windowText, ...nameParts] = values.child.split("|");
  const name = nameParts.join("|");
  const config = CONFIGS.find((candidate) => candidate.name === name);
  if (config === undefined) throw new Error(`--child: no configuration named "${name}"`);
  const result = await run(config, Number(windowText), shape);
  process.stdout.write(`${CHILD_RESULT_PREFIX}${JSON.stringify(result)}\n`);
  process.stdin.destroy();
} else {
  await main();
}

/** Whether `config` has a row at `window`. */
function runsAt(config: Config, window: number): boolean {
  return (config.from === undefined || window >= config.from) && (config.below === undefined || window < config.below);
}

async function main(): Promise<void> {
  const wanted = values.configs === "" ? undefined : new Set(values.configs.split("|").map((name) => name.trim()));
  const configs = CONFIGS.filter((config) =>
    wanted === undefined ? values.all || config.extra !== true : wanted.has(config.name),
  );
  const windows = values.windows.split(",").map(Number);
  const jobs = Number(values.jobs);
  const stepCount = longSessionSteps(shape).length;
  console.log(
    `compaction tiers, closed loop: ${shape.tasks} prompts, ${stepCount} steps (Reads of ~${shape.tokensPerFile}-token modules, Edits needing their old_string, answers needing an early fact)`,
  );
  console.log("cost = input at cache prices (1× / write 1.25× 5m, 2× 1h / read 0.1×) + output 5×, every request");
  const runs = windows.reduce((sum, window) => sum + configs.filter((config) => runsAt(config, window)).length, 0);
  console.log(`${runs} runs, ${jobs} at a time in child processes`);
  const started = performance.now();
  // Largest window first: its runs are the longest, so the pool ends with the short ones.
  const order = windows
    .flatMap((window) => configs.filter((config) => runsAt(config, window)).map((config) => ({ window, config })))
    .sort((a, b) => b.window - a.window);
  const done = await pool(
    order.map(({ window, config }) => async () => {
      const result = await runInChild(config, window);
      console.error(`  done: ${window / 1000}K ${config.name} (${result.seconds.toFixed(1)} s)`);
      return { window, config, result };
    }),
    jobs,
  );
  const format = (value: number): string => Math.round(value).toLocaleString("en-US");
  for (const window of windows) {
    const results = new Map<string, Result>();
    for (const config of configs) {
      const found = done.find((item) => item.window === window && item.config === config);
      if (found !== undefined) results.set(config.name, found.result);
    }
    // Ratios against tiers off where it completes the session, else against autocompact only.
    const baselineName = results.get("tiers off")?.stoppedBy === "completed" ? "tiers off" : "autocompact only";
    const baseline = results.get(baselineName);
    console.log(`\nwindow ${window.toLocaleString("en-US")} (ratio: cost / cost of ${baselineName})`);
    console.log(
      `${"config".padEnd(34)}${"cost".padStart(13)}${"$".padStart(8)}${"ratio".padStart(7)}${"side cost".padStart(12)}${"calls".padStart(7)}${"re-reads".padStart(9)}${"lost".padStart(6)}${"tasks".padStart(6)}  ${"last-3 kept".padEnd(12)}outcome`,
    );
    for (const [name, result] of results) {
      const ratio = baseline === undefined ? "" : (result.cost / baseline.cost).toFixed(3);
      console.log(
        `${name.padEnd(34)}${format(result.cost).padStart(13)}${dollars(result.cost).toFixed(2).padStart(8)}${ratio.padStart(7)}${format(result.sideCost).padStart(12)}${String(result.requests).padStart(7)}${String(result.rereads).padStart(9)}${String(result.factsLost).padStart(6)}${String(result.completedTasks).padStart(6)}  ${(result.verbatimViolations === 0 ? "yes" : `no (${result.verbatimViolations})`).padEnd(12)}${result.stoppedBy} (${result.seconds.toFixed(1)} s)`,
      );
    }
    const label = `${windowLabel(window)} window`;
    for (const [name, result] of results) {
      reportResult({
        bench: "compaction-tiers",
        metric: `cost, ${stepCount} steps, ${label}, ${name}`,
        value: Math.round(result.cost),
        unit: "input-eq tokens",
        note: `${result.requests} calls, ${result.rereads} re-reads, ${result.factsLost} lost, ${result.stoppedBy}${baseline ? `, ${(result.cost / baseline.cost).toFixed(3)}× ${baselineName}` : ""}`,
      });
    }
  }
  const floorRun = done.find((item) => item.result.floor !== undefined && item.result.stoppedBy === "completed");
  const floor = floorRun?.result.floor;
  if (floor !== undefined) {
    console.log(
      `\ncost floor (keeping the last ${VERBATIM_RECENT} results verbatim), from tiers off at ${windowLabel(floorRun!.window)}: ${format(floorCost(floor))}` +
        ` = 1.25 × (${format(floor.newToolResults)} new result + ${format(floor.newOther)} other new tokens)` +
        ` + 0.1 × (${format(floor.baseReads)} tools/system + ${format(floor.keptReads)} kept-result reads) + 5 × ${format(floor.output)} output`,
    );
    for (const item of done.filter((entry) => entry.config.name === "autocompact only"))
      console.log(
        `  floor / autocompact only at ${windowLabel(item.window)}: ${(floorCost(floor) / item.result.cost).toFixed(3)}`,
      );
  }
  const standard =
    values.windows === "200000,1000000" &&
    shape.tasks === DEFAULT_LONG_SESSION.tasks &&
    shape.tokensPerFile === DEFAULT_LONG_SESSION.tokensPerFile &&
    values.configs === "";
  if (standard && !values["no-write"]) {
    await writeReadmeSection(
      "compaction-tiers",
      readmeSection(done, windows, stepCount, floorRun),
      provenanceOf(import.meta.url, process.argv.slice(2), "slow"),
    );
    console.log("\nbench/README.md: compaction-tiers section rewritten");
  } else console.log("\nbench/README.md not written (a partial run, or --no-write)");
  const lost = done.filter((item) => item.result.factsLost > 0);
  console.log(
    lost.length === 0
      ? "\nfacts lost: none, in every configuration at every window"
      : `\nfacts lost in: ${lost.map((item) => `${item.config.name} at ${windowLabel(item.window)} (${item.result.factsLost})`).join(", ")}`,
  );
  console.log(`\nwall time ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

interface Done {
  window: number;
  config: Config;
  result: Result;
}

/** The README section of a standard run: one table per window, and the cost floor with its terms. */
function readmeSection(
  done: readonly Done[],
  windows: readonly number[],
  stepCount: number,
  floorRun: Done | undefined,
): string {
  const format = (value: number): string => Math.round(value).toLocaleString("en-US");
  const lines: string[] = [
    `Written by \`node --import tsx bench/compaction-tiers.ts${values.all ? " --all" : ""}\` (${shape.tasks} prompts, ${stepCount} steps;` +
      " the emulator's counts are deterministic, so a re-run writes the same figures). Cost = input at cache prices" +
      " (uncached 1×, 5-minute write 1.25×, 1-hour write 2×, read 0.1×) + output at 5×, over every request the" +
      " emulator answered. Ratio: cost / cost of tiers off where tiers off completes the session, else / cost of" +
      ` autocompact only. "last 3 kept": every main request held the last ${VERBATIM_RECENT} tool results verbatim.` +
      " Public path (no cache editing on either side) unless labelled.",
  ];
  for (const window of windows) {
    const rows = done.filter((item) => item.window === window);
    const tiersOff = rows.find((item) => item.config.name === "tiers off");
    const baselineName = tiersOff?.result.stoppedBy === "completed" ? "tiers off" : "autocompact only";
    const baseline = rows.find((item) => item.config.name === baselineName)?.result;
    const table = rows.map(({ config, result }) => [
      config.name,
      format(result.cost),
      baseline === undefined ? "" : (result.cost / baseline.cost).toFixed(3),
      format(result.sideCost),
      String(result.rereads),
      String(result.factsLost),
      result.verbatimViolations === 0 ? "yes" : `no (${result.verbatimViolations})`,
      result.stoppedBy,
    ]);
    lines.push(
      "",
      renderMarkdownTable(
        [
          `config, ${windowLabel(window)} window`,
          "cost",
          "ratio",
          "side cost",
          "re-reads",
          "lost",
          "last 3 kept",
          "outcome",
        ],
        table,
      ),
    );
  }
  const floor = floorRun?.result.floor;
  if (floor !== undefined) {
    const total = floorCost(floor);
    const ratios = done
      .filter((item) => item.config.name === "autocompact only" || item.config.name.startsWith("defaults ("))
      .map(
        (item) =>
          `${item.config.name} at ${windowLabel(item.window)} ${(item.result.cost / total).toFixed(2)}× the floor`,
      );
    const autocompact200 = done.find((item) => item.config.name === "autocompact only" && item.window === windows[0]);
    lines.push(
      "",
      `**Cost floor** of any policy that keeps the last ${VERBATIM_RECENT} results verbatim, from the ${floor.requests}` +
        ` requests of tiers off at ${windowLabel(floorRun!.window)} (it clears nothing): each block a request adds is written once,` +
        ` 1.25 × (${format(floor.newToolResults)} tokens of new tool results + ${format(floor.newOther)} of other new blocks);` +
        ` each request reads the tools and system, 0.1 × ${format(floor.baseReads)}, and the kept results it did not add,` +
        ` 0.1 × ${format(floor.keptReads)}; output 5 × ${format(floor.output)}. Floor: ${format(total)}` +
        (autocompact200 === undefined
          ? "."
          : ` (${(total / autocompact200.result.cost).toFixed(3)}× autocompact only at ${windowLabel(autocompact200.window)}).`) +
        ` ${ratios.join("; ")}. What lies above it is clearing overhead (rewrites after a batch, results kept past the` +
        " last 3 until their batch) and re-reads.",
    );
  }
  return lines.join("\n");
}

/** "200K", "1M". */
function windowLabel(window: number): string {
  return window >= 1_000_000 && window % 1_000_000 === 0 ? `${window / 1_000_000}M` : `${window / 1000}K`;
}
