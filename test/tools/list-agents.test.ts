/**
 * ListAgents over a real BackgroundTasks registry: one row per background agent (running, completed, failed,
 * stopped) in the order they started, paged with the cursor its last line names; `channel` and `q` refused with one
 * line; Claude Code 2.1.328's schema and placement (main tools block, not deferred; not a subagent's).
 * Oracles: literal lines, the recorded fixture.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { subagentTools } from "../../src/engine/subagent.js";
import { GENERAL_PURPOSE_AGENT } from "../../src/engine/subagent-types.js";
import { createListAgentsTool, listAgentsTool } from "../../src/tools/agents/list-agents-tool.js";
import { type BackgroundJobOutcome, BackgroundTasks } from "../../src/tools/shell/background-tasks.js";
import { defaultToolRuntime } from "../../src/tools/tool-runtime.js";
import type { ToolContext } from "../../src/tools/types.js";

let tasks: BackgroundTasks | undefined;
afterEach(async () => {
  await tasks?.close();
  tasks = undefined;
});

function contextFor(background: BackgroundTasks): ToolContext {
  return {
    cwd: process.cwd(),
    additionalDirectories: [],
    signal: new AbortController().signal,
    toolUseId: "toolu_list",
    onProgress: () => {},
    runtime: { ...defaultToolRuntime(), background },
  };
}

/** Starts a job that settles when its returned function is called with an outcome. */
function job(background: BackgroundTasks, id: string, label: string, taskType = "local_agent") {
  let settle!: (outcome: BackgroundJobOutcome) => void;
  const done = new Promise<BackgroundJobOutcome>((resolve) => {
    settle = resolve;
  });
  const controller = new AbortController();
  controller.signal.addEventListener("abort", () => settle({ status: "failed", notification: "stopped" }));
  background.startJob({
    id,
    taskType,
    label,
    controller,
    done,
    failure: () => ({ status: "failed", notification: "" }),
  });
  return settle;
}

const ISO = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z";

describe("ListAgents", () => {
  // Mutation caught: list-agents-status (finished agents are left out, or every row says running).
  it("lists each background agent with its status, start and end, in the order they started", async () => {
    tasks = new BackgroundTasks();
    const first = job(tasks, "aaaa000000000001", "Count files");
    job(tasks, "aaaa000000000002", "Still going");
    const third = job(tasks, "aaaa000000000003", "Broken run");
    job(tasks, "monitor_1", "not an agent", "local_monitor");
    first({ status: "completed", notification: "" });
    third({ status: "failed", notification: "" });
    await tasks.settled("aaaa000000000001");
    await tasks.settled("aaaa000000000003");
    await tasks.stop("aaaa000000000002");
    const output = await listAgentsTool.call({}, contextFor(tasks));
    const lines = String(output.content).split("\n");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(
      new RegExp(`^aaaa000000000001 — Count files · completed · started ${ISO} · ended ${ISO}$`),
    );
    expect(lines[1]).toMatch(new RegExp(`^aaaa000000000002 — Still going · stopped · started ${ISO} · ended ${ISO}$`));
    expect(lines[2]).toMatch(new RegExp(`^aaaa000000000003 — Broken run · failed · started ${ISO} · ended ${ISO}$`));
  });

  it("a running agent's row has no end; a session without agents says so", async () => {
    tasks = new BackgroundTasks();
    expect((await listAgentsTool.call({}, contextFor(tasks))).content).toBe(
      "No agents: this session has started no background agent (Agent with run_in_background).",
    );
    job(tasks, "bbbb000000000001", "Working");
    expect(String((await listAgentsTool.call({}, contextFor(tasks))).content)).toMatch(
      new RegExp(`^bbbb000000000001 — Working · running · started ${ISO}$`),
    );
  });

  // Mutation caught: list-agents-cursor (the cursor is ignored: every page starts from the first agent).
  it("pages: the last line names the cursor of the next page, which lists the rest", async () => {
    tasks = new BackgroundTasks();
    for (const n of [1, 2, 3]) job(tasks, `cccc00000000000${n}`, `Agent ${n}`);
    const small = createListAgentsTool(2);
    const firstPage = String((await small.call({}, contextFor(tasks))).content).split("\n");
    expect(firstPage.map((line) => line.split(" ")[0])).toEqual(["cccc000000000001", "cccc000000000002", "1"]);
    expect(firstPage[2]).toBe('1 more: call ListAgents with cursor "cccc000000000002".');
    const next = String((await small.call({ cursor: "cccc000000000002" }, contextFor(tasks))).content).split("\n");
    expect(next).toHaveLength(1);
    expect(next[0]).toMatch(/^cccc000000000003 — Agent 3 · running/);
    const unknown = await small.call({ cursor: "nope" }, contextFor(tasks));
    expect(unknown).toEqual({
      content:
        'ListAgents: unknown cursor "nope" (use the one the last line of a listing gave, or omit it to list from the start).',
      isError: true,
    });
  });

  // Mutation caught: list-agents-channel-ignored (a channel or query is silently ignored).
  it("channel and q are refused with one line; empty ones are as good as unset", async () => {
    tasks = new BackgroundTasks();
    job(tasks, "dddd000000000001", "One");
    expect(await listAgentsTool.call({ channel: "team" }, contextFor(tasks))).toEqual({
      content:
        "ListAgents `channel` is not available in threadline (there are no channels or other sessions to search); leave it unset. Nothing was listed.",
      isError: true,
    });
    expect((await listAgentsTool.call({ q: "worker" }, contextFor(tasks))).isError).toBe(true);
    expect((await listAgentsTool.call({ q: "" }, contextFor(tasks))).isError).toBeUndefined();
  });
});

describe("ListAgents' schema matches Claude Code 2.1.328's", () => {
  interface Schema {
    properties?: Record<string, { type?: string; maxLength?: number; description?: string }>;
    required?: string[];
    additionalProperties?: boolean;
  }
  const recorded = JSON.parse(readFileSync("test/fixtures/claude-code-tools.json", "utf8")) as {
    version: string;
    tools: Array<{ name: string; input_schema: Schema; defer_loading?: boolean }>;
  };

  it("fields, types, lengths and descriptions; in the main block; not a subagent's", () => {
    expect(recorded.version).toBe("2.1.328");
    const theirs = recorded.tools.find((tool) => tool.name === "ListAgents");
    expect(theirs?.defer_loading).toBeUndefined();
    expect(listAgentsTool.deferLoading).toBeUndefined();
    const ours = z.toJSONSchema(listAgentsTool.inputSchema) as Schema;
    expect(ours.properties).toEqual(theirs?.input_schema.properties);
    expect(ours.required ?? []).toEqual(theirs?.input_schema.required ?? []);
    expect(ours.additionalProperties).toBe(false);
    expect(subagentTools([listAgentsTool], GENERAL_PURPOSE_AGENT)).toEqual([]);
  });
});
