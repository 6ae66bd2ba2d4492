/**
 * Benchmark: cold start of `threadline -p` (spawn → the emulator receiving the first request) and the peak
 * RSS of a 40-step `-p` tool session. Runs the built CLI (`npm run build` first). Prints numbers; never passes
 * or fails on time. Targets: cold start ≤ 150 ms, peak RSS ≤ 100 MB.
 *
 * Run: node --import tsx bench/cli-cold-start.ts [runs, default 10]
 */
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import type { Turn } from "../src/emulator/index.js";
import { startEmulator } from "../src/emulator/index.js";
import { makeTempDir } from "../support/temp-dir.js";
import { median, reportResult } from "./lib/result.js";

/** Cold-start samples unless the first argument says otherwise. */
export const DEFAULT_RUNS = 10;
/** Tool steps in the memory run. */
export const SESSION_STEPS = 40;
/** Model used (in the table, not on the SDK's deprecation list). */
const MODEL = "claude-sonnet-4-20250514";

const BIN = fileURLToPath(new URL("../bin/threadline", import.meta.url));

interface Exit {
  code: number | null;
  stderr: string;
  stdout: string;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv): { done: Promise<Exit>; startedAt: number } {
  const startedAt = performance.now();
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Exit>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return { done, startedAt };
}

/** The CLI's environment against the local emulator, with its own THREADLINE_HOME. */
function cliEnv(url: string, home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "bench",
    ANTHROPIC_MODEL: MODEL,
    THREADLINE_HOME: home,
    ...extra,
  };
}

async function coldStart(
  runs: number,
  cwd: string,
  home: string,
): Promise<{ firstRequest: number[]; nodeBaseline: number[] }> {
  let received = 0;
  const emulator = await startEmulator({
    scenario: Array.from({ length: runs }, (): (() => Turn) => () => {
      received = performance.now();
      return "ok";
    }),
  });
  const env = cliEnv(emulator.url, home);
  const firstRequest: number[] = [];
  const nodeBaseline: number[] = [];
  try {
    for (let index = 0; index < runs; index++) {
      const cli = run(["-p", "hello"], cwd, env);
      const exit = await cli.done;
      if (exit.code !== 0) throw new Error(`run failed: ${exit.stderr}`);
      firstRequest.push(received - cli.startedAt);
      // The floor: a bare node process doing nothing, spawned the same way.
      const startedAt = performance.now();
      await new Promise((resolve) => spawn(process.execPath, ["-e", "0"], { stdio: "ignore" }).on("close", resolve));
      nodeBaseline.push(performance.now() - startedAt);
    }
  } finally {
    await emulator.close();
  }
  return { firstRequest, nodeBaseline };
}

async function sessionMemory(
  cwd: string,
  home: string,
  stepCount: number,
): Promise<{ maxRssKb: number; requests: number }> {
  for (let index = 0; index < 10; index++) {
    await writeFile(join(cwd, `file-${index}.ts`), `export const value${index} = ${index};\n`.repeat(200));
  }
  const steps: Turn[] = [];
  for (let index = 0; index < stepCount; index++) {
    const file = `file-${index % 10}.ts`;
    const kind = index % 3;
    const block =
      kind === 0
        ? { type: "tool_use" as const, name: "Read", input: { file_path: file } }
        : kind === 1
          ? { type: "tool_use" as const, name: "Grep", input: { pattern: `value${index % 10}`, path: "." } }
          : { type: "tool_use" as const, name: "Bash", input: { command: `wc -l ${file}` } };
    steps.push({ content: [{ type: "text", text: `Step ${index + 1}.` }, block] });
  }
  steps.push("All steps done.");
  const emulator = await startEmulator({ scenario: steps });
  const env = cliEnv(emulator.url, home, { THREADLINE_REPORT_RSS: "1" });
  try {
    const exit = await run(["-p", "do the 40 steps", "--allowedTools", "Bash"], cwd, env).done;
    if (exit.code !== 0) throw new Error(`session failed: ${exit.stderr}`);
    const match = /maxRSS (\d+) KB/.exec(exit.stderr);
    return { maxRssKb: Number(match?.[1] ?? Number.NaN), requests: emulator.stats().messagesRequests };
  } finally {
    await emulator.close();
  }
}

async function main(): Promise<void> {
  const runs = Number(process.argv[2] ?? DEFAULT_RUNS);
  const cwd = await makeTempDir("bench-cwd");
  const home = await makeTempDir("bench-home");
  try {
    const { firstRequest, nodeBaseline } = await coldStart(runs, cwd, home);
    const cold = median(firstRequest);
    const floor = median(nodeBaseline);
    console.log(`cli cold start (spawn → first request), median of ${runs}: ${cold.toFixed(0)} ms (target ≤ 150 ms)`);
    console.log(`  bare \`node -e 0\` on this machine: ${floor.toFixed(0)} ms; ratio ${(cold / floor).toFixed(2)}×`);
    const memory = await sessionMemory(cwd, home, SESSION_STEPS);
    const floorMemory = await sessionMemory(cwd, home, 0);
    console.log(
      `cli ${SESSION_STEPS}-step -p tool session: peak RSS ${(memory.maxRssKb / 1024).toFixed(1)} MB over ${memory.requests} requests (target ≤ 100 MB)`,
    );
    console.log(`  a one-request -p run (the start-up floor): ${(floorMemory.maxRssKb / 1024).toFixed(1)} MB`);
    reportResult({
      bench: "cli-cold-start",
      metric: "cold start, spawn → first request (median)",
      value: Math.round(cold),
      unit: "ms",
      target: "≤ 150 ms",
      note: `bare node ${floor.toFixed(0)} ms`,
    });
    reportResult({
      bench: "cli-cold-start",
      metric: `peak RSS, ${SESSION_STEPS}-step -p session`,
      value: Number((memory.maxRssKb / 1024).toFixed(1)),
      unit: "MB",
      target: "≤ 100 MB",
    });
  } finally {
    await rm(cwd, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}

await main();
