/**
 * Compaction tiers on a model that binds thinking to its prefix (Opus 5.5, thinking on every turn), the client's
 * against the server's, on the same closed-loop session (bench/lib/long-session.ts with a thinking block opening
 * every answer; scripted model on the emulator over loopback HTTP). Every row asks for `drop_block` (threadline's
 * policy on these models, docs/THINKING-BINDING.md), so a rewrite costs no 400; the bill shows what each tier costs
 * and how much reasoning the server dropped because a tier rewrote history before it. Cost in input-token
 * equivalents over every request: uncached input 1×, cache writes 1.25×, cache reads at Opus 5.5's 0.05×, output
 * 5×, a response with `usage.iterations` billed pass by pass. Prints numbers; never passes or fails.
 *
 *   node --import tsx bench/thinking-binding.ts [--window 100000] [--tasks 12] [--tokens-per-file 2000]
 */
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { RequestLogEntry, TurnObject } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { QueryEngine } from "../src/engine/query-engine.js";
import { AnthropicProvider } from "../src/provider/index.js";
import { stableClock, stableRun } from "../support/stable-run.js";
import { makeTempDir } from "../support/temp-dir.js";
import {
  DEFAULT_LONG_SESSION,
  type LongSessionShape,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "./lib/long-session.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";

stableRun();

const MODEL = "claude-opus-5-5";
/** Opus 5.5's prices relative to one uncached input token (docs/MODELS.md): reads 0.05×, output 5×. */
const PRICE = { input: 1, write5m: 1.25, read: 0.05, output: 5 } as const;

interface Mode {
  name: string;
  compaction: Record<string, unknown>;
  capabilities: Record<string, boolean>;
}
const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false, cacheEdits: "off" } as const;
const MODES: readonly Mode[] = [
  { name: "client tiers (defaults)", compaction: {}, capabilities: { betas: true } },
  { name: "own autocompact only", compaction: { ...OFF, autocompact: true }, capabilities: { betas: true } },
  {
    name: "server clearing + own autocompact",
    compaction: { ...OFF, microcompact: true, autocompact: true, serverClearToolUses: true },
    capabilities: { betas: true, contextManagement: true },
  },
  {
    name: "server compaction (`compact_20260112`)",
    compaction: { ...OFF, autocompact: true },
    capabilities: { betas: true, serverCompaction: true },
  },
];

interface Row {
  mode: string;
  cost: number;
  requests: number;
  refused: number;
  thinkingDropped: number;
  factsLost: number;
  ended: string;
}

/** The long session with a thinking block opening every answer. */
function thinkingSteps(shape: LongSessionShape): TurnObject[] {
  return longSessionSteps(shape).map((step, index) => ({
    ...step,
    content: [{ type: "thinking", thinking: `Step ${index}: what the task needs next, and why.` }, ...step.content],
  }));
}

function bill(record: RequestLogEntry): number {
  const usage = record.usage;
  if (usage === undefined) return 0;
  const passes = usage.iterations ?? [];
  const parts = passes.length > 0 ? passes : [usage];
  let cost = 0;
  for (const part of parts)
    cost +=
      PRICE.input * part.input_tokens +
      PRICE.write5m * (part.cache_creation_input_tokens ?? 0) +
      PRICE.read * (part.cache_read_input_tokens ?? 0) +
      PRICE.output * part.output_tokens;
  return cost;
}

async function run(mode: Mode, window: number, shape: LongSessionShape): Promise<Row> {
  const workspace = await makeTempDir("bench-ws");
  await writeLongSessionFiles(workspace, shape);
  const emulator = await startEmulator({ scenario: thinkingSteps(shape), contextWindow: window });
  const clock = stableClock();
  const engine = new QueryEngine({
    cwd: workspace,
    model: MODEL,
    ...(clock ? { now: clock } : {}),
    provider: new AnthropicProvider({
      baseURL: emulator.url,
      apiKey: "bench",
      sleep: async () => {},
      capabilities: mode.capabilities,
    }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    sessionMemory: false,
    contextWindow: window,
    compaction: mode.compaction,
    serverCompaction: { triggerTokens: 50_000 },
  });
  let ended = "completed";
  for (let task = 0; task < shape.tasks; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(longSessionPrompt(task))) {
      if (event.type === "turn_end") reason = event.reason;
    }
    if (reason !== "completed") {
      ended = `${reason} at task ${task}`;
      break;
    }
  }
  await engine.idle();
  await engine.close();
  const row: Row = { mode: mode.name, cost: 0, requests: 0, refused: 0, thinkingDropped: 0, factsLost: 0, ended };
  for (const record of emulator.requests) {
    if (record.path !== "/v1/messages") continue;
    if (record.status !== 200) row.refused++;
    row.cost += bill(record);
    row.requests++;
    row.thinkingDropped += (record.inputTransformations ?? []).length;
    row.factsLost += record.lostFacts?.length ?? 0;
  }
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return row;
}

const { values } = parseArgs({
  options: {
    window: { type: "string", default: "100000" },
    tasks: { type: "string", default: "12" },
    "tokens-per-file": { type: "string", default: "2000" },
  },
});
const window = Number(values.window);
const shape: LongSessionShape = {
  ...DEFAULT_LONG_SESSION,
  tasks: Number(values.tasks),
  tokensPerFile: Number(values["tokens-per-file"]),
};
const rows: Row[] = [];
for (const mode of MODES) {
  const row = await run(mode, window, shape);
  rows.push(row);
  console.log(
    `${mode.name.padEnd(40)} cost ${Math.round(row.cost).toLocaleString("en-US").padStart(10)}  requests ${row.requests}` +
      `  refused ${row.refused}  thinking dropped ${row.thinkingDropped}  facts lost ${row.factsLost}  ${row.ended}`,
  );
}
const fmt = (value: number) => Math.round(value).toLocaleString("en-US");
const base = rows[0]!.cost;
const lines = [
  "### Compaction tiers on a model that binds thinking (issue 55)",
  "",
  `\`node --import tsx bench/thinking-binding.ts --window ${window} --tasks ${shape.tasks} --tokens-per-file ${shape.tokensPerFile}\`:`,
  `${MODEL} (thinking opens every answer), window ${window / 1000}K, closed-loop long session on the emulator, every`,
  "request asking for `drop_block`. Cost in input-token equivalents over every request (reads at Opus 5.5's 0.05×,",
  'writes 1.25×, output 5×; server compaction passes included). "Thinking dropped": blocks the emulator removed',
  "because a tier rewrote history before them, summed over requests (the same block counts on every request after).",
  "",
  "| tiers | cost | ratio to client tiers | requests | refused | thinking dropped | facts lost | ended |",
  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
  ...rows.map(
    (row) =>
      `| ${row.mode} | ${fmt(row.cost)} | ${(row.cost / base).toFixed(3)}× | ${row.requests} | ${row.refused} | ${fmt(row.thinkingDropped)} | ${row.factsLost} | ${row.ended} |`,
  ),
];
await writeReadmeSection(
  "thinking-binding",
  lines.join("\n"),
  provenanceOf(import.meta.url, process.argv.slice(2), "slow"),
);
