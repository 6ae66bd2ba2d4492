/**
 * `threadline inspect` counts the requests the server refused, not only the answered ones (issue 38;
 * docs/CONTEXT-BUDGET.md, "Refused requests"). A real print-mode session against the emulator: a 429 and a 529
 * the provider retries (the 529 on the compaction summary, a side request), and a 400 "prompt is too long" when
 * a file of Chinese text — which the server counts at ~3× the client's estimate — comes back from Read after
 * the calibration had learned from English text.
 * The oracle is the emulator's own request log: every response with status ≥ 400 is a refusal inspect must
 * name, every 200 an answered request.
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

/** Chinese notes: the server's tokenizer counts these ~3× characters ÷ 4 (packages/emulator README). */
const CHINESE = `${"这是一个测试，我们用中文写笔记。".repeat(10)}\n`.repeat(40);
/** English lines (~0.9× the estimate): the first result, which the calibration learns from. */
const ENGLISH = Array.from(
  { length: 150 },
  (_, line) => `line ${line}: the quick brown fox jumps over the lazy dog near the river bank`,
).join("\n");

/** What the emulator refused, by status, and how many /v1/messages requests it answered. */
function fromLog(emulator: Emulator): { answered: number; refused: Record<number, number>; total: number } {
  const messages = emulator.requests.filter((entry) => entry.path === "/v1/messages");
  const refused: Record<number, number> = {};
  for (const entry of messages) if (entry.status >= 400) refused[entry.status] = (refused[entry.status] ?? 0) + 1;
  const total = Object.values(refused).reduce((sum, n) => sum + n, 0);
  return { answered: messages.filter((entry) => entry.status === 200).length, refused, total };
}

async function transcriptIn(home: string): Promise<string> {
  const projects = join(home, "projects");
  for (const folder of await readdir(projects)) {
    const files = (await readdir(join(projects, folder))).filter((name) => name.endsWith(".jsonl"));
    if (files[0] !== undefined) return join(projects, folder, files[0]);
  }
  throw new Error("no transcript written");
}

describe("threadline inspect on a session the server refused", () => {
  it("prints every refusal the emulator logged, by kind, beside the answered requests", async () => {
    const { cwd, env, home, emulator } = await harness.setup(
      {
        contextWindow: 9_000,
        scenario: [
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "a.txt" } }] },
          { content: [{ type: "tool_use", name: "Read", input: { file_path: "notes.txt" } }] },
          "Read the notes.",
        ],
        // 1: the first request (429, retried); 4 is the 400; 5: the compaction summary after it (529, retried).
        faults: [
          { onRequest: 1, kind: "rate_limit" },
          { onRequest: 5, kind: "overloaded" },
        ],
        retryAfterSeconds: 0,
      },
      "refused",
    );
    await writeFile(join(cwd, "notes.txt"), CHINESE);
    await writeFile(join(cwd, "a.txt"), ENGLISH);
    const run = await runCli(["-p", "Read notes.txt and tell me what it says."], { cwd, env });
    const log = fromLog(emulator);
    // The session met each kind of refusal (else the test proves nothing).
    expect(log.refused[429]).toBe(1);
    expect(log.refused[529]).toBe(1);
    expect(log.refused[400]).toBeGreaterThanOrEqual(1);
    const transcript = await transcriptIn(home);

    const text = await runCli(["inspect", transcript], { cwd, env });
    expect(text.code, text.stderr).toBe(0);
    const first = text.stdout.split("\n")[0] ?? "";
    expect(first).toContain(`${log.answered} requests answered, ${log.total} refused by the server: `);
    expect(first).toContain(`prompt too long ×${log.refused[400]}`);
    expect(first).toContain("rate limited ×1");
    expect(first).toContain("overloaded ×1");
    expect(text.stdout).toContain(`Refused by the server (${log.total}, not billed):`);
    expect(text.stdout).toMatch(/compaction summary: 529 overloaded, retried/);

    const json = await runCli(["inspect", "--json", transcript], { cwd, env });
    const report = JSON.parse(json.stdout) as {
      requests: unknown[];
      refused: { requests: number; byKind: Record<string, number>; list: Array<{ status: number | null }> };
    };
    expect(report.requests).toHaveLength(log.answered);
    expect(report.refused.requests).toBe(log.total);
    expect(report.refused.byKind).toEqual({ prompt_too_long: log.refused[400], rate_limited: 1, overloaded: 1 });
    expect(report.refused.list.map((refusal) => refusal.status).sort()).toEqual(
      emulator.requests
        .filter((entry) => entry.path === "/v1/messages" && entry.status >= 400)
        .map((entry) => entry.status)
        .sort(),
    );

    const page = join(cwd, "report.html");
    const html = await runCli(["inspect", "--html", page, transcript], { cwd, env });
    expect(html.stdout).toContain(`${log.total} refused by the server`);
    const written = await readFile(page, "utf8");
    expect(written).toContain(`${log.answered} requests answered, ${log.total} refused by the server`);
    expect(written.match(/<td class="n">(400|429|529)<\/td>/g)).toHaveLength(log.total);
    // The run itself still finished (the refusals were recovered from).
    expect(run.code, run.stderr).toBe(0);
  }, 120_000);
});

describe("threadline inspect on a session the server never answered", () => {
  it("reports the refusals instead of 'holds no model requests'", async () => {
    const { cwd, env, home, emulator } = await harness.setup(
      { contextWindow: 3_000, tokenRatio: 10, scenario: ["never"] },
      "never-answered",
    );
    const run = await runCli(["-p", "Summarise the project."], { cwd, env });
    expect(run.code).not.toBe(0);
    const log = fromLog(emulator);
    expect(log.answered).toBe(0);
    expect(log.total).toBeGreaterThanOrEqual(1);
    const text = await runCli(["inspect", await transcriptIn(home)], { cwd, env });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout.split("\n")[0]).toContain(
      `0 requests answered, ${log.total} refused by the server: prompt too long ×${log.refused[400]}`,
    );
  }, 60_000);
});
