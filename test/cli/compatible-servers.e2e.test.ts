/**
 * Any Anthropic-compatible server, end to end: the built CLI with default settings runs a 20-step tool
 * session against the emulator in each mode — the public API (which refuses cache editing), a
 * llama-server-like compatible server, and one that also reports zero usage while streaming — with a small
 * window. Each session finishes, no 400 reaches the person, and the overflow is recovered by compaction.
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorOptions } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const STEPS = 20;
const WINDOW = 60_000;
const FINAL_TEXT = "Read everything; the helpers are consistent.";

const harness = useCliHarness();

async function transcriptLines(home: string): Promise<Array<Record<string, unknown>>> {
  const lines: Array<Record<string, unknown>> = [];
  const projects = join(home, "projects");
  for (const project of await readdir(projects)) {
    for (const file of await readdir(join(projects, project))) {
      if (!file.endsWith(".jsonl")) continue;
      const text = await readFile(join(projects, project, file), "utf8");
      for (const line of text.split("\n"))
        if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
    }
  }
  return lines;
}

/** Each mode, and whether threadline is told the window (`--context-window`) or must learn it from the server. */
const MODES: ReadonlyArray<readonly [string, EmulatorOptions, boolean]> = [
  ["public (refuses cache editing)", { cacheEditing: false }, true],
  ["compatible (llama-server-like)", { mode: "compatible" }, true],
  ["compatible, zero usage while streaming", { mode: "compatible", compatibleUsage: "zero-while-streaming" }, true],
];

describe("a 20-step tool session with default settings on every kind of server", () => {
  it.each(MODES)(
    "%s: finishes, no 400 reaches the person, overflow recovered by compaction",
    async (_name, mode, told) => {
      const { emulator, home, cwd, env } = await harness.setup(
        { scenario: readEachFileScenario(sourceFileNames(STEPS)), contextWindow: WINDOW, ...mode },
        "compat",
      );
      await writeSourceFiles(cwd, STEPS, 10_000);

      const result = await runCli(
        [
          "-p",
          "Read every module, one at a time.",
          "--allowedTools",
          "Read",
          ...(told ? ["--context-window", String(WINDOW)] : []),
        ],
        { cwd, env },
      );
      const records = await transcriptLines(home);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout.trim()).toBe(FINAL_TEXT);
      expect(result.stderr).not.toMatch(/\b400\b|API error/);
      // Self-healing may say one line (the public API refuses cache editing once); nothing else.
      expect(result.stderr.split("\n").filter((line) => /does not accept/.test(line)).length).toBeLessThanOrEqual(1);

      // The context was brought back under the window by a tier: autocompact, or (where clearing alone was
      // enough, as with zero usage) microcompact's client-side batch clear; no request went over the window.
      expect(
        records.some(
          (record) =>
            record.type === "system" &&
            (record.subtype === "compact_boundary" || record.subtype === "microcompact_boundary"),
        ),
      ).toBe(true);
      for (const record of emulator.requests) expect(JSON.stringify(record.body ?? {}).length / 4).toBeLessThan(WINDOW);
      const steps = emulator.requests.filter((record) => record.step !== undefined).map((record) => record.step);
      expect(new Set(steps).size).toBe(STEPS + 1);
      if (mode.mode === undefined) {
        // The public API: cache editing refused at most once, and never sent after the switch.
        const refused = emulator.requests.filter((record) => record.status === 400);
        expect(refused.length).toBeLessThanOrEqual(1);
        const after = emulator.requests.slice(emulator.requests.indexOf(refused[0] ?? emulator.requests[0]!) + 1);
        for (const record of after)
          expect(JSON.stringify(record.body ?? {})).not.toMatch(/cache_reference|cache_edits/);
      }
    },
  );
});
