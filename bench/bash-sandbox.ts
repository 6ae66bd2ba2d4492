/**
 * Benchmark: what confinement costs per Bash call. The same `true` command through the Bash tool run directly
 * and under bubblewrap (ratio in one process), the read-only classification of a typical command, and the
 * redaction of a full 30,000-character tool output. Prints numbers; never passes or fails on time.
 *
 * Run: node --import tsx bench/bash-sandbox.ts [runs, default 30]
 */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { isReadOnlyCommand } from "../src/tools/shell/bash-read-only.js";
import { bashTool } from "../src/tools/shell/bash-tool.js";
import { probeSandbox } from "../src/tools/shell/sandbox.js";
import { SecretEnvironment } from "../src/tools/shell/secret-env.js";
import type { ToolContext, ToolRuntime } from "../src/tools/types.js";
import { makeTempDir } from "../support/temp-dir.js";
import { median, reportResult } from "./lib/result.js";

/** Samples of each Bash variant unless the first argument says otherwise. */
export const DEFAULT_RUNS = 30;
/** Classifications timed in one batch (one call is far below the timer's resolution). */
const CLASSIFY_BATCH = 2000;

async function timeBash(context: ToolContext, runs: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < runs; index++) {
    const started = performance.now();
    const output = await bashTool.call({ command: "true" }, context);
    samples.push(performance.now() - started);
    if (output.isError === true) throw new Error(`bash failed: ${String(output.content)}`);
  }
  return median(samples);
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? DEFAULT_RUNS);
  const cwd = await makeTempDir("bench-sandbox");
  try {
    await writeFile(join(cwd, "package.json"), "{}");
    const secrets = new SecretEnvironment({ ...process.env, BENCH_API_KEY: "bench-secret-value-0123456789" });
    const context = (runtime: ToolRuntime): ToolContext => ({
      cwd,
      additionalDirectories: [],
      signal: new AbortController().signal,
      toolUseId: "toolu_bench",
      onProgress: () => {},
      runtime,
    });
    const direct = await timeBash(context({ secrets }), runs);
    console.log(`Bash "true", direct:      median ${direct.toFixed(2)} ms over ${runs}`);
    reportResult({ bench: "bash-sandbox", metric: "Bash call, direct", value: round(direct), unit: "ms" });
    const probe = probeSandbox();
    if (probe.available) {
      const sandboxed = await timeBash(
        context({ secrets, sandbox: { bwrapPath: probe.bwrapPath, network: false } }),
        runs,
      );
      console.log(
        `Bash "true", sandboxed:   median ${sandboxed.toFixed(2)} ms (${(sandboxed / direct).toFixed(2)}x direct)`,
      );
      reportResult({
        bench: "bash-sandbox",
        metric: "Bash call, bubblewrap",
        value: round(sandboxed),
        unit: "ms",
        note: `${(sandboxed / direct).toFixed(2)}x direct`,
      });
    } else {
      console.log(`sandbox not measured: ${probe.reason}`);
    }

    const command = "git log --oneline -5 && grep -rn foo src package.json | head -20 2>/dev/null";
    const started = performance.now();
    for (let index = 0; index < CLASSIFY_BATCH; index++) isReadOnlyCommand(command, { cwd, additionalDirectories: [] });
    const classifyUs = ((performance.now() - started) / CLASSIFY_BATCH) * 1000;
    console.log(`read-only check of a 3-part command: ${classifyUs.toFixed(1)} µs`);
    reportResult({
      bench: "bash-sandbox",
      metric: "read-only check, 3-part command",
      value: round(classifyUs),
      unit: "µs",
    });

    const output = "x".repeat(29_970) + "bench-secret-value-0123456789";
    const redactStarted = performance.now();
    for (let index = 0; index < 200; index++) secrets.redact(output);
    const redactUs = ((performance.now() - redactStarted) / 200) * 1000;
    console.log(
      `redaction of a 30,000-char output (${secrets.values.length} secret values): ${redactUs.toFixed(1)} µs`,
    );
    reportResult({ bench: "bash-sandbox", metric: "redaction of 30,000 chars", value: round(redactUs), unit: "µs" });
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

await main();
