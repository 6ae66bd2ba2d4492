/**
 * Server-side compaction vs threadline's own autocompact on the same closed-loop session (bench/lib/long-session.ts,
 * scripted model on the emulator over loopback HTTP): total cost over every request — input at cache prices plus
 * output, and for a response with `usage.iterations` every pass (the server's compaction pass included) — and the
 * facts the scripted model found missing. Own: autocompact alone (the other tiers off, so the row is the
 * mechanism itself). Server: the compact_20260112 edit (trigger 50K at the small window, the API's default 150K at
 * the large one, pause after compacting) where `serverCompaction` is declared. Prints numbers; never passes or fails.
 *
 *   node --import tsx bench/server-compaction.ts [--windows 64000,200000] [--tasks 12] [--tokens-per-file 2000]
 */
import { rm } from "node:fs/promises";
import { parseArgs } from "node:util";
import type { RequestLogEntry } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { QueryEngine } from "../src/engine/query-engine.js";
import { AnthropicProvider } from "../src/provider/index.js";
import { stableClock, stableRun } from "../support/stable-run.js";
import { makeTempDir } from "../support/temp-dir.js";
import { dollars, PRICE, requestCost } from "./lib/cost.js";
import {
  DEFAULT_LONG_SESSION,
  type LongSessionShape,
  longSessionPrompt,
  longSessionSteps,
  writeLongSessionFiles,
} from "./lib/long-session.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";

// A quick section CI re-runs: temp paths, uuids and the session date repeat from run to run (support/stable-run.ts).
stableRun();

const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false, cacheEdits: "off" } as const;

interface Row {
  mode: "own" | "server";
  window: number;
  cost: number;
  /** Input-token equivalents the server's compaction passes cost (0 for own). */
  compactionPassCost: number;
  /** Summary requests threadline made itself (autocompact, or the overflow backstop on the server row). */
  ownSummaries: number;
  /** Compaction passes the server ran. */
  serverPasses: number;
  requests: number;
  factsLost: number;
  stoppedBy: string;
}

/** One request's bill: every pass of `usage.iterations` when present (docs/API-SURFACE.md), else the top level. */
function billed(record: RequestLogEntry): { cost: number; compactionCost: number; passes: number } {
  const passes = record.usage?.iterations ?? null;
  if (passes === null || passes.length === 0) return { cost: requestCost(record), compactionCost: 0, passes: 0 };
  let cost = 0;
  let compactionCost = 0;
  let count = 0;
  for (const pass of passes) {
    const passCost =
      PRICE.input * pass.input_tokens +
      PRICE.write5m * (pass.cache_creation_input_tokens ?? 0) +
      PRICE.read * (pass.cache_read_input_tokens ?? 0) +
      PRICE.output * pass.output_tokens;
    cost += passCost;
    if (pass.type === "compaction") {
      compactionCost += passCost;
      count++;
    }
  }
  return { cost, compactionCost, passes: count };
}

async function run(mode: Row["mode"], window: number, shape: LongSessionShape): Promise<Row> {
  const workspace = await makeTempDir("bench-ws");
  await writeLongSessionFiles(workspace, shape);
  const emulator = await startEmulator({ scenario: longSessionSteps(shape), contextWindow: window });
  const server = mode === "server";
  const clock = stableClock();
  const engine = new QueryEngine({
    cwd: workspace,
    // The scenario's model (8,192 max_tokens, standard cache prices), whatever the default is.
    model: "claude-sonnet-4-6",
    ...(clock ? { now: clock } : {}),
    provider: new AnthropicProvider({
      baseURL: emulator.url,
      apiKey: "bench",
      sleep: async () => {},
      // A loopback server is `anthropic-compatible`; the server row declares betas and server-side compaction.
      ...(server ? { capabilities: { betas: true, serverCompaction: true } } : {}),
    }),
    permission: { mode: "bypassPermissions" },
    transcript: false,
    sessionMemory: false,
    contextWindow: window,
    // The same settings on both rows: where server compaction is declared the loop itself turns autocompact off
    // and keeps it only as the overflow backstop.
    compaction: { ...OFF, autocompact: true },
    serverCompaction: { triggerTokens: window < 150_000 ? 50_000 : 150_000 },
  });
  let stoppedBy = "completed";
  for (let task = 0; task < shape.tasks; task++) {
    let reason = "";
    for await (const event of engine.submitMessage(longSessionPrompt(task))) {
      if (event.type === "turn_end") reason = event.reason;
    }
    if (reason !== "completed") {
      stoppedBy = `${reason} at task ${task}`;
      break;
    }
  }
  await engine.idle();
  await engine.close();
  const row: Row = {
    mode,
    window,
    cost: 0,
    compactionPassCost: 0,
    ownSummaries: 0,
    serverPasses: 0,
    requests: 0,
    factsLost: 0,
    stoppedBy,
  };
  for (const record of emulator.requests) {
    if (record.path !== "/v1/messages" || record.usage === undefined) continue;
    const bill = billed(record);
    row.cost += bill.cost;
    row.compactionPassCost += bill.compactionCost;
    row.serverPasses += bill.passes;
    // The emulator logs a paused compaction response as a summary: only requests without a compaction pass are ours.
    if (record.source === "summary" && bill.passes === 0) row.ownSummaries++;
    row.requests++;
    row.factsLost += record.lostFacts?.length ?? 0;
  }
  await emulator.close();
  await rm(workspace, { recursive: true, force: true });
  return row;
}

