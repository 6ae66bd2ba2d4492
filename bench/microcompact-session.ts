/**
 * A 40-step tool-heavy session (each step Reads a different ~3K-token module; the closing answer needs a line
 * from the first one) on the closed-loop scripted model, per configuration: tiers off, autocompact only,
 * microcompact alone, the defaults (microcompact + autocompact), all four tiers — on the public path (no cache
 * editing on either side) —
 * and, labelled, the defaults with cache editing. Prints total cost (input at cache prices + output at 5×, over
 * every request), re-reads, facts lost and the prefix hit ratio (blocks served from the cache / blocks the
 * previous request already sent: what a cache break lowers), with ratios against tiers off from this run.
 *
 *   node --import tsx bench/microcompact-session.ts [--steps 40] [--no-write]
 *
 * A run of the default 40 steps rewrites this script's section of bench/README.md (unless --no-write).
 */
import { parseArgs } from "node:util";
import { type EmulatorRequest, flattenRequest, type RequestLogEntry, type Turn } from "@threadline/emulator";
import type { CompactionSettings } from "../src/compaction/index.js";
import { collect } from "../support/collect.js";
import { startHarness } from "../support/engine-harness.js";
import { stableRun } from "../support/stable-run.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../support/tool-heavy-session.js";
import { dollars, type SessionCost, sessionCost } from "./lib/cost.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";
import { renderMarkdownTable } from "./lib/table.js";

// A quick section CI re-runs: temp paths, uuids and the session date repeat from run to run (support/stable-run.ts).
stableRun();

const MODEL = "claude-sonnet-4-20250514";
const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;
/** The first line of the first module (see writeSourceFiles). */
const FIRST_LINE = "export function helper0_0(value: number): number { return value * 0 + 0; }";

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
  cacheEditing?: boolean;
}

const CONFIGS: Config[] = [
  { name: "tiers off", compaction: { ...OFF } },
  { name: "autocompact only", compaction: { ...OFF, autocompact: true } },
  { name: "microcompact only", compaction: { ...OFF, microcompact: true } },
  { name: "defaults", compaction: {} },
  { name: "all four", compaction: { snip: true, collapse: true } },
  { name: "defaults, batches keep 5", compaction: { batchKeepRecentToolResults: 5 } },
  { name: "defaults, batches keep 8", compaction: { batchKeepRecentToolResults: 8 } },
  { name: "defaults [cache editing]", compaction: { cacheEdits: "on" }, cacheEditing: true },
];

interface SessionFigures extends SessionCost {
  prefixHitRatio: number;
  lastRequestTokens: number;
}

function scenario(steps: number): Turn[] {
  const turns = readEachFileScenario(sourceFileNames(steps));
  turns[turns.length - 1] = {
    content: [{ type: "text", text: `Read everything; the helpers are consistent. The first one is ${FIRST_LINE}` }],
    needs: [{ text: FIRST_LINE, file: sourceFileNames(1)[0]! }],
  };
  return turns;
}

async function runSession(steps: number, config: Config): Promise<SessionFigures> {
  const harness = await startHarness(
    // Cache editing is emulator-only and announced: on only for the cache-editing rows (public path otherwise).
    { scenario: scenario(steps), cacheEditing: config.cacheEditing === true },
    {
      model: MODEL,
      sessionMemory: false,
      compaction: { cacheEdits: config.cacheEditing === true ? "on" : "off", ...config.compaction },
    },
  );
  try {
    await writeSourceFiles(harness.workspace, steps);
    await collect(harness.engine.submitMessage("Read every module, one at a time."));
    await harness.engine.idle();
    const requests = harness.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200);
    return { ...sessionCost(requests), ...prefixFigures(requests) };
  } finally {
    await harness.close();
  }
}

function prefixFigures(requests: readonly RequestLogEntry[]): { prefixHitRatio: number; lastRequestTokens: number } {
  let readBlocks = 0;
  let eligibleBlocks = 0;
  let previousBlocks = 0;
  for (const request of requests) {
    if (request.source === "summary" || request.source === "side") continue;
    readBlocks += request.cacheReadBlocks ?? 0;
    eligibleBlocks += previousBlocks;
    previousBlocks = flattenRequest(request.body as EmulatorRequest, new Set()).length;
  }
  const last = requests.at(-1)!.usage!;
  return {
    prefixHitRatio: eligibleBlocks === 0 ? 1 : readBlocks / eligibleBlocks,
    lastRequestTokens:
      last.input_tokens + (last.cache_read_input_tokens ?? 0) + (last.cache_creation_input_tokens ?? 0),
  };
}

const DEFAULT_STEPS = 40;
const { values } = parseArgs({
  options: {
    steps: { type: "string", default: String(DEFAULT_STEPS) },
    "no-write": { type: "boolean", default: false },
  },
});
const steps = Number(values.steps);
const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
console.log(`${steps}-step tool-heavy session (${MODEL}), closed loop, public path unless labelled`);
console.log("cost = input at cache prices (1× / write 1.25× / read 0.1×) + output 5×, every request");
console.log(
  `${"config".padEnd(26)}${"cost".padStart(11)}${"$".padStart(7)}${"vs off".padStart(8)}${"calls".padStart(7)}${"re-reads".padStart(9)}${"lost".padStart(6)}${"prefix hit".padStart(12)}${"last request".padStart(14)}`,
);
const results = new Map<string, SessionFigures>();
for (const config of CONFIGS) {
  const figures = await runSession(steps, config);
  results.set(config.name, figures);
  const off = results.get("tiers off")!;
  console.log(
    `${config.name.padEnd(26)}${Math.round(figures.cost).toLocaleString("en-US").padStart(11)}${dollars(figures.cost).toFixed(2).padStart(7)}${(figures.cost / off.cost).toFixed(3).padStart(8)}${String(figures.requests).padStart(7)}${String(figures.rereads).padStart(9)}${String(figures.factsLost).padStart(6)}${percent(figures.prefixHitRatio).padStart(12)}${figures.lastRequestTokens.toLocaleString("en-US").padStart(14)}`,
  );
}
const off = results.get("tiers off")!;
for (const [name, figures] of results) {
  reportResult({
    bench: "microcompact-session",
    metric: `cost, ${steps} steps, ${name}`,
    value: Math.round(figures.cost),
    unit: "input-eq tokens",
    note: `${(figures.cost / off.cost).toFixed(3)}× tiers off, ${figures.rereads} re-reads, ${figures.factsLost} lost`,
    ...(name === "defaults" ? { target: "≤ 0.8× tiers off" } : {}),
  });
}

if (steps === DEFAULT_STEPS && !values["no-write"]) {
  const rows = [...results].map(([name, figures]) => [
    name,
    Math.round(figures.cost).toLocaleString("en-US"),
    (figures.cost / off.cost).toFixed(3),
    String(figures.rereads),
    String(figures.factsLost),
    percent(figures.prefixHitRatio),
  ]);
  await writeReadmeSection(
    "microcompact-session",
    [
      `A ${steps}-step session (~3K-token reads; the closing answer needs a line of the first file; session memory`,
      "off in this script). Cost as in the compaction-tiers section;",
      "prefix hit: blocks served from the cache / blocks the previous request already sent.",
      "",
      renderMarkdownTable(["config", "cost", "vs tiers off", "re-reads", "lost", "prefix hit"], rows),
    ].join("\n"),
    provenanceOf(import.meta.url, process.argv.slice(2), "quick"),
  );
  console.log("bench/README.md: microcompact-session section rewritten");
}
