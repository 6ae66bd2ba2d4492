/**
 * Bad input, full size: the three fuzzers of test/reliability with many more runs — transcript loader, tool
 * inputs through runTool, and malformed server streams to the real AnthropicProvider. Each must find nothing.
 *
 *   node --import tsx bench/fuzz.ts [--runs 3000]
 */
import { fuzzServerResponses } from "../support/reliability/fuzz-sse.js";
import { fuzzToolInputs } from "../support/reliability/fuzz-tools.js";
import { checkHugeLines, fuzzTranscriptLoader } from "../support/reliability/fuzz-transcript.js";
import { reportResult } from "./lib/result.js";

/** Runs per property in the full run (the server fuzzer, which does real HTTP, gets a third of it). */
export const DEFAULT_RUNS = 3_000;

async function measure(name: string, runs: number, body: () => Promise<string>): Promise<void> {
  const started = performance.now();
  try {
    const detail = await body();
    const seconds = (performance.now() - started) / 1000;
    console.log(`ok   ${name}: ${runs} runs, ${detail}, ${seconds.toFixed(1)} s`);
    reportResult({
      bench: "fuzz",
      metric: `${name}: failing inputs`,
      value: 0,
      unit: "",
      target: "0",
      note: `${runs} runs; ${detail}`,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.log(`FAIL ${name}: ${message.slice(0, 2000)}`);
    reportResult({
      bench: "fuzz",
      metric: `${name}: failing inputs`,
      value: 1,
      unit: "",
      target: "0",
      note: message.split("\n")[0]?.slice(0, 160) ?? "",
    });
  }
}

async function main(): Promise<void> {
  const index = process.argv.indexOf("--runs");
  const runs = index === -1 ? DEFAULT_RUNS : Number(process.argv[index + 1]);
  await measure("transcript loader", runs, async () => {
    await fuzzTranscriptLoader(runs);
    const huge = await checkHugeLines(32);
    if (huge.length > 0) throw new Error(`32 MB lines: ${huge.join("; ")}`);
    return "plus 32 MB lines";
  });
  await measure("tool inputs (runTool)", runs, async () => {
    const tally = await fuzzToolInputs(runs);
    return `${tally.succeeded} ran, ${tally.refused} refused`;
  });
  const serverRuns = Math.ceil(runs / 3);
  await measure("server responses (SSE)", serverRuns, async () => {
    const tally = await fuzzServerResponses(serverRuns);
    return `${tally.completed} completed, ${tally.errors} clear errors`;
  });
}

await main();
