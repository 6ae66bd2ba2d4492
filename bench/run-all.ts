/**
 * Runs every known benchmark in its own child process, one after another (the machines have two cores),
 * collects their `RESULT {...}` lines, prints one table and writes it into its section of bench/README.md
 * (`<!-- bench:run-all -->`, through writeReadmeSection) with the machine's description. A script that is
 * missing, fails, or prints no result gets a row saying so; the others go on. Scripts with tables of their own
 * (compaction-tiers, microcompact-session) rewrite their own sections as they run.
 *
 *   npm run bench            (= npm run build && node --expose-gc --import tsx bench/run-all.ts)
 *   node --expose-gc --import tsx bench/run-all.ts [--only soak,crash] [--no-write]   (--only never writes)
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeMachine, formatMachine } from "./lib/machine.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { type BenchResult, parseResultLine } from "./lib/result.js";
import { renderTable, type TableRow } from "./lib/table.js";

const BENCH_DIRECTORY = dirname(fileURLToPath(import.meta.url));
/** A script still running after this long is stopped and reported as failed. */
const DEFAULT_SCRIPT_TIMEOUT_MS = 5 * 60_000;

interface KnownBench {
  name: string;
  args?: string[];
  /** Longer limit for a script that is slow by design. Default `DEFAULT_SCRIPT_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** For scripts that print human lines only: turns their output into results. */
  adapt?: (output: string) => BenchResult[];
}

/** Every benchmark, in table order. */
export const KNOWN_BENCHES: readonly KnownBench[] = [
  { name: "pipeline-overhead" },
  { name: "request-assembly" },
  { name: "request-contract", timeoutMs: 20 * 60_000 },
  { name: "resume", adapt: adaptResume },
  { name: "inspect", adapt: adaptInspect },
  { name: "cli-cold-start" },
  { name: "bash-sandbox" },
  // 14 runs of a 220-step session, two of them at a 1M window: ~6.5 min on 2 loaded cores.
  { name: "compaction-tiers", timeoutMs: 20 * 60_000 },
  { name: "microcompact-session" },
  // Two runs of a 40-step session (tiers off, defaults): ~25 s.
  { name: "exploration-session" },
  // 63 runs: 7 windows × 3 result sizes × 3 configurations, in child processes (issue 28).
  { name: "compaction-pressure", timeoutMs: 20 * 60_000 },
  { name: "memory-session" },
  { name: "soak" },
  { name: "crash" },
  { name: "pg-load", timeoutMs: 10 * 60_000 },
  { name: "fuzz" },
  // A 90 MB upload three times, plus two short sessions: ~15 s.
  { name: "api-surface" },
  { name: "mcp-session" },
  // Six runs of a 108-step session (own autocompact vs server-side compaction at 64K, 100K, 200K): ~10 s.
  { name: "server-compaction" },
  // The built-in tools block deferred vs loaded, counted by the emulator: ~2 s.
  { name: "tools-block" },
];

