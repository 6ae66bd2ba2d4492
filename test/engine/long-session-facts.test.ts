/**
 * The closed-loop long session (bench/lib/long-session.ts) measures "facts lost" only if every need is a fact
 * the model cannot find in its own earlier words: each need must be absent from every earlier step the model
 * sends (texts and tool inputs), and present in the file it names, so only a tool result still in view, or a
 * re-read, can satisfy it.
 *
 * Mutation it catches (scripts/mutation-check.mjs): `long-session-answers-repeat-facts` (every answer quotes
 * line 0 again, so from task 9 on an answer repeats the fact of the answer nine tasks before).
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_LONG_SESSION, longSessionSteps, writeLongSessionFiles } from "../../bench/lib/long-session.js";

describe("the long session's needs", () => {
  it("no need is in an earlier step's words; each is in the file it names; 40 needs, 20 of them answers", async () => {
    const steps = longSessionSteps(DEFAULT_LONG_SESSION);
    const needs = steps.flatMap((step, index) => (step.needs ?? []).map((need) => ({ ...need, index })));
    // Literal counts for the default shape (20 tasks): one Edit and one answer a task.
    expect(steps).toHaveLength(220);
    expect(needs).toHaveLength(40);
    const answers = needs.filter(
      (need) => typeof steps[need.index]!.content[0] === "object" && steps[need.index]!.content.length === 1,
    );
    expect(answers).toHaveLength(20);
    expect(new Set(answers.map((need) => need.text)).size).toBe(20);

    const spoken = steps.map((step) => JSON.stringify(step.content));
    const repeated = needs.filter((need) => spoken.slice(0, need.index).some((words) => words.includes(need.text)));
    expect(repeated.map((need) => `step ${need.index}: ${need.text}`)).toEqual([]);

    const workspace = await mkdtemp(join(tmpdir(), "threadline-long-session-"));
    try {
      await writeLongSessionFiles(workspace, DEFAULT_LONG_SESSION);
      for (const need of needs) expect(await readFile(join(workspace, need.file), "utf8")).toContain(need.text);
    } finally {
      await rm(workspace, { recursive: true, force: true });
    }
  });
});
