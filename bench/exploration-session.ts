/**
 * A 40-step exploration that fits its window (issue 52, "Forget less"): the prompt names the two files the task
 * is about, the model reads them and 34 more modules (~3K tokens each), edits the first named file twice (each
 * Edit needs its `old_string`), edits the second named file once, and closes with a line of the first named
 * file. Nothing needs to compact; the question is what clearing old results costs in re-reads and whether it
 * still pays for its cache rewrites. Closed-loop scripted model, public path (no cache editing), session memory
 * off. Prints, per configuration, cost (input at cache prices + output at 5×, every request), re-reads, facts
 * lost, batches and placeholders in the last request.
 *
 *   node --import tsx bench/exploration-session.ts [--no-write]
 *
 * Rewrites this script's section of bench/README.md unless --no-write.
 */
import { parseArgs } from "node:util";
import type { RequestLogEntry, Turn } from "@threadline/emulator";
import type { CompactionSettings } from "../src/compaction/index.js";
import { collect } from "../support/collect.js";
import { startHarness } from "../support/engine-harness.js";
import { stableRun } from "../support/stable-run.js";
import { sourceFileName, writeSourceFiles } from "../support/tool-heavy-session.js";
import { type SessionCost, sessionCost } from "./lib/cost.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";
import { renderMarkdownTable } from "./lib/table.js";

stableRun();

const MODEL = "claude-sonnet-4-20250514";
const OFF = { snip: false, microcompact: false, collapse: false, autocompact: false } as const;
const FILES = 36;
const TASK_FILE = sourceFileName(0);
const PATTERN_FILE = sourceFileName(1);
const PROMPT = `Make ${TASK_FILE} follow the pattern of ${PATTERN_FILE}; look around the other modules first.`;

interface Config {
  name: string;
  compaction: Partial<CompactionSettings>;
}

const CONFIGS: Config[] = [
  { name: "tiers off (clears nothing)", compaction: { ...OFF } },
  { name: "defaults", compaction: {} },
];

/** Line `line` of generated module `index`, as writeSourceFiles writes it. */
function moduleLine(index: number, line: number): string {
  return `export function helper${index}_${line}(value: number): number { return value * ${line} + ${index}; }`;
}

function read(index: number): Turn {
  return {
    content: [
      { type: "text", text: `Looking at ${sourceFileName(index)}.` },
      { type: "tool_use", name: "Read", input: { file_path: sourceFileName(index) } },
    ],
  };
}

function edit(index: number, line: number): Turn {
  const oldLine = moduleLine(index, line);
  return {
    content: [
      { type: "text", text: `Editing ${sourceFileName(index)}.` },
      {
        type: "tool_use",
        name: "Edit",
        input: { file_path: sourceFileName(index), old_string: oldLine, new_string: `${oldLine} // aligned` },
      },
    ],
    needs: [{ text: oldLine, file: sourceFileName(index) }],
  };
}

/** 40 tool steps and a closing answer. */
function scenario(): Turn[] {
  const turns: Turn[] = [read(0), read(1)];
  for (let index = 2; index < 30; index++) turns.push(read(index));
  turns.push(edit(0, 3));
  for (let index = 30; index < 34; index++) turns.push(read(index));
  turns.push(edit(0, 7), read(34), read(35), edit(1, 5));
  const fact = moduleLine(0, 11);
  turns.push({
    content: [{ type: "text", text: `Done; ${TASK_FILE} still has ${fact}` }],
    needs: [{ text: fact, file: TASK_FILE }],
  });
  return turns;
}

interface Figures extends SessionCost {
  batches: number;
  placeholders: number;
}

function placeholdersIn(record: RequestLogEntry): number {
  return (JSON.stringify(record.body).match(/\[Old tool result content cleared/g) ?? []).length;
}

async function runSession(config: Config): Promise<Figures> {
  const harness = await startHarness(
    { scenario: scenario() },
    { model: MODEL, sessionMemory: false, compaction: { cacheEdits: "off", ...config.compaction } },
  );
  try {
    await writeSourceFiles(harness.workspace, FILES);
    await collect(harness.engine.submitMessage(PROMPT));
    await harness.engine.idle();
    const requests = harness.emulator.requests.filter((r) => r.path === "/v1/messages" && r.status === 200);
    let batches = 0;
    let previous = 0;
    for (const record of requests) {
      if (record.source === "summary" || record.source === "side") continue;
      const count = placeholdersIn(record);
      if (count > previous) batches++;
      previous = count;
    }
    return { ...sessionCost(requests), batches, placeholders: previous };
  } finally {
    await harness.close();
  }
}

const { values } = parseArgs({ options: { "no-write": { type: "boolean", default: false } } });
console.log(`40-step exploration (${MODEL}), closed loop, public path; prompt names ${TASK_FILE} and ${PATTERN_FILE}`);
const results = new Map<string, Figures>();
for (const config of CONFIGS) {
  const figures = await runSession(config);
  results.set(config.name, figures);
  console.log(
    `${config.name.padEnd(28)} cost ${Math.round(figures.cost).toLocaleString("en-US").padStart(9)}  re-reads ${figures.rereads}  lost ${figures.factsLost}  batches ${figures.batches}  placeholders ${figures.placeholders}`,
  );
}
const off = results.get(CONFIGS[0]!.name)!;
for (const [name, figures] of results)
  reportResult({
    bench: "exploration-session",
    metric: `cost, ${name}`,
    value: Math.round(figures.cost),
    unit: "input-eq tokens",
    note: `${(figures.cost / off.cost).toFixed(3)}× tiers off, ${figures.rereads} re-reads, ${figures.factsLost} lost`,
  });

if (!values["no-write"]) {
  const rows = [...results].map(([name, figures]) => [
    name,
    Math.round(figures.cost).toLocaleString("en-US"),
    (figures.cost / off.cost).toFixed(3),
    String(figures.rereads),
    String(figures.factsLost),
    String(figures.batches),
    String(figures.placeholders),
  ]);
  await writeReadmeSection(
    "exploration-session",
    [
      `A 40-step exploration that fits its window; the prompt names ${TASK_FILE} and ${PATTERN_FILE}, the model`,
      "reads them and 34 more modules, edits both (each Edit needs its old_string) and closes with a line of the",
      "first. Cost as in the compaction-tiers section; batches: main requests that carried more placeholders than",
      "the one before; placeholders: in the last request.",
      "",
      renderMarkdownTable(["config", "cost", "vs tiers off", "re-reads", "lost", "batches", "placeholders"], rows),
    ].join("\n"),
    provenanceOf(import.meta.url, process.argv.slice(2), "quick"),
  );
  console.log("bench/README.md: exploration-session section rewritten");
}
