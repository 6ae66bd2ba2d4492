/**
 * Permission mode `plan` through the engine on the emulator over HTTP, with a real workspace: reads and
 * read-only commands run; Write, Edit, NotebookEdit and a command that writes are refused without asking, even
 * with allow rules for them and an `ask` that would say yes. The oracle is the disk and the logged requests.
 */
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const GREET = 'export function greet(name: string) {\n  return "Helo, " + name;\n}\n';

/** The tool_result blocks of the last request, in order, as text. */
function results(body: unknown): string[] {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const out: string[] = [];
  for (const message of messages) {
    if (message.role !== "user" || !Array.isArray(message.content)) continue;
    for (const block of message.content as Array<{ type: string; content?: unknown }>)
      if (block.type === "tool_result")
        out.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
  }
  return out;
}

describe("plan mode", () => {
  // Mutation caught: plan mode falling through to the allow rules lets Write run.
  it("runs reads and read-only commands; refuses every write and writing command, whatever the rules", async () => {
    const call = (name: string, input: Record<string, unknown>): ScenarioStep => ({
      content: [{ type: "tool_use", name, input }],
    });
    const scenario: ScenarioStep[] = [
      call("Read", { file_path: "greet.ts" }),
      call("Bash", { command: "ls" }),
      call("Grep", { pattern: "Helo" }),
      call("Write", { file_path: "plan-out.txt", content: "written" }),
      call("Edit", { file_path: "greet.ts", old_string: "Helo", new_string: "Hello" }),
      call("Bash", { command: "touch made-by-bash.txt" }),
      call("Bash", { command: "rm greet.ts" }),
      "Here is the plan.",
    ];
    let asked = 0;
    harness = await startHarness(
      { scenario },
      {
        permission: {
          mode: "plan",
          allow: ["Write", "Edit", "Bash"],
          deny: [],
          ask: async () => {
            asked++;
            return true;
          },
        },
      },
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("plan the fix"))).reason).toBe("completed");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    const seen = results(posts.at(-1)?.body);
    expect(seen).toHaveLength(7);
    expect(seen[0]).toContain("Helo");
    expect(seen[1]).toContain("greet.ts");
    expect(seen[2]).toContain("greet.ts");
    for (const refused of seen.slice(3)) expect(refused).toMatch(/^Plan mode: \S+\(.*\) was not run/);
    expect(asked).toBe(0);
    // The disk: nothing written, nothing removed, nothing edited.
    expect(existsSync(path.join(harness.workspace, "plan-out.txt"))).toBe(false);
    expect(existsSync(path.join(harness.workspace, "made-by-bash.txt"))).toBe(false);
    expect(await readFile(path.join(harness.workspace, "greet.ts"), "utf8")).toBe(GREET);
  });

  // Mutation caught: an accepted plan that does not switch the mode leaves the Write after it refused.
  it("ExitPlanMode presents the plan; once the person accepts, the session leaves plan mode and Write runs", async () => {
    const plan = "1. Fix the typo in greet.ts\n2. Write notes.txt";
    const scenario: ScenarioStep[] = [
      { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "early" } }] },
      { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:ExitPlanMode" } }] },
      { content: [{ type: "tool_use", name: "ExitPlanMode", input: { plan } }] },
      { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "after the plan" } }] },
      "Done.",
    ];
    const questions: string[] = [];
    harness = await startHarness(
      { scenario },
      {
        deferredTools: true,
        permission: {
          mode: "plan",
          allow: ["Write"],
          deny: [],
          ask: async (request) => {
            questions.push(request.tool);
            return true;
          },
        },
      },
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("plan, then do it"))).reason).toBe("completed");
    const seen = results(harness.emulator.requests.filter((entry) => entry.path === "/v1/messages").at(-1)?.body);
    expect(seen[0]).toMatch(/^Plan mode: Write\(notes.txt\) was not run/);
    expect(seen[2]).toContain("The user approved the plan.");
    expect(questions).toEqual(["ExitPlanMode"]);
    expect(await readFile(path.join(harness.workspace, "notes.txt"), "utf8")).toBe("after the plan");
  });

  it("without anyone to accept it (print mode), ExitPlanMode leaves the session in plan mode", async () => {
    const scenario: ScenarioStep[] = [
      { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:ExitPlanMode" } }] },
      { content: [{ type: "tool_use", name: "ExitPlanMode", input: { plan: "1. Write notes.txt" } }] },
      { content: [{ type: "tool_use", name: "Write", input: { file_path: "notes.txt", content: "x" } }] },
      "Stopped.",
    ];
    harness = await startHarness(
      { scenario },
      { deferredTools: true, permission: { mode: "plan", allow: ["Write"], deny: [] } },
    );
    await collect(harness.engine.submitMessage("plan"));
    const seen = results(harness.emulator.requests.filter((entry) => entry.path === "/v1/messages").at(-1)?.body);
    expect(seen[1]).toContain("plan mode continues");
    expect(seen[2]).toMatch(/^Plan mode: Write\(notes.txt\) was not run/);
    expect(existsSync(path.join(harness.workspace, "notes.txt"))).toBe(false);
  });
});