function numberAfter(text: string, pattern: RegExp): number | undefined {
  const match = pattern.exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** bench/resume.ts prints `total N ms wall, M ms CPU` and `peak RSS N MB`. */
function adaptResume(output: string): BenchResult[] {
  const results: BenchResult[] = [];
  const size = /generated ([\d.]+) MB/.exec(output)?.[1] ?? "100";
  const wall = numberAfter(output, /total\s+(\d+) ms wall/);
  const cpu = numberAfter(output, /ms wall, (\d+) ms CPU/);
  const rss = numberAfter(output, /peak RSS\s+(\d+) MB/);
  if (wall !== undefined)
    results.push({
      bench: "resume",
      metric: `resume time, ${size} MB transcript`,
      value: wall,
      unit: "ms",
      target: "< 1500 ms",
      note: `${cpu ?? "?"} ms CPU`,
    });
  if (rss !== undefined)
    results.push({
      bench: "resume",
      metric: `peak RSS, ${size} MB transcript`,
      value: rss,
      unit: "MB",
      target: "< 400 MB",
    });
  return results;
}

/** bench/inspect.ts prints `inspect: N MB, …` and `exit code C, S s (…), peak RSS N MB`. */
function adaptInspect(output: string): BenchResult[] {
  const size = /inspect: ([\d.]+) MB/.exec(output)?.[1] ?? "100";
  const seconds = numberAfter(output, /exit code \d+, ([\d.]+) s/);
  const rss = numberAfter(output, /peak RSS (\d+) MB/);
  const results: BenchResult[] = [];
  if (seconds !== undefined)
    results.push({
      bench: "inspect",
      metric: `inspect time, ${size} MB transcript`,
      value: Math.round(seconds * 1000),
      unit: "ms",
    });
  if (rss !== undefined)
    results.push({ bench: "inspect", metric: `inspect peak RSS, ${size} MB transcript`, value: rss, unit: "MB" });
  return results;
}

interface ScriptOutcome {
  results: BenchResult[];
  /** Why there are no results, when there are none. */
  failure?: string;
  seconds: number;
}

/** Runs one script in a child, echoing its human lines, and collects its RESULT lines. */
function runScript(bench: KnownBench): Promise<ScriptOutcome> {
  const script = join(BENCH_DIRECTORY, `${bench.name}.ts`);
  const started = performance.now();
  if (!existsSync(script)) return Promise.resolve({ results: [], failure: "missing", seconds: 0 });
  const limit = bench.timeoutMs ?? DEFAULT_SCRIPT_TIMEOUT_MS;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--expose-gc", "--import", "tsx", script, ...(bench.args ?? [])], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    let errors = "";
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, limit);
    child.stdout.on("data", (chunk: Buffer) => {
      const text = chunk.toString("utf8");
      output += text;
      for (const line of text.split("\n"))
        if (line !== "" && !line.startsWith("RESULT ")) console.log(`  [${bench.name}] ${line}`);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      errors += chunk.toString("utf8");
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      let results = output.split("\n").flatMap((line) => {
        const result = parseResultLine(line.trim());
        return result === undefined ? [] : [result];
      });
      if (results.length === 0 && bench.adapt !== undefined) results = bench.adapt(output);
      if (timedOut) resolve({ results, failure: `timed out after ${limit / 60_000} min`, seconds });
      else if (code !== 0) {
        const reason = lastMeaningfulLine(errors) ?? `exit ${code ?? signal}`;
        resolve({ results, failure: reason, seconds });
      } else if (results.length === 0) resolve({ results, failure: "no RESULT lines", seconds });
      else resolve({ results, seconds });
    });
  });
}

/** The error line of a crashed script (the first line that names an error), shortened. */
function lastMeaningfulLine(stderr: string): string | undefined {
  const lines = stderr.split("\n").map((line) => line.trim());
  const named = lines.find((line) => /^[A-Za-z]*Error\b|^Error:/.test(line)) ?? lines.find((line) => line !== "");
  return named?.slice(0, 140);
}

async function main(): Promise<void> {
  const onlyIndex = process.argv.indexOf("--only");
  const only = onlyIndex === -1 ? undefined : new Set((process.argv[onlyIndex + 1] ?? "").split(","));
  const write = !process.argv.includes("--no-write");
  const machine = describeMachine();
  console.log(`threadline benchmarks on ${formatMachine(machine)}`);
  const rows: TableRow[] = [];
  const durations: string[] = [];
  const started = performance.now();
  for (const bench of KNOWN_BENCHES) {
    if (only !== undefined && !only.has(bench.name)) continue;
    console.log(`\n▶ ${bench.name}`);
    const outcome = await runScript(bench);
    for (const result of outcome.results) rows.push({ kind: "result", result });
    if (outcome.failure !== undefined) {
      const reason = outcome.failure === "missing" ? "missing" : `failed: ${outcome.failure}`;
      if (outcome.results.length === 0 || outcome.failure !== "missing")
        rows.push({ kind: "absent", bench: bench.name, reason });
    }
    durations.push(`${bench.name} ${outcome.seconds.toFixed(0)} s`);
  }
  const totalMinutes = (performance.now() - started) / 60_000;
  const table = renderTable(rows);
  console.log(`\n${table}\n\n${durations.join(", ")}; total ${totalMinutes.toFixed(1)} min`);
  if (write && only === undefined) {
    const body = [
      `Written by \`npm run bench\` (bench/run-all.ts), run ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
      `on ${formatMachine(machine)}. Script times: ${durations.join(", ")}; total ${totalMinutes.toFixed(1)} min.`,
      "",
      table,
    ].join("\n");
    await writeReadmeSection("run-all", body, provenanceOf(import.meta.url, process.argv.slice(2), "slow"));
  } else if (only !== undefined) console.log("bench/README.md not written (--only runs a part of the table)");
}

await main();