const { values } = parseArgs({
  options: {
    windows: { type: "string", default: "64000,100000,200000" },
    tasks: { type: "string", default: "12" },
    "tokens-per-file": { type: "string", default: "2000" },
  },
});
const windows = values.windows.split(",").map(Number);
const shape: LongSessionShape = {
  ...DEFAULT_LONG_SESSION,
  tasks: Number(values.tasks),
  tokensPerFile: Number(values["tokens-per-file"]),
};

const rows: Row[] = [];
for (const window of windows) {
  for (const mode of ["own", "server"] as const) {
    const row = await run(mode, window, shape);
    rows.push(row);
    console.log(
      `${String(window / 1000).padStart(4)}K ${mode.padEnd(7)} cost ${Math.round(row.cost).toLocaleString("en-US").padStart(12)}` +
        ` (compaction passes ${Math.round(row.compactionPassCost).toLocaleString("en-US")})  own summaries ${row.ownSummaries}  server passes ${row.serverPasses}` +
        `  requests ${row.requests}  facts lost ${row.factsLost}  ${row.stoppedBy}`,
    );
  }
}

const fmt = (value: number) => Math.round(value).toLocaleString("en-US");
const lines = [
  "### Server-side compaction vs own autocompact (issue 32)",
  "",
  `\`node --import tsx bench/server-compaction.ts --windows ${values.windows} --tasks ${shape.tasks} --tokens-per-file ${shape.tokensPerFile}\`,`,
  "closed-loop long session on the emulator. Cost in input-token equivalents over every request (cache prices, output",
  "5×; a response with `usage.iterations` billed pass by pass, the server's compaction pass included).",
  "",
  "| window | compaction | cost | $ at $3/M | ratio to own | of which server compaction passes | own summaries | server passes | requests | facts lost | ended |",
  "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
];
for (const row of rows) {
  const own = rows.find((other) => other.window === row.window && other.mode === "own")!;
  const ratio = own.cost === 0 ? "n/a" : `${(row.cost / own.cost).toFixed(3)}×`;
  lines.push(
    `| ${row.window / 1000}K | ${row.mode === "own" ? "own autocompact" : "server (`compact_20260112`)"} | ${fmt(row.cost)} | ${dollars(row.cost).toFixed(2)} | ${ratio} | ${fmt(row.compactionPassCost)} | ${row.ownSummaries} | ${row.serverPasses} | ${row.requests} | ${row.factsLost} | ${row.stoppedBy} |`,
  );
  reportResult({
    bench: "server-compaction",
    metric: `${row.mode} compaction cost @ ${row.window / 1000}K`,
    value: Math.round(row.cost),
    unit: "input-token eq.",
    note: `${row.factsLost} facts lost, ${row.ownSummaries} own summaries, ${row.serverPasses} server passes, ${ratio} own`,
  });
}
await writeReadmeSection(
  "server-compaction",
  lines.join("\n"),
  provenanceOf(import.meta.url, process.argv.slice(2), "quick"),
);
