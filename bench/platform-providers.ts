/**
 * Issue 23's measure: the same tool-heavy session through the first-party, Bedrock and Vertex providers
 * against the emulator (real HTTP on loopback, fake credentials), in one process. Prints per platform the
 * median session wall time and its ratio to first-party (all three send the public-API shape: no cache edits) (the platform SDKs re-serialize every body and
 * Bedrock re-frames every event), the requests made, and the cache hit ratio (read / all input tokens).
 *
 *   node --import tsx bench/platform-providers.ts [--steps 10] [--runs 3]
 */
import { parseArgs } from "node:util";
import { type Emulator, startEmulator } from "@threadline/emulator";
import { QueryEngine } from "../src/engine/query-engine.js";
import { AnthropicProvider, BedrockProvider, type Provider, VertexProvider } from "../src/provider/index.js";

import { collect } from "../support/collect.js";
import { FAKE_AWS_ENV, FAKE_GOOGLE_ENV } from "../support/platform-env.js";
import { makeTempDir } from "../support/temp-dir.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../support/tool-heavy-session.js";
import { reportResult } from "./lib/result.js";

const MODEL = "claude-sonnet-4-6";
const sleep = async () => {};
const PLATFORMS: Record<string, (emulator: Emulator) => Provider> = {
  anthropic: (emulator) =>
    new AnthropicProvider({
      baseURL: emulator.url,
      apiKey: "bench-key",
      env: {},
      sleep,
      capabilities: { cacheEdits: false },
    }),
  bedrock: (emulator) => new BedrockProvider({ baseURL: emulator.url, env: FAKE_AWS_ENV, sleep }),
  vertex: (emulator) => new VertexProvider({ baseURL: `${emulator.url}/v1`, env: FAKE_GOOGLE_ENV, sleep }),
};

interface Figures {
  ms: number;
  requests: number;
  hitRatio: number;
}

async function runSession(platform: string, steps: number): Promise<Figures> {
  const emulator = await startEmulator({ scenario: readEachFileScenario(sourceFileNames(steps)) });
  const workspace = await makeTempDir("bench-ws");
  await writeSourceFiles(workspace, steps);
  const engine = new QueryEngine({
    cwd: workspace,
    provider: PLATFORMS[platform]!(emulator),
    permission: { mode: "bypassPermissions" },
    model: MODEL,
    transcript: false,
    sessionMemory: false,
  });
  try {
    const started = performance.now();
    await collect(engine.submitMessage("Read every module, one at a time."));
    const ms = performance.now() - started;
    let read = 0;
    let all = 0;
    const served = emulator.requests.filter((request) => request.status === 200 && request.usage !== undefined);
    for (const request of served) {
      const usage = request.usage!;
      read += usage.cache_read_input_tokens ?? 0;
      all += usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
    }
    if (emulator.stats().violations > 0) throw new Error(`${platform}: ${emulator.stats().violations} violations`);
    return { ms, requests: served.length, hitRatio: all === 0 ? 0 : read / all };
  } finally {
    await engine.close();
    await emulator.close();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

const { values } = parseArgs({
  options: { steps: { type: "string", default: "10" }, runs: { type: "string", default: "3" } },
});
const steps = Number(values.steps);
const runs = Number(values.runs);
// One warm-up session per platform loads its SDK, so the timed runs compare steady-state work.
for (const platform of Object.keys(PLATFORMS)) await runSession(platform, 2);
// Runs interleave the platforms so drift in machine load (it is shared) falls on all three alike.
const samples: Record<string, Figures[]> = Object.fromEntries(Object.keys(PLATFORMS).map((platform) => [platform, []]));
for (let run = 0; run < runs; run++) {
  for (const platform of Object.keys(PLATFORMS)) samples[platform]!.push(await runSession(platform, steps));
}
const results: Record<string, Figures> = {};
for (const [platform, list] of Object.entries(samples)) {
  results[platform] = { ...list[0]!, ms: median(list.map((sample) => sample.ms)) };
}
const baseline = results.anthropic!.ms;
console.log(`${steps}-step tool session on the emulator (${MODEL}), median of ${runs}`);
for (const [platform, figures] of Object.entries(results)) {
  console.log(
    `  ${platform.padEnd(9)} ${figures.ms.toFixed(0).padStart(6)} ms  ×${(figures.ms / baseline).toFixed(2)}  ` +
      `${figures.requests} requests, cache hit ${(100 * figures.hitRatio).toFixed(1)}%`,
  );
  reportResult({
    bench: "platform-providers",
    metric: `${steps}-step session, ${platform} / anthropic`,
    value: Number((figures.ms / baseline).toFixed(2)),
    unit: "×",
    note: `${figures.ms.toFixed(0)} ms, cache hit ${(100 * figures.hitRatio).toFixed(1)}%`,
  });
}
