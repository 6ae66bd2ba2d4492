/**
 * Benchmark (issue 44): how long a person waits for threadline, and what a process holds.
 *
 * - Start-up: spawn → the first request's bytes reaching the server (the emulator logs each request's arrival,
 *   `receivedAt`), for `threadline -p`, and spawn → the interactive banner (the prompt is read right after it).
 *   Each is a ratio to baselines spawned the same way in the same run, interleaved so they share the machine's
 *   load: a bare `node -e 0` (spawn → exit), and a bare node process that POSTs one request with node:http
 *   (spawn → arrival: the floor any Node client pays before its first byte).
 * - Memory: peak RSS (`THREADLINE_REPORT_RSS`) of a 40-step `-p` tool session, against a one-request `-p` run
 *   and a bare node process in the same run, and the stated target.
 *
 * - `--against REF`: the same measurements of another commit, built in a temporary worktree
 *   (bench/lib/previous-build.ts), the two builds alternating run by run, so "before" and "after" share the
 *   machine's load; each figure of this tree is also given as a ratio to the other's.
 *
 * Timings are not deterministic: the section is `slow` (dated, not re-run by CI). Runs the built CLI
 * (`npm run build` first). Prints numbers; never passes or fails on time.
 *
 * Run: node --import tsx bench/cli-cold-start.ts [--runs N] [--against REF]   (default 15 runs; another N is a
 * partial run that prints and writes nothing)
 */
import { spawn } from "node:child_process";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Turn } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { makeTempDir } from "../support/temp-dir.js";
import { buildPrevious, type PreviousBuild } from "./lib/previous-build.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { median, reportResult } from "./lib/result.js";

/** Start-up samples of each kind (interleaved). */
export const DEFAULT_RUNS = 15;
/** Tool steps in the memory run. */
export const SESSION_STEPS = 40;
/** Memory runs of each kind per build (peak RSS moves by a megabyte or two between runs). */
const RSS_RUNS = 3;
/** The issue's goals. */
const FIRST_REQUEST_TARGET_MS = 100;
const PEAK_RSS_TARGET_MB = 80;
/** Model used (in the table, not on the SDK's deprecation list). */
const MODEL = "claude-sonnet-4-20250514";

const BIN = fileURLToPath(new URL("../bin/threadline", import.meta.url));

interface Exit {
  code: number | null;
  stderr: string;
  stdout: string;
}

interface Started {
  done: Promise<Exit>;
  /** Date.now() just before the spawn: the emulator logs arrivals on the same clock. */
  spawnedAt: number;
  /** Resolves with Date.now() when stdout first contains `marker`. */
  saw: (marker: string) => Promise<number>;
  closeInput: () => void;
}

