import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { DEFAULT_SUBAGENT_TYPES, subagentTools } from "../../src/engine/subagent.js";
import { defaultTools, deferredBuiltinTools } from "../../src/tools/default-tools.js";
import { enterWorktreeTool } from "../../src/tools/worktree/enter-worktree-tool.js";
import { exitWorktreeTool } from "../../src/tools/worktree/exit-worktree-tool.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { branches, gitIn, initRepository, listedWorktrees } from "../../support/git-repository.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The text of the last tool_result in a request (what the model saw last). */
function lastToolResult(body: unknown): string {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  const content = messages.at(-1)?.content;
  const blocks = Array.isArray(content) ? (content as Array<{ type: string; content?: unknown }>) : [];
  const inner = blocks.findLast((block) => block.type === "tool_result")?.content;
  return typeof inner === "string" ? inner : JSON.stringify(inner ?? "");
}

function posts(h: Harness): unknown[] {
  return h.emulator.requests.filter((entry) => entry.path === "/v1/messages").map((entry) => entry.body);
}

const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use" as const, name, input }],
});
const search = use("ToolSearch", { query: "select:EnterWorktree,ExitWorktree" });

describe("EnterWorktree / ExitWorktree", () => {
  // Mutation caught: the executor ignoring the entered worktree (tools keep the old cwd) puts inside.txt in the
  // main checkout; ExitWorktree not restoring the cwd puts after.txt in the worktree.
  it("creates .claude/worktrees/<name> on worktree-<name>; tools work there; keep leaves it and returns", async () => {
    const scenario = [
      search,
      use("EnterWorktree", { name: "feature-x" }),
      use("Write", { file_path: "inside.txt", content: "in the worktree\n" }),
      use("Bash", { command: "pwd && git rev-parse --abbrev-ref HEAD" }),
      use("ExitWorktree", { action: "keep" }),
      use("Write", { file_path: "after.txt", content: "back home\n" }),
      "Done.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    const workspace = await realpath(harness.workspace);
    initRepository(workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("work in a worktree"))).reason).toBe("completed");
    const worktree = path.join(workspace, ".claude", "worktrees", "feature-x");
    expect(listedWorktrees(workspace)).toEqual([workspace, worktree]);
    expect(branches(workspace)).toContain("worktree-feature-x");
    expect(await readFile(path.join(worktree, "inside.txt"), "utf8")).toBe("in the worktree\n");
    expect(existsSync(path.join(workspace, "inside.txt"))).toBe(false);
    expect(await readFile(path.join(workspace, "after.txt"), "utf8")).toBe("back home\n");
    const bodies = posts(harness);
    expect(lastToolResult(bodies[2])).toContain(`Created worktree at ${worktree} on branch worktree-feature-x`);
    expect(lastToolResult(bodies[4])).toContain(`${worktree}\nworktree-feature-x`);
    expect(lastToolResult(bodies[5])).toContain(`Its work stays at ${worktree}`);
    // Deferred: neither is in the tools block; ToolSearch's description names both.
    const tools = (bodies[0] as { tools: Array<{ name: string; description: string }> }).tools;
    expect(tools.map((tool) => tool.name)).not.toContain("EnterWorktree");
    expect(tools.find((tool) => tool.name === "ToolSearch")?.description).toMatch(/EnterWorktree.*ExitWorktree/s);
    // Kept on purpose: the session's end does not remove it.
    await harness.close();
    harness = undefined;
    expect(listedWorktrees(workspace)).toEqual([workspace, worktree]);
  });

  // Mutation caught: removing without checking for work deletes the uncommitted file at the first call.
  it("remove refuses over uncommitted work until discard_changes; then worktree and branch are gone", async () => {
    let workspace = "";
    let afterRefusal: string[] = [];
    const scenario = [
      search,
      use("EnterWorktree", { name: "scratch" }),
      use("Write", { file_path: "draft.txt", content: "unsaved\n" }),
      use("ExitWorktree", { action: "remove" }),
      () => {
        afterRefusal = listedWorktrees(workspace); // what git shows right after the refusal
        return use("ExitWorktree", { action: "remove", discard_changes: true });
      },
      "Removed.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    workspace = await realpath(harness.workspace);
    initRepository(workspace);
    const worktree = path.join(workspace, ".claude", "worktrees", "scratch");
    expect(turnEnd(await collect(harness.engine.submitMessage("try, then discard"))).reason).toBe("completed");
    const bodies = posts(harness);
    expect(lastToolResult(bodies[4])).toContain("1 uncommitted file");
    expect(lastToolResult(bodies[4])).toContain("draft.txt");
    expect(lastToolResult(bodies[5])).toContain(`Exited and removed worktree ${worktree}`);
    expect(afterRefusal).toEqual([workspace, worktree]);
    expect(listedWorktrees(workspace)).toEqual([workspace]);
    expect(existsSync(worktree)).toBe(false);
    expect(branches(workspace)).toEqual(["main"]);
  });

  it("a folder that is not a git repository is one line, and nothing is created", async () => {
    const scenario = [search, use("EnterWorktree", { name: "nope" }), "No repository."];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("enter"))).reason).toBe("completed");
    const text = lastToolResult(posts(harness)[2]);
    expect(text).toMatch(/^\S+ is not in a git repository, so there is no worktree to create; nothing was created\.$/);
    expect(existsSync(path.join(harness.workspace, ".claude"))).toBe(false);
  });

  // Mutation caught: close() not cleaning up leaves the empty worktree listed.
  it("at session end an entered worktree without work is removed; one with a commit is kept and named", async () => {
    for (const withCommit of [false, true]) {
      const scenario = [search, use("EnterWorktree", { name: "left-open" }), "Entered."];
      harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
      const workspace = await realpath(harness.workspace);
      initRepository(workspace);
      expect(turnEnd(await collect(harness.engine.submitMessage("enter"))).reason).toBe("completed");
      const worktree = path.join(workspace, ".claude", "worktrees", "left-open");
      if (withCommit) gitIn(worktree, "commit", "-q", "--allow-empty", "-m", "work");
      const lines = await harness.engine.close();
      await harness.emulator.close();
      harness = undefined;
      if (withCommit) {
        expect(lines).toEqual([
          `Worktree kept at ${worktree} (branch worktree-left-open): it has 0 uncommitted files and 1 commit not on the branch it started from.`,
        ]);
        expect(listedWorktrees(workspace)).toEqual([workspace, worktree]);
      } else {
        expect(lines).toEqual([]);
        expect(listedWorktrees(workspace)).toEqual([workspace]);
        expect(branches(workspace)).toEqual(["main"]);
      }
    }
  });

  // Mutation caught: the executor's cwd override gone, the absolute write to the main checkout is allowed.
  it("inside a worktree the main checkout is outside the workspace", async () => {
    let workspace = "";
    const scenario = [
      search,
      use("EnterWorktree", { name: "fenced" }),
      () => use("Write", { file_path: path.join(workspace, "escaped.txt"), content: "no\n" }),
      "Refused.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    workspace = await realpath(harness.workspace);
    initRepository(workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("write outside"))).reason).toBe("completed");
    expect(lastToolResult(posts(harness)[3])).toMatch(/outside/i);
    expect(existsSync(path.join(workspace, "escaped.txt"))).toBe(false);
  });

  it("a subagent does not get them (they would move the parent session's directory)", () => {
    const tools = subagentTools([...defaultTools(), ...deferredBuiltinTools()], DEFAULT_SUBAGENT_TYPES[0]!);
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("Read");
    expect(names).toContain("TaskStop");
    expect(names).not.toContain("EnterWorktree");
    expect(names).not.toContain("ExitWorktree");
  });

  it("have Claude Code 2.1.328's fields (sdk-tools.d.ts EnterWorktreeInput, ExitWorktreeInput)", () => {
    const shape = (schema: z.ZodType) => {
      const json = z.toJSONSchema(schema) as {
        properties: Record<string, { type?: string; enum?: string[] }>;
        required?: string[];
      };
      const fields = Object.entries(json.properties).map(([name, field]) => [name, field.enum ?? field.type]);
      return { fields: Object.fromEntries(fields), required: json.required ?? [] };
    };
    expect(shape(enterWorktreeTool.inputSchema)).toEqual({
      fields: { name: "string", path: "string" },
      required: [],
    });
    expect(shape(exitWorktreeTool.inputSchema)).toEqual({
      fields: { action: ["keep", "remove"], discard_changes: "boolean" },
      required: ["action"],
    });
  });
});
