/**
 * Memory files through a long session: tasks of Reads in a folder with a nested CLAUDE.md, every step
 * needing the user's rule, the root CLAUDE.md's, AGENTS.md's and the nested file's (the closed-loop scripted
 * model re-reads a file whose rule it cannot see). Per window (small and large) and result size, three runs:
 *   baseline      memory files off and no rule needed: what the session costs without memory at all;
 *   memory on     the rules needed, memory files on (re-attached after each compaction);
 *   memory off    the rules needed, memory files off: the model has to re-read them (a client that drops them).
 * Prints cost (input at cache prices + output at 5x, every request), compactions, re-reads and facts lost,
 * with ratios against the baseline of the same window from this run; writes the table into bench/README.md.
 *
 *   node --import tsx bench/memory-session.ts [--tasks 12] [--windows 32000,64000,200000]
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { ScenarioStep } from "@threadline/emulator";
import { collect } from "../support/collect.js";
import { startHarness } from "../support/engine-harness.js";
import { stableRun } from "../support/stable-run.js";
import { makeTempDir } from "../support/temp-dir.js";
import { type SessionCost, sessionCost } from "./lib/cost.js";
import { provenanceOf, writeReadmeSection } from "./lib/readme-section.js";
import { reportResult } from "./lib/result.js";

// A quick section CI re-runs: temp paths, uuids and the session date repeat from run to run (support/stable-run.ts).
stableRun();

const MODEL = "claude-sonnet-4-20250514";
const RULES = [
  { text: "User rule U1: answer in British English.", file: "~/.claude/CLAUDE.md" },
  { text: "Root rule R1: run npm test before committing.", file: "CLAUDE.md" },
  { text: "Agents rule A1: keep functions under 40 lines.", file: "AGENTS.md" },
  { text: "Nested rule N1: x/ code is pure, no I/O.", file: "src/x/CLAUDE.md" },
];

type Mode = "baseline" | "memory on" | "memory off";

interface Row {
  window: number;
  tokensPerFile: number;
  mode: Mode;
  figures: SessionCost;
  compactions: number;
}

function steps(tasks: number, reads: number, files: number, needs: boolean): ScenarioStep[] {
  const out: ScenarioStep[] = [];
  for (let task = 0; task < tasks; task++) {
    for (let read = 0; read < reads; read++) {
      const file = (task * reads + read) % files;
      const first = task === 0 && read === 0;
      out.push({
        content: [
          { type: "text", text: `Reading data-${file}.txt for task ${task}.` },
          { type: "tool_use", name: "Read", input: { file_path: `src/x/data-${file}.txt` } },
        ],
        ...(needs ? { needs: first ? RULES.slice(0, 3) : RULES } : {}),
      });
    }
    out.push({ content: [{ type: "text", text: `Task ${task} is done.` }], ...(needs ? { needs: RULES } : {}) });
  }
  return out;
}

async function run(mode: Mode, window: number, tokensPerFile: number, tasks: number): Promise<Row> {
  const userHome = await makeTempDir("bench-user");
  await mkdir(join(userHome, ".claude"), { recursive: true });
  await writeFile(join(userHome, ".claude", "CLAUDE.md"), `${RULES[0]!.text}\n`);
  const files = 8;
  const harness = await startHarness(
    { scenario: steps(tasks, 4, files, mode !== "baseline"), contextWindow: window, seed: 29 },
    {
      model: MODEL,
      contextWindow: window,
      memoryFiles: mode === "memory on",
      sessionMemory: false,
      compaction: { cacheEdits: "off" },
      env: { PATH: process.env.PATH ?? "", HOME: userHome },
    },
  );
  try {
    const workspace = harness.workspace;
    await mkdir(join(workspace, ".git"), { recursive: true });
    await mkdir(join(workspace, "src", "x"), { recursive: true });
    await writeFile(join(workspace, "CLAUDE.md"), `${RULES[1]!.text}\n`);
    await writeFile(join(workspace, "AGENTS.md"), `${RULES[2]!.text}\n`);
    await writeFile(join(workspace, "src", "x", "CLAUDE.md"), `${RULES[3]!.text}\n`);
    // The user's rule is re-read from the home when it is missing: the scripted model reads "~/…" literally.
    await mkdir(join(workspace, "~", ".claude"), { recursive: true });
    await writeFile(join(workspace, "~", ".claude", "CLAUDE.md"), `${RULES[0]!.text}\n`);
    const lines = Math.max(1, Math.round((tokensPerFile * 4) / 72));
    for (let file = 0; file < files; file++) {
      const body = Array.from({ length: lines }, (_, line) => `file ${file} line ${line}: ${"abcdefghij".repeat(5)}`);
      await writeFile(join(workspace, "src", "x", `data-${file}.txt`), `${body.join("\n")}\n`);
    }
    for (let task = 0; task < tasks; task++) await collect(harness.engine.submitMessage(`Task ${task}: inspect.`));
    const compactions = harness.engine.timeline.entries.filter(
      (entry) => entry.type === "system" && entry.subtype === "compact_boundary",
    ).length;
    return { window, tokensPerFile, mode, figures: sessionCost(harness.emulator.requests), compactions };
  } finally {
    await harness.close();
  }
}

/** A Markdown table padded to its widest cells (the layout biome's formatter keeps). */
function paddedTable(header: readonly string[], rows: readonly string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: readonly string[]) =>
    `| ${cells.map((cell, column) => cell.padEnd(widths[column]!)).join(" | ")} |`;
  return [line(header), line(widths.map((width) => "-".repeat(width))), ...rows.map(line)].join("\n");
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { tasks: { type: "string" }, windows: { type: "string" } } });
  const tasks = Number(values.tasks ?? 12);
  const windows = (values.windows ?? "32000,64000,200000").split(",").map(Number);
  const rows: Row[] = [];
  const header = [
    "window",
    "result tokens",
    "run",
    "cost (input-token eq.)",
    "× baseline",
    "compactions",
    "re-reads",
    "facts lost",
  ];
  const cells: string[][] = [];
  for (const window of windows)
    for (const tokensPerFile of [2_500, 8_000]) {
      if (tokensPerFile * 2 > window) continue; // a result that alone fills the window is not this bench's case
      let baseline = 0;
      for (const mode of ["baseline", "memory on", "memory off"] as const) {
        const row = await run(mode, window, tokensPerFile, tasks);
        rows.push(row);
        if (mode === "baseline") baseline = row.figures.cost;
        const ratio = baseline > 0 ? row.figures.cost / baseline : 0;
        const cellsOfRow = [
          window.toLocaleString("en-US"),
          tokensPerFile.toLocaleString("en-US"),
          mode,
          Math.round(row.figures.cost).toLocaleString("en-US"),
          ratio.toFixed(3),
          String(row.compactions),
          String(row.figures.rereads),
          String(row.figures.factsLost),
        ];
        cells.push(cellsOfRow);
        process.stdout.write(`${cellsOfRow.join("  ")}\n`);
        if (mode !== "baseline")
          reportResult({
            bench: "memory-session",
            metric: `cost × baseline, ${mode}, ${window / 1000}K window, ${tokensPerFile / 1000}K results`,
            value: ratio,
            unit: "",
            note: `${row.compactions} compactions, ${row.figures.rereads} re-reads, ${row.figures.factsLost} facts lost`,
          });
      }
    }
  const markdown = [
    `Memory files through a ${tasks}-task session (4 Reads a task in a folder with a nested CLAUDE.md; every step needs 4 rules: user, root CLAUDE.md, AGENTS.md, nested). \`node --import tsx bench/memory-session.ts\`; ratios against the baseline (memory off, no rule needed) of the same window and result size, this run.`,
    "",
    paddedTable(header, cells),
  ].join("\n");
  await writeReadmeSection("memory-session", markdown, provenanceOf(import.meta.url, process.argv.slice(2), "quick"));
}

await main();