function start(argv: string[], cwd: string, env: NodeJS.ProcessEnv, input = false): Started {
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, argv, { cwd, env, stdio: [input ? "pipe" : "ignore", "pipe", "pipe"] });
  if (child.stdout === null || child.stderr === null) throw new Error("spawned without pipes");
  let stdout = "";
  let stderr = "";
  const watchers: { marker: string; resolve: (at: number) => void }[] = [];
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    const now = Date.now();
    for (const watcher of watchers.splice(0))
      if (stdout.includes(watcher.marker)) watcher.resolve(now);
      else watchers.push(watcher);
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const done = new Promise<Exit>((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
  return {
    done,
    spawnedAt,
    saw: (marker) => new Promise((resolve) => watchers.push({ marker, resolve })),
    closeInput: () => child.stdin?.end(),
  };
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

/** A bare node client: one POST with node:http, nothing loaded before it. */
function bareClient(url: string): string[] {
  const script = `require("node:http").request(${JSON.stringify(`${url}/v1/messages`)},{method:"POST",headers:{"content-type":"application/json"}},(r)=>{r.resume();r.on("end",()=>process.exit(0))}).end("{}")`;
  return ["-e", script];
}

/** A build of the CLI being measured: this tree's, or another commit's (`--against`). */
interface Build {
  label: string;
  bin: string;
}

interface BuildSamples {
  printRequest: number[];
  interactiveReady: number[];
}

interface StartUpSamples {
  bareExit: number[];
  bareRequest: number[];
  builds: BuildSamples[];
}

async function startUp(runs: number, cwd: string, home: string, builds: readonly Build[]): Promise<StartUpSamples> {
  const emulator = await startEmulator({ scenario: Array.from({ length: runs * builds.length }, (): Turn => "ok") });
  const env = cliEnv(emulator.url, home);
  const samples: StartUpSamples = {
    bareExit: [],
    bareRequest: [],
    builds: builds.map(() => ({ printRequest: [], interactiveReady: [] })),
  };
  const arrivalAfter = (count: number) => {
    const entry = emulator.requests[count];
    if (entry === undefined) throw new Error(`request ${count + 1} never arrived`);
    return entry.receivedAt;
  };
  try {
    for (let index = 0; index < runs; index++) {
      const bare = start(["-e", "0"], cwd, env);
      await bare.done;
      samples.bareExit.push(Date.now() - bare.spawnedAt);

      const before = emulator.requests.length;
      const client = start(bareClient(emulator.url), cwd, env);
      await client.done; // a 400 answer, logged on arrival
      samples.bareRequest.push(arrivalAfter(before) - client.spawnedAt);

      // Builds take turns going first, so neither always runs right after the baselines.
      for (let offset = 0; offset < builds.length; offset++) {
        const which = (index + offset) % builds.length;
        const { bin } = builds[which]!;
        const into = samples.builds[which]!;
        const printed = emulator.requests.length;
        const cli = start([bin, "-p", "hello"], cwd, env);
        const exit = await cli.done;
        if (exit.code !== 0) throw new Error(`-p run failed: ${exit.stderr}`);
        into.printRequest.push(arrivalAfter(printed) - cli.spawnedAt);

        // Without a terminal the REPL prints its banner ("Session <id> · …") and then reads the first prompt.
        const repl = start([bin], cwd, env, true);
        const ready = await repl.saw("Session ");
        into.interactiveReady.push(ready - repl.spawnedAt);
        repl.closeInput();
        const closed = await repl.done;
        if (closed.code !== 0) throw new Error(`interactive run failed: ${closed.stderr}`);
      }
    }
  } finally {
    await emulator.close();
  }
  return samples;
}

async function peakRss(
  bin: string,
  cwd: string,
  home: string,
  stepCount: number,
): Promise<{ mb: number; requests: number }> {
  for (let index = 0; index < 10; index++)
    await writeFile(join(cwd, `file-${index}.ts`), `export const value${index} = ${index};\n`.repeat(200));
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
    const exit = await start([bin, "-p", `do the ${stepCount} steps`, "--allowedTools", "Bash"], cwd, env).done;
    if (exit.code !== 0) throw new Error(`session failed: ${exit.stderr}`);
    const kilobytes = Number(/maxRSS (\d+) KB/.exec(exit.stderr)?.[1] ?? Number.NaN);
    return { mb: kilobytes / 1024, requests: emulator.stats().messagesRequests };
  } finally {
    await emulator.close();
  }
}

/** Peak RSS of a bare node process, read the same way (resourceUsage, in kilobytes). */
async function bareRss(cwd: string): Promise<number> {
  const script = `process.stdout.write(String(process.resourceUsage().maxRSS))`;
  const exit = await start(["-e", script], cwd, process.env).done;
  return Number(exit.stdout) / 1024;
}

/** Median peak RSS of `RSS_RUNS` sessions of `stepCount` steps per build, the builds alternating. */
async function medianRss(
  builds: readonly Build[],
  cwd: string,
  home: string,
  stepCount: number,
): Promise<{ mb: number; requests: number }[]> {
  const runs = builds.map(() => ({ mb: [] as number[], requests: 0 }));
  for (let index = 0; index < RSS_RUNS; index++)
    for (let offset = 0; offset < builds.length; offset++) {
      const which = (index + offset) % builds.length;
      const result = await peakRss(builds[which]!.bin, cwd, home, stepCount);
      runs[which]!.mb.push(result.mb);
      runs[which]!.requests = result.requests;
    }
  return runs.map((run) => ({ mb: median(run.mb), requests: run.requests }));
}

const ms = (value: number) => `${Math.round(value)}`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(2)}×`;
const mb = (value: number) => value.toFixed(1);

function optionValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  if (at === -1) return undefined;
  const value = process.argv[at + 1];
  if (value === undefined || value.startsWith("--")) throw new Error(`${name} needs a value`);
  return value;
}

async function main(): Promise<void> {
  const runsOption = optionValue("--runs");
  const runs = runsOption === undefined ? DEFAULT_RUNS : Number(runsOption);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, not "${runsOption}"`);
  const against = optionValue("--against");
  let previous: PreviousBuild | undefined;
  if (against !== undefined) {
    console.log(`building ${against} in a temporary worktree…`);
    previous = await buildPrevious(against);
    if (previous.packageDiffers)
      console.log(
        `note: ${previous.commit}'s package.json differs from this tree's; it runs with this tree's node_modules`,
      );
  }
  const builds: Build[] = [{ label: "this tree", bin: BIN }];
  if (previous !== undefined) builds.push({ label: `\`${previous.commit}\` (${previous.ref})`, bin: previous.bin });
  const cwd = await makeTempDir("bench-cwd");
  const home = await makeTempDir("bench-home");
  try {
    const samples = await startUp(runs, cwd, home, builds);
    const bareExit = median(samples.bareExit);
    const bareRequest = median(samples.bareRequest);
    const printRequest = samples.builds.map((build) => median(build.printRequest));
    const interactive = samples.builds.map((build) => median(build.interactiveReady));
    const session = await medianRss(builds, cwd, home, SESSION_STEPS);
    const oneRequest = await medianRss(builds, cwd, home, 0);
    const bare = await bareRss(cwd);

    const compared = builds.length > 1;
    // "÷ other": this tree's figure over the same figure of the commit it is measured against.
    const vsOther = (values: readonly number[], which: number) =>
      compared ? ` ${which === 0 ? ratio(values[0]!, values[1]!) : "1.00×"} |` : "";
    const otherHeader = compared ? " ÷ against |" : "";
    const otherRule = compared ? " --- |" : "";
    const name = (which: number) => (compared ? `, ${builds[which]!.label}` : "");
    const startRows = builds.flatMap((_, which) => [
      `| \`threadline -p\`${name(which)}, spawn → first request arrives | ${ms(printRequest[which]!)} | ${ratio(printRequest[which]!, bareExit)} | ${ratio(printRequest[which]!, bareRequest)} |${vsOther(printRequest, which)} ≤ ${FIRST_REQUEST_TARGET_MS} ms |`,
    ]);
    const interactiveRows = builds.map(
      (_, which) =>
        `| \`threadline\` (stdin a pipe)${name(which)}, spawn → banner, prompt read next | ${ms(interactive[which]!)} | ${ratio(interactive[which]!, bareExit)} | — |${vsOther(interactive, which)} — |`,
    );
    const sessionMb = session.map((entry) => entry.mb);
    const oneMb = oneRequest.map((entry) => entry.mb);
    const memoryRows = builds.flatMap((_, which) => [
      `| one-request \`-p\` run${name(which)} | ${mb(oneMb[which]!)} | 1.00× |${vsOther(oneMb, which)} — |`,
      `| ${SESSION_STEPS}-step \`-p\` tool session${name(which)} (${session[which]!.requests} requests) | ${mb(sessionMb[which]!)} | ${ratio(sessionMb[which]!, oneMb[which]!)} |${vsOther(sessionMb, which)} < ${PEAK_RSS_TARGET_MB} MB |`,
    ]);
    const table = [
      `Start-up, median of ${runs} runs of each, interleaved (ms from spawn; ratios to the baselines of the same run${compared ? `; "÷ against": this tree over ${builds[1]!.label}, built and run alternately with it in this run` : ""}).`,
      "",
      `| what | ms | ÷ bare \`node -e 0\` | ÷ bare node:http POST |${otherHeader} target |`,
      `| --- | --- | --- | --- |${otherRule} --- |`,
      `| bare \`node -e 0\`, spawn → exit | ${ms(bareExit)} | 1.00× | — |${compared ? " — |" : ""} — |`,
      `| bare node:http POST, spawn → request arrives | ${ms(bareRequest)} | ${ratio(bareRequest, bareExit)} | 1.00× |${compared ? " — |" : ""} — |`,
      ...startRows,
      ...interactiveRows,
      "",
      `Peak RSS, median of ${RSS_RUNS} runs of each.`,
      "",
      `| peak RSS | MB | ÷ one-request \`-p\` run |${otherHeader} target |`,
      `| --- | --- | --- |${otherRule} --- |`,
      `| bare node process | ${mb(bare)} | — |${compared ? " — |" : ""} — |`,
      ...memoryRows,
    ].join("\n");
    console.log(table);
    reportResult({
      bench: "cli-cold-start",
      metric: "-p spawn → first request (median)",
      value: Math.round(printRequest[0]!),
      unit: "ms",
      target: `≤ ${FIRST_REQUEST_TARGET_MS} ms`,
      note: `${ratio(printRequest[0]!, bareRequest)} a bare node:http POST (${ms(bareRequest)} ms)`,
    });
    reportResult({
      bench: "cli-cold-start",
      metric: `peak RSS, ${SESSION_STEPS}-step -p session`,
      value: Number(mb(sessionMb[0]!)),
      unit: "MB",
      target: `< ${PEAK_RSS_TARGET_MB} MB`,
      note: `one-request run ${mb(oneMb[0]!)} MB`,
    });
    if (runsOption === undefined)
      await writeReadmeSection("cli-cold-start", table, provenanceOf(import.meta.url, process.argv.slice(2), "slow"));
  } finally {
    await rm(cwd, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
    await previous?.dispose();
  }
}

await main();
