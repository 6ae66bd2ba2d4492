/**
 * Resume benchmark: writes a ~100 MB transcript (~50k entries with realistic tool output: file reads,
 * bash output, multi-block assistant responses, progress, snips), then loads and resumes it in a fresh
 * child process and prints wall time and peak RSS. Prints numbers; never passes or fails on time.
 *
 *   node --expose-gc --import tsx bench/resume.ts [--megabytes 100] [--keep] [--child <existing transcript>]
 *
 * CPU time is printed beside wall time: on a shared machine the wall time also measures the neighbours.
 */
import { spawnSync } from "node:child_process";
import { rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { TimelineEntry } from "../src/messages/index.js";
import {
  createAssistantEntry,
  createProgressEntry,
  createSystemEntry,
  createToolResultEntry,
  createUserEntry,
  textBlock,
  toolResultBlock,
  toolUseBlock,
} from "../src/messages/index.js";
import { JsonlTranscriptStore, loadTranscript, resumeConversation } from "../src/transcript/index.js";
import { makeTempDir } from "../support/temp-dir.js";

/** Transcript size generated, in megabytes. */
const DEFAULT_MEGABYTES = 100;
const SESSION_ID = "bench-session";
const MODEL = "claude-sonnet-4-5-20250929";

const SOURCE_LINES = [
  'import { readFile } from "node:fs/promises";',
  "export async function loadConfig(path: string): Promise<Config> {",
  '  const text = await readFile(path, "utf8");',
  "  // Parse once; the schema rejects unknown keys so typos surface early.",
  "  return configSchema.parse(JSON.parse(text));",
  "}",
  "for (const [index, item] of items.entries()) total += item.weight * (index + 1);",
  '  if (entry.type === "assistant" && entry.message.stop_reason === "tool_use") continue;',
  'const résumé = "naïve café — ünïcode ✓";',
  "  throw new Error('unexpected token at ' + line + ':' + column);",
];

/** Deterministic pseudo-random numbers (xorshift), so every run writes the same file. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
}

function fileRead(next: () => number, lines: number): string {
  const out: string[] = [];
  for (let line = 1; line <= lines; line++) {
    out.push(`${String(line).padStart(6)}\t${SOURCE_LINES[Math.floor(next() * SOURCE_LINES.length)]}`);
  }
  return out.join("\n");
}

function bashOutput(next: () => number, lines: number): string {
  const out: string[] = [];
  for (let line = 0; line < lines; line++) {
    const ms = Math.floor(next() * 900);
    out.push(` ✓ test/module-${line}.test.ts (${Math.floor(next() * 40)} tests) ${ms}ms`);
  }
  return out.join("\n") + "\n Test Files  42 passed (42)\n      Tests  1337 passed (1337)";
}

async function generate(path: string, megabytes: number): Promise<{ entries: number; bytes: number }> {
  const next = random(20_250_101);
  const store = await JsonlTranscriptStore.open({ sessionId: SESSION_ID, cwd: "/bench", path });
  let parentUuid: string | null = null;
  let counter = 0;
  let bytes = 0;
  const recent: string[] = [];
  const append = (entry: TimelineEntry): void => {
    store.append(entry);
    bytes += JSON.stringify(entry).length + 1;
    if ("uuid" in entry) {
      parentUuid = entry.uuid;
      recent.push(entry.uuid);
      if (recent.length > 50) recent.shift();
    }
  };
  const context = () => ({
    sessionId: SESSION_ID,
    parentUuid,
    uuid: `uuid-${(counter++).toString(16).padStart(8, "0")}`,
  });
  const target = megabytes * 1024 * 1024;
  while (bytes < target) {
    append(
      createUserEntry(
        context(),
        `Please look at module ${counter} and fix the failing test. ${"Context. ".repeat(10)}`,
      ),
    );
    const rounds = 1 + Math.floor(next() * 3);
    for (let round = 0; round < rounds; round++) {
      const messageId = `msg_${counter}`;
      const usage = {
        input_tokens: 12,
        output_tokens: 300,
        cache_read_input_tokens: 40_000,
        cache_creation_input_tokens: 900,
      };
      append(
        createAssistantEntry(
          context(),
          { type: "thinking", thinking: "Let me reason. ".repeat(20), signature: "sig".repeat(30) },
          { messageId, model: MODEL, usage },
        ),
      );
      append(
        createAssistantEntry(context(), textBlock("I'll read the file and run the tests."), {
          messageId,
          model: MODEL,
          usage,
        }),
      );
      const readId = `toolu_r${counter}`;
      const bashId = `toolu_b${counter}`;
      append(
        createAssistantEntry(
          context(),
          toolUseBlock(readId, "Read", { file_path: `/bench/src/module-${counter}.ts` }),
          { messageId, model: MODEL, usage },
        ),
      );
      const toolAssistant = parentUuid!;
      append(
        createAssistantEntry(
          context(),
          toolUseBlock(bashId, "Bash", { command: "npm test", description: "Run tests" }),
          { messageId, model: MODEL, stopReason: "tool_use", usage },
        ),
      );
      append(createProgressEntry(context(), bashId, "running npm test"));
      const read = fileRead(next, 20 + Math.floor(next() * 120));
      const bash = bashOutput(next, 10 + Math.floor(next() * 40));
      append(
        createToolResultEntry(
          context(),
          [toolResultBlock(readId, read), toolResultBlock(bashId, bash)],
          toolAssistant,
          {
            stdout: bash,
            stderr: "",
          },
        ),
      );
    }
    append(
      createAssistantEntry(context(), textBlock("Fixed: the timer raced the assertion."), {
        messageId: `msg_end_${counter}`,
        model: MODEL,
        stopReason: "end_turn",
      }),
    );
    if (next() < 0.05) {
      const removedUuids = recent.slice(0, 5);
      append(createSystemEntry(context(), "snip_boundary", "snipped", { snipMetadata: { removedUuids } }));
    }
    if (counter % 2_000 < 12) await store.flush();
  }
  await store.close();
  return { entries: counter, bytes };
}

async function child(path: string): Promise<void> {
  const baselineRssKb = process.resourceUsage().maxRSS;
  const cpuStarted = process.cpuUsage();
  const started = performance.now();
  const loaded = await loadTranscript(path);
  const loadedAt = performance.now();
  const resumed = resumeConversation(loaded.entries);
  const finished = performance.now();
  const cpu = process.cpuUsage(cpuStarted);
  const report = {
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    loadMs: Math.round(loadedAt - started),
    resumeMs: Math.round(finished - loadedAt),
    totalMs: Math.round(finished - started),
    entries: loaded.entries.length,
    resumedEntries: resumed.entries.length,
    dropped: resumed.dropped,
    problems: loaded.problems.length,
    baselineRssMb: Math.round(baselineRssKb / 1024),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
  };
  process.stdout.write(JSON.stringify(report));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args[0] === "--child") return child(args[1]!);
  const megabytesIndex = args.indexOf("--megabytes");
  const megabytes = megabytesIndex === -1 ? DEFAULT_MEGABYTES : Number(args[megabytesIndex + 1]);
  const directory = await makeTempDir("bench-resume");
  try {
    const path = join(directory, "session.jsonl");
    const generateStarted = performance.now();
    const generated = await generate(path, megabytes);
    const size = (await stat(path)).size;
    console.log(
      `generated ${(size / 1024 / 1024).toFixed(1)} MB, ${generated.entries} entries in ${Math.round(performance.now() - generateStarted)} ms`,
    );
    const self = fileURLToPath(import.meta.url);
    const run = spawnSync(process.execPath, [...process.execArgv, self, "--child", path], { encoding: "utf8" });
    if (run.status !== 0) throw new Error(`child failed: ${run.stderr}`);
    const report = JSON.parse(run.stdout) as Record<string, number>;
    console.log(`load      ${report.loadMs} ms`);
    console.log(`resume    ${report.resumeMs} ms`);
    console.log(`total     ${report.totalMs} ms wall, ${report.cpuMs} ms CPU   (target < 1500 ms)`);
    console.log(`peak RSS  ${report.peakRssMb} MB   (target < 400 MB; ${report.baselineRssMb} MB before loading)`);
    console.log(
      `entries   ${report.entries} loaded, ${report.resumedEntries} resumed, ${report.dropped} dropped, ${report.problems} problems`,
    );
  } finally {
    if (args.includes("--keep")) console.log(`kept      ${join(directory, "session.jsonl")}`);
    else await rm(directory, { recursive: true, force: true });
  }
}

await main();
