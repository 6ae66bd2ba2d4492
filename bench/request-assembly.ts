/**
 * Request assembly on a long session: a 10,000-entry timeline, assembled once per turn as it grows.
 * Prints the median and p95 time per turn and the heap allocated per turn. Never fails on time.
 * Run: node --expose-gc --import tsx bench/request-assembly.ts
 */
import { createHash } from "node:crypto";
import type { MessageEntry } from "../src/messages/index.js";
import { streamingJson } from "../src/provider/index.js";
import { assembleRequest, emptyLatches, NormalizeMemo, type RequestSettings } from "../src/request/index.js";
import { MessyTimeline, TOOLS } from "../support/messy-timeline.js";
import { reportResult } from "./lib/result.js";

const TARGET_ENTRIES = 10_000;
const MEASURED_TURNS = 200;

function grow(builder: MessyTimeline, turn: number): void {
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

const builder = new MessyTimeline();
let turn = 0;
while (builder.entries.length < TARGET_ENTRIES) grow(builder, turn++);
const full: MessageEntry[] = process.argv.includes("--live")
  ? builder.entries.slice()
  : JSON.parse(JSON.stringify(builder.entries));
// Each measured turn assembles a longer prefix. A grown turn is 8 entries and prefixes step by 7, so the
// requests end at every position of a turn (after a prompt, mid tool loop, after results), not only at its end.
const prefixes: MessageEntry[][] = [];
const perTurn = 7;
for (let index = 0; index < MEASURED_TURNS; index++) {
  prefixes.push(full.slice(0, full.length - (MEASURED_TURNS - index) * perTurn));
}

const gc = (globalThis as { gc?: () => void }).gc;
for (let index = 0; index < 20; index++)
  assembleRequest({ messages: full, settings, latches: emptyLatches(), pins: [] });

interface Run {
  times: number[];
  allocations: number[];
  /** Turning the request into the bytes sent: UTF-8 of the streaming JSON (what the HTTP layer does). */
  encode: number[];
  /** What the SDK did before threadline handed it the bytes: JSON.stringify of the body object. */
  stringify: number[];
  bytes: number;
  /** SHA-256 of each turn's bytes: keeping 200 megabyte-long strings alive would make every gc() trace them. */
  hashes: string[];
}

/** Assembles every prefix in order, as a session's turns do; with a memo, closed turns are reused. */
function measure(memo: NormalizeMemo | undefined): Run {
  const run: Run = { times: [], allocations: [], encode: [], stringify: [], bytes: 0, hashes: [] };
  for (const messages of prefixes) {
    gc?.();
    const heapBefore = process.memoryUsage().heapUsed;
    const start = process.hrtime.bigint();
    const output = assembleRequest({
      messages,
      settings,
      latches: emptyLatches(),
      pins: [],
      ...(memo ? { memo } : {}),
    });
    const elapsed = Number(process.hrtime.bigint() - start) / 1e6;
    run.allocations.push(process.memoryUsage().heapUsed - heapBefore);
    run.times.push(elapsed);
    run.bytes = output.request.json.length;
    run.hashes.push(createHash("sha256").update(output.request.json).digest("hex"));
    const encodeStart = process.hrtime.bigint();
    Buffer.from(streamingJson(output.request), "utf8");
    run.encode.push(Number(process.hrtime.bigint() - encodeStart) / 1e6);
    const stringifyStart = process.hrtime.bigint();
    JSON.stringify({ ...output.request.body, stream: true });
    run.stringify.push(Number(process.hrtime.bigint() - stringifyStart) / 1e6);
  }
  return run;
}

const sorted = (values: number[]) => values.slice().sort((left, right) => left - right);
const percentile = (values: number[], p: number) =>
  sorted(values)[Math.min(values.length - 1, Math.floor(values.length * p))]!;
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);

const baseline = measure(undefined);
const incremental = measure(new NormalizeMemo());
const identical = baseline.hashes.every((hash, index) => hash === incremental.hashes[index]);
const median = percentile(incremental.times, 0.5);
const baselineMedian = percentile(baseline.times, 0.5);
console.log(
  `request-assembly: ${full.length} entries, ${prefixes.length} turns, request ${(incremental.bytes / 1024).toFixed(0)} KiB`,
);
console.log(
  `  from scratch:      median ${baselineMedian.toFixed(2)} ms/turn, p95 ${percentile(baseline.times, 0.95).toFixed(2)} ms, allocation ${mib(percentile(baseline.allocations, 0.5))} MiB/turn`,
);
console.log(
  `  with session memo: median ${median.toFixed(2)} ms/turn, p95 ${percentile(incremental.times, 0.95).toFixed(2)} ms, allocation ${mib(percentile(incremental.allocations, 0.5))} MiB/turn (target ≤ 5 ms)`,
);
console.log(`  ratio ${(median / baselineMedian).toFixed(3)}; bytes identical to from-scratch: ${identical}`);
const encodeMedian = percentile(incremental.encode, 0.5);
console.log(
  `  sending: UTF-8 bytes of the assembled JSON ${encodeMedian.toFixed(2)} ms/turn (the JSON is built as linked pieces and becomes flat here); the SDK's JSON.stringify of the body, which this replaces, ${percentile(incremental.stringify, 0.5).toFixed(2)} ms/turn`,
);
if (!gc) console.log("  (run with --expose-gc for stable allocation numbers)");
reportResult({
  bench: "request-assembly",
  metric: `median per turn @ ${full.length} entries (session memo)`,
  value: Number(median.toFixed(2)),
  unit: "ms",
  target: "≤ 5 ms",
  note: `from scratch ${baselineMedian.toFixed(1)} ms; identical bytes: ${identical}`,
});
reportResult({
  bench: "request-assembly",
  metric: "assembly + UTF-8 bytes per turn (median, session memo)",
  value: Number((median + encodeMedian).toFixed(2)),
  unit: "ms",
  note: `SDK JSON.stringify it replaces: ${percentile(incremental.stringify, 0.5).toFixed(1)} ms`,
});
reportResult({
  bench: "request-assembly",
  metric: "allocation per turn (median, session memo)",
  value: Number(mib(percentile(incremental.allocations, 0.5))),
  unit: "MiB",
});
