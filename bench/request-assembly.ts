/**
 * Request assembly on a long session: a 10,000-entry timeline, assembled once per turn as it grows.
 * Prints the median and p95 time per turn and the heap allocated per turn. Never fails on time.
 * Run: node --expose-gc --import tsx bench/request-assembly.ts
 */
import type { MessageEntry } from "../src/messages/index.js";
import { assembleRequest, emptyLatches, type RequestSettings } from "../src/request/index.js";
import { TimelineBuilder, TOOLS } from "../test/request/messy-timeline.js";
import { reportResult } from "./lib/result.js";

const TARGET_ENTRIES = 10_000;
const MEASURED_TURNS = 200;

function grow(builder: TimelineBuilder, turn: number): void {
  builder.apply({ kind: "user", text: `turn ${turn}: please look at the next file`, meta: false });
  builder.apply({ kind: "attachment", text: `file f${turn} changed` });
  builder.apply({
    kind: "response",
    thinking: 1,
    redacted: false,
    text: "Let me read it.",
    tools: 2,
    cutAfter: undefined,
  });
  builder.apply({
    kind: "results",
    answer: 0,
    shuffle: false,
    error: false,
    image: false,
    orphan: false,
    reminder: true,
  });
  builder.apply({
    kind: "response",
    thinking: 0,
    redacted: false,
    text: "Done: the file looks fine.",
    tools: 0,
    cutAfter: undefined,
  });
}

const settings: RequestSettings = {
  model: "claude-sonnet-4-5",
  systemPrompt: ["You are threadline, a coding agent.", "Environment: linux, node 20"],
  tools: TOOLS,
  thinking: { type: "enabled", budgetTokens: 4_000 },
  snipTags: true,
  cacheEditing: true,
};

const builder = new TimelineBuilder();
let turn = 0;
while (builder.entries.length < TARGET_ENTRIES) grow(builder, turn++);
const full: MessageEntry[] = process.argv.includes("--live")
  ? builder.entries.slice()
  : JSON.parse(JSON.stringify(builder.entries));
// Each measured turn assembles a prefix that ends at a turn boundary, as the loop does.
const prefixes: MessageEntry[][] = [];
const perTurn = 7;
for (let index = 0; index < MEASURED_TURNS; index++) {
  prefixes.push(full.slice(0, full.length - (MEASURED_TURNS - index) * perTurn));
}

const gc = (globalThis as { gc?: () => void }).gc;
for (let index = 0; index < 20; index++)
  assembleRequest({ messages: full, settings, latches: emptyLatches(), pins: [] });

const times: number[] = [];
const allocations: number[] = [];
let bytes = 0;
for (const messages of prefixes) {
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const start = process.hrtime.bigint();
  const output = assembleRequest({ messages, settings, latches: emptyLatches(), pins: [] });
  const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
  allocations.push(process.memoryUsage().heapUsed - heapBefore);
  times.push(elapsed);
  bytes = output.request.json.length;
}
const sorted = (values: number[]) => values.slice().sort((left, right) => left - right);
const percentile = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
console.log(
  `request-assembly: ${full.length} entries, ${prefixes.length} turns, request ${(bytes / 1024).toFixed(0)} KiB`,
);
console.log(
  `  median ${percentile(times, 0.5).toFixed(2)} ms/turn, p95 ${percentile(times, 0.95).toFixed(2)} ms/turn (target ≤ 5 ms)`,
);
console.log(
  `  allocation median ${(percentile(allocations, 0.5) / 1024 / 1024).toFixed(2)} MiB/turn${gc ? "" : " (run with --expose-gc for stable numbers)"}`,
);
reportResult({
  bench: "request-assembly",
  metric: `median per turn @ ${full.length} entries`,
  value: Number(percentile(times, 0.5).toFixed(2)),
  unit: "ms",
  target: "≤ 5 ms",
});
reportResult({
  bench: "request-assembly",
  metric: "allocation per turn (median)",
  value: Number((percentile(allocations, 0.5) / 1024 / 1024).toFixed(2)),
  unit: "MiB",
});
