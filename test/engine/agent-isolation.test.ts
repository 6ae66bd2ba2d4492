import { existsSync, readFileSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { EmulatorRequest, ScenarioStep, Turn } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { createAgentTool } from "../../src/tools/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { branches, initRepository, listedWorktrees } from "../../support/git-repository.js";
import { isSubagent, lastToolResult, systemText, use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/**
 * A parent that calls Agent once with `input` and then ends, and a subagent that plays `subagentSteps` in order
 * (one per request of its own). Returns the router and the requests each side made.
 */
function scripted(input: Record<string, unknown>, subagentSteps: Array<(request: EmulatorRequest) => Turn>) {
  const seen = { parent: [] as EmulatorRequest[], subagent: [] as EmulatorRequest[] };
  const router: ScenarioStep = (request) => {
    if (isSubagent(request)) {
      seen.subagent.push(request);
      return subagentSteps[seen.subagent.length - 1]!(request);
    }
    seen.parent.push(request);
    return seen.parent.length === 1 ? use("Agent", input) : "Parent done.";
  };
  return { router, seen };
}

describe('Agent isolation: "worktree"', () => {
  // Mutations caught: agent-isolation-cwd (the subagent keeps the parent's directory: its Write lands in the main
  // checkout) and agent-worktree-dirty-kept (a worktree with changes removed: the file and the branch are gone).
  it("the subagent writes in its own worktree, not the main checkout; a worktree with changes is kept and named", async () => {
    const { router, seen } = scripted({ description: "Write a note", prompt: "write it", isolation: "worktree" }, [
      () => use("Write", { file_path: "agent-note.txt", content: "written by the agent\n" }),
      () => use("Bash", { command: "pwd && git rev-parse --abbrev-ref HEAD" }),
      () => "NOTE-WRITTEN",
    ]);
    harness = await startHarness({ scenario: Array.from({ length: 8 }, () => router) }, { sandbox: false });
    initRepository(harness.workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");

    const main = await realpath(harness.workspace);
    const worktrees = listedWorktrees(main);
    expect(worktrees).toHaveLength(2);
    const made = worktrees.find((where) => where !== main)!;
    const name = path.basename(made);
    expect(name).toMatch(/^agent-[0-9a-f]{16}$/);
    expect(made).toBe(path.join(main, ".claude", "worktrees", name));
    expect(branches(main)).toContain(`worktree-${name}`);
    // The write is in the worktree, not in the main checkout.
    expect(await readFile(path.join(made, "agent-note.txt"), "utf8")).toBe("written by the agent\n");
    expect(existsSync(path.join(main, "agent-note.txt"))).toBe(false);
    // The subagent's Bash ran in the worktree, on its branch.
    expect(lastToolResult(seen.subagent[2]!)).toContain(`${made}\nworktree-${name}`);
    // Its system prompt names the worktree as its working directory.
    expect(systemText(seen.subagent[0]!)).toContain(made);
    // The parent's result carries the final text and names the kept worktree and its branch.
    const result = lastToolResult(seen.parent[1]!);
    expect(result).toContain("NOTE-WRITTEN");
    expect(result).toContain(`kept in the worktree at ${made} (branch worktree-${name})`);
    expect(harness.emulator.stats().violations).toBe(0);
  });

  // Mutation caught: agent-worktree-clean-removed (a worktree left as it was is kept anyway).
  it("a worktree the subagent left unchanged is removed with its branch, and the result names none", async () => {
    const { router, seen } = scripted({ description: "Read a file", prompt: "read it", isolation: "worktree" }, [
      () => use("Read", { file_path: "greet.ts" }),
      () => "READ-DONE",
    ]);
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) }, { sandbox: false });
    initRepository(harness.workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    const main = await realpath(harness.workspace);
    // It read the committed file in its worktree (there was one while it ran).
    expect(lastToolResult(seen.subagent[1]!)).toContain("Helo");
    expect(listedWorktrees(main)).toEqual([main]);
    expect(branches(main)).toEqual(["main"]);
    expect(existsSync(path.join(main, ".claude", "worktrees"))).toBe(true);
    const result = lastToolResult(seen.parent[1]!);
    expect(result).toContain("READ-DONE");
    expect(result).not.toContain("worktree");
  });

  // Mutation caught: agent-isolation-not-a-repository (without the check git's own complaint is reported instead).
  it("outside a git repository it is one line, and nothing is created or run", async () => {
    const { router, seen } = scripted({ description: "Anything", prompt: "go", isolation: "worktree" }, []);
    harness = await startHarness({ scenario: Array.from({ length: 4 }, () => router) }, { sandbox: false });
    expect(turnEnd(await collect(harness.engine.submitMessage("delegate"))).reason).toBe("completed");
    expect(seen.subagent).toEqual([]);
    expect(lastToolResult(seen.parent[1]!)).toBe(
      `isolation "worktree" needs a git repository, and ${harness.workspace} is not in one; no agent was started`,
    );
    expect(existsSync(path.join(harness.workspace, ".claude"))).toBe(false);
  });

  it('isolation "remote" is one line and starts nothing', async () => {
    const { router, seen } = scripted({ description: "Anything", prompt: "go", isolation: "remote" }, []);
    harness = await startHarness({ scenario: Array.from({ length: 4 }, () => router) });
    await collect(harness.engine.submitMessage("delegate"));
    expect(seen.subagent).toEqual([]);
    expect(lastToolResult(seen.parent[1]!)).toBe(
      'isolation "remote" (a cloud environment) is not available in threadline; nothing was started. Use "worktree" or leave isolation out.',
    );
  });
});

describe("Agent model", () => {
  // Mutation caught: agent-model-alias (the type's or parent's model used whatever the call asked for).
  it("an alias picks the subagent's model; the parent keeps its own", async () => {
    const { router, seen } = scripted({ description: "Quick look", prompt: "look", model: "haiku" }, [() => "LOOKED"]);
    harness = await startHarness({ scenario: Array.from({ length: 4 }, () => router) });
    await collect(harness.engine.submitMessage("delegate"));
    expect(seen.subagent[0]?.model).toBe("claude-haiku-5-5");
    expect(seen.parent[0]?.model).not.toBe("claude-haiku-5-5");
  });
});

describe("Agent's schema", () => {
  it("has Claude Code 2.1.328's fields, types and enums, from the recorded fixture (effort included)", () => {
    const fixture = JSON.parse(readFileSync("test/fixtures/claude-code-tools.json", "utf8")) as {
      tools: Array<{ name: string; input_schema: { properties: Record<string, { type: string; enum?: string[] }> } }>;
    };
    type Fields = Record<string, { type: string; enum?: string[] }>;
    const theirs: Fields = fixture.tools.find((tool) => tool.name === "Agent")?.input_schema.properties ?? {};
    const tool = createAgentTool({ run: async () => Promise.reject(new Error("unused")), types: [] });
    const ours = (z.toJSONSchema(tool.inputSchema) as { properties: Fields; required: string[] }).properties;
    const shape = (fields: Fields) =>
      Object.fromEntries(
        Object.entries(fields).map(([name, field]) => [name, { type: field.type, enum: field.enum ?? null }]),
      );
    const expected = shape(theirs);
    expect(shape(ours)).toEqual(expected);
    expect(expected.effort).toEqual({ type: "string", enum: ["low", "medium", "high", "xhigh", "max"] });
    expect(expected.isolation).toEqual({ type: "string", enum: ["worktree", "remote"] });
    expect(expected.run_in_background).toEqual({ type: "boolean", enum: null });
  });
});
