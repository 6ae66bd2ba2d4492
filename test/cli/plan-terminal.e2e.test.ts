/**
 * Plan mode and the task list in a real pseudo-terminal (tmux), as a person meets them (docs/TOOLS.md "Plan
 * mode", "Task list"): the plan shown and answered with Claude Code's choices, "clear context" starting the plan
 * in a fresh session, a refusal's reason reaching the model, and TodoWrite's list drawn at 80 and 40 columns.
 * Oracles: the emulator's logged requests and the files on disk. Skipped, with a notice, without tmux.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { waitFor } from "./cli-process.js";
import { HAVE_TMUX, terminalPerTest, wrapped } from "./tmux-terminal.js";

if (!HAVE_TMUX) console.warn("plan-terminal.e2e: tmux is not installed; the plan mode terminal tests are skipped");

const startTerminal = terminalPerTest();

const PLAN = "1. Write notes.txt with the word ready\n2. Say done";

describe.skipIf(!HAVE_TMUX)("plan mode in the terminal", () => {
  // Mutations caught: the "clear" choice not starting a fresh session (the next request still holds the
  // planning prompt); the cleared session reopened in the mode the CLI started with (plan: the Write refused).
  it("'clear context' carries the plan out in a fresh session with edits accepted", async () => {
    const t = await startTerminal({
      emulator: {
        scenario: [
          { content: [{ type: "tool_use", name: "ExitPlanMode", input: { plan: PLAN } }] },
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "ready\n" } }] },
          "Done.",
        ],
      },
      args: ["--permission-mode", "plan"],
    });
    t.type("plan the notes file");
    await waitFor(() => t.screen().includes("Proceed with this plan?"));
    expect(t.screen()).toMatch(wrapped("1. Write notes.txt with the word ready"));
    t.tmux("send-keys", "-t", "0", "-l", "c");
    await waitFor(() => t.screen().includes("Done."));
    expect(await readFile(join(t.cwd, "notes.txt"), "utf8")).toBe("ready\n");
    const requests = t.mainRequests();
    const fresh = JSON.stringify(requests.at(-2)?.messages);
    expect(fresh).toContain("Implement the following plan:");
    expect(fresh).toContain("Write notes.txt with the word ready");
    expect(fresh).not.toContain("plan the notes file");
    expect(requests.at(-2)?.messages).toHaveLength(1);
  }, 90_000);

  // Mutation caught: the reason given after "n" dropped (the model told only that the plan was not approved).
  it("'no' with a reason keeps plan mode and tells the model what to change", async () => {
    const t = await startTerminal({
      emulator: {
        scenario: [
          { content: [{ type: "tool_use", name: "ExitPlanMode", input: { plan: PLAN } }] },
          "I will revise the plan.",
        ],
      },
      args: ["--permission-mode", "plan"],
    });
    t.type("plan the notes file");
    await waitFor(() => t.screen().includes("Proceed with this plan?"));
    t.tmux("send-keys", "-t", "0", "-l", "n");
    await waitFor(() => t.screen().includes("what to change in the plan"));
    t.type("also add a test");
    await waitFor(() => t.screen().includes("I will revise the plan."));
    await waitFor(() => t.mainRequests().length >= 2);
    const last = JSON.stringify(t.mainRequests().at(-1)?.messages);
    expect(last).toContain("also add a test");
    expect(existsSync(join(t.cwd, "notes.txt"))).toBe(false);
  }, 90_000);

  for (const columns of [80, 40]) {
    // Mutation caught: the task list not drawn under TodoWrite (only its one-line outcome shown).
    it(`draws the task list under TodoWrite (${columns} columns)`, async () => {
      const todos = [
        { content: "Read the code", status: "completed", activeForm: "Reading the code" },
        { content: "Write the tests", status: "in_progress", activeForm: "Writing the tests" },
        { content: "Update the docs for the new flag", status: "pending", activeForm: "Updating the docs" },
      ];
      const t = await startTerminal({
        emulator: { scenario: [{ content: [{ type: "tool_use", name: "TodoWrite", input: { todos } }] }, "Listed."] },
        columns,
      });
      t.type("make a list");
      await waitFor(() => t.screen().includes("Listed."));
      expect(t.screen()).toMatch(wrapped("☒ Read the code"));
      expect(t.screen()).toMatch(wrapped("◼ Writing the tests"));
      expect(t.screen()).toMatch(wrapped("☐ Update the docs for the new flag"));
      for (const row of t.rows()) expect([...row].length).toBeLessThanOrEqual(columns);
    }, 90_000);
  }
});
