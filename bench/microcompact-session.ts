/**
 * Issue 7's measure: a 40-step tool-heavy session on the emulator with the free tiers off vs on
 * (cached path), in billed-equivalent input tokens (uncached + 1.25 × cache write + 0.1 × cache read).
 *
 * Two hit ratios are printed: the naive one (cache read tokens / all input tokens), and the prefix hit ratio
 * (blocks served from the cache / blocks the previous request already sent), which is what a cache break
 * lowers. Deleting old results makes them count zero tokens, so the naive ratio falls even though nothing
 * is rewritten; the prefix ratio shows whether the cache was ever lost.
 *
 *   node --import tsx bench/microcompact-session.ts [--steps 40]
 */
import { parseArgs } from "node:util";
import { type EmulatorRequest, flattenRequest, type RequestLogEntry } from "../src/emulator/index.js";
import { collect, startHarness } from "../test/engine/helpers.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../test/support/tool-heavy-session.js";
import { reportResult } from "./lib/result.js";

const MODEL = "claude-sonnet-4-20250514";

interface SessionFigures {
  billed: number;
  requests: number;
  naiveHitRatio: number;
  prefixHitRatio: number;
  lastRequestTokens: number;
}

async function runSession(steps: number, tiersOn: boolean): Promise<SessionFigures> {
  const harness = await startHarness(
    // Cache editing is emulator-only: the emulator announces it when the tiers are on.
    { scenario: readEachFileScenario(sourceFileNames(steps)), cacheEditing: tiersOn },
    {
      model: MODEL,
      compaction: tiersOn
        ? { cacheEdits: "on" }
        : { snip: false, microcompact: false, collapse: false, autocompact: false, cacheEdits: "off" },
    },
  );
  try {
    await writeSourceFiles(harness.workspace, steps);
    await collect(harness.engine.submitMessage("Read every module, one at a time."));
    const requests = harness.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200);
    return figures(requests);
  } finally {
    await harness.close();
  }
}

function figures(requests: readonly RequestLogEntry[]): SessionFigures {
  let billed = 0;
  let read = 0;
  let total = 0;
  let readBlocks = 0;
  let eligibleBlocks = 0;
  let previousBlocks = 0;
  for (const request of requests) {
    const usage = request.usage!;
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    const cacheWrite = usage.cache_creation_input_tokens ?? 0;
    const all = usage.input_tokens + cacheRead + cacheWrite;
    billed += usage.input_tokens + 1.25 * cacheWrite + 0.1 * cacheRead;
    read += cacheRead;
    total += all;
    // what this request could have read: every block the previous request sent
    readBlocks += request.cacheReadBlocks ?? 0;
    eligibleBlocks += previousBlocks;
    previousBlocks = flattenRequest(request.body as EmulatorRequest, new Set()).length;
  }
  const last = requests.at(-1)!.usage!;
  return {
    billed: Math.round(billed),
    requests: requests.length,
    naiveHitRatio: read / total,
    prefixHitRatio: eligibleBlocks === 0 ? 1 : readBlocks / eligibleBlocks,
    lastRequestTokens:
      last.input_tokens + (last.cache_read_input_tokens ?? 0) + (last.cache_creation_input_tokens ?? 0),
  };
}

const { values } = parseArgs({ options: { steps: { type: "string", default: "40" } } });
const steps = Number(values.steps);
const off = await runSession(steps, false);
const on = await runSession(steps, true);
const ratio = on.billed / off.billed;
const percent = (value: number) => `${(100 * value).toFixed(1)}%`;
console.log(`${steps}-step tool-heavy session (${MODEL}), billed-equivalent input tokens`);
console.log(`  tiers off: ${off.billed} over ${off.requests} requests; last request ${off.lastRequestTokens} tokens`);
console.log(`  tiers on : ${on.billed} over ${on.requests} requests; last request ${on.lastRequestTokens} tokens`);
console.log(`  ratio on/off: ${ratio.toFixed(3)} (target ≤ 0.75)`);
console.log(`  prefix hit ratio: off ${percent(off.prefixHitRatio)}, on ${percent(on.prefixHitRatio)}`);
console.log(`  naive hit ratio (read / all input): off ${percent(off.naiveHitRatio)}, on ${percent(on.naiveHitRatio)}`);
reportResult({
  bench: "microcompact-session",
  metric: `billed input, ${steps} steps, tiers off`,
  value: off.billed,
  unit: "tokens",
});
reportResult({
  bench: "microcompact-session",
  metric: `billed input, ${steps} steps, tiers on`,
  value: on.billed,
  unit: "tokens",
});
reportResult({
  bench: "microcompact-session",
  metric: "billed ratio on/off",
  value: Number(ratio.toFixed(3)),
  unit: "×",
  target: "≤ 0.75",
});
reportResult({
  bench: "microcompact-session",
  metric: "prefix cache hit ratio on (off)",
  value: Number((100 * on.prefixHitRatio).toFixed(1)),
  unit: "%",
  note: `off ${percent(off.prefixHitRatio)}`,
});
