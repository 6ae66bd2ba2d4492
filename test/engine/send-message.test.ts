/**
 * SendMessage through the engine on the emulator over HTTP: ToolSearch lists and loads it, a message to a running
 * background agent arrives in that agent's next request, one that arrives after the agent's last request starts
 * another turn of it, and a message to an unknown id, to "main" or to a finished agent is one error line.
 * Oracles: the emulator's logged requests (the subagent's and the parent's), literal lines, Claude Code's recording.
 */
import { readFileSync } from "node:fs";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { subagentTools } from "../../src/engine/subagent.js";
import { GENERAL_PURPOSE_AGENT } from "../../src/engine/subagent-types.js";
import { sidechainTranscriptPath } from "../../src/sessions/subagent-transcript.js";
import { deferredBuiltinTools } from "../../src/tools/default-tools.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { initRepository } from "../../support/git-repository.js";
import { eventually, isSubagent, lastToolResult, use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
const releases: Array<() => void> = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await harness?.close();
  harness = undefined;
});

function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  releases.push(open);
  return { opened, open };
}

const launchedId = (text: string) => /agentId: ([0-9a-f]{16})/.exec(text)?.[1] ?? "";
const MESSAGE = "PING-7: only look under src/engine.";

describe("SendMessage", () => {
  // Mutations caught: send-message-not-deferred (it is in the first tools block, not behind ToolSearch),
  // send-message-inbox-undrained (the subagent's loop never takes its inbox: its next request lacks the message).
  it("ToolSearch lists it; a message to a running background agent is in that agent's next request", async () => {
    const sent = gate();
    const subagent: EmulatorRequest[] = [];
    const parent: EmulatorRequest[] = [];
    let id = "";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagent.push(request);
        if (subagent.length > 1) return "Looked under src/engine only.";
        await sent.opened; // answered once the message is queued: the agent's next request must carry it
        return use("Glob", { pattern: "*.md" });
      }
      parent.push(request);
      if (parent.length === 1)
        return use("Agent", { description: "Survey files", prompt: "survey the files", run_in_background: true });
      if (parent.length === 2) {
        id = launchedId(lastToolResult(request));
        return use("ToolSearch", { query: "select:SendMessage" });
      }
      if (parent.length === 3) return use("SendMessage", { to: id, summary: "narrow it", message: MESSAGE });
      sent.open();
      await eventually(() => subagent.length === 2);
      return "Sent.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 8 }, () => router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("survey, then narrow it"))).reason).toBe("completed");

    const first = (parent[0]!.tools ?? []) as Array<{ name: string; description?: string }>;
    expect(first.map((tool) => tool.name)).not.toContain("SendMessage");
    expect(first.map((tool) => tool.name)).toContain("ListAgents");
    expect(first.find((tool) => tool.name === "ToolSearch")?.description).toContain("SendMessage");
    expect(lastToolResult(parent[3]!)).toBe(
      `Message queued for agent ${id} (Survey files); it arrives as a user message at the agent's next request.`,
    );
    expect(subagent).toHaveLength(2);
    expect(JSON.stringify(subagent[0]!.messages)).not.toContain("PING-7");
    const next = JSON.stringify(subagent[1]!.messages.at(-1));
    expect(next).toContain(JSON.stringify(MESSAGE).slice(1, -1));
  });

  // Mutation caught: send-message-after-end (a message that came after the agent's last request is dropped: no second
  // turn, and the agent's result is its first answer).
  it("a message that arrives after the agent's last request starts another turn before it ends", async () => {
    const sent = gate();
    const subagent: EmulatorRequest[] = [];
    const parent: EmulatorRequest[] = [];
    let id = "";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagent.push(request);
        if (subagent.length > 1) return "SECOND ANSWER";
        await sent.opened;
        return "FIRST ANSWER";
      }
      parent.push(request);
      if (parent.length === 1)
        return use("Agent", { description: "Answer twice", prompt: "answer", run_in_background: true });
      if (parent.length === 2) {
        id = launchedId(lastToolResult(request));
        return use("ToolSearch", { query: "select:SendMessage" });
      }
      if (parent.length === 3) return use("SendMessage", { to: id, message: MESSAGE });
      if (parent.length === 4) {
        sent.open();
        const background = harness!.engine.toolRuntime.background!;
        await eventually(() => background.get(id)?.state === "exited");
        return use("ListAgents", {});
      }
      return "Done.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 10 }, () => router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("ask twice"))).reason).toBe("completed");
    expect(subagent).toHaveLength(2);
    expect(JSON.stringify(subagent[1]!.messages.at(-1))).toContain("PING-7");
    expect(JSON.stringify(parent[4]!.messages)).toContain("<result>SECOND ANSWER</result>");
    expect(lastToolResult(parent[4]!)).toMatch(new RegExp(`^${id} — Answer twice · completed · started `));
  });

  // Mutations caught: send-message-no-resume (a message to a finished agent is refused, not resumed),
  // resume-fresh-history (the resumed run starts from an empty conversation: its request lacks the earlier turn).
  it("a message to a finished agent resumes it with its earlier conversation; a new notification follows", async () => {
    const subagent: EmulatorRequest[] = [];
    const parent: EmulatorRequest[] = [];
    let id = "";
    const RESUME = "RESUME-9: now count the tests too.";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagent.push(request);
        return subagent.length === 1 ? "FIRST ANSWER: 7 files." : "RESUMED ANSWER: 3 tests.";
      }
      parent.push(request);
      const background = harness!.engine.toolRuntime.background!;
      if (parent.length === 1)
        return use("Agent", { description: "Count files", prompt: "count the files", run_in_background: true });
      if (parent.length === 2) {
        id = launchedId(lastToolResult(request));
        await eventually(() => background.get(id)?.state === "exited");
        return use("ToolSearch", { query: "select:SendMessage" });
      }
      if (parent.length === 3) return use("SendMessage", { to: id, summary: "go on", message: RESUME });
      if (parent.length === 4) {
        await eventually(() => subagent.length === 2 && background.get(id)?.state === "exited");
        return use("ListAgents", {});
      }
      return "Done.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 10 }, () => router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("count, then go on"))).reason).toBe("completed");
    expect(lastToolResult(parent[3]!)).toBe(
      [
        `Agent ${id} (Count files) had finished; your message resumed it with its earlier conversation, in the background.`,
        "You will be notified automatically when it completes.",
        `To stop it, call TaskStop with task_id "${id}".`,
      ].join("\n"),
    );
    expect(subagent).toHaveLength(2);
    // The resumed request: the first prompt, the first answer, then the message — one conversation.
    const resumed = subagent[1]!.messages.map((message) => [message.role, JSON.stringify(message.content)]);
    expect(resumed).toHaveLength(3);
    expect(resumed[0]![0]).toBe("user");
    expect(resumed[0]![1]).toContain("count the files");
    expect(resumed[1]).toEqual(["assistant", expect.stringContaining("FIRST ANSWER: 7 files.")]);
    expect(resumed[2]![0]).toBe("user");
    expect(resumed[2]![1]).toContain("RESUME-9");
    // The first notification came before the resume; the second carries the resumed answer.
    expect(JSON.stringify(parent[2]!.messages)).toContain("FIRST ANSWER: 7 files.");
    const later = JSON.stringify(parent[4]!.messages);
    expect(later).toContain("<result>RESUMED ANSWER: 3 tests.</result>");
    // One sidechain file holds both runs, in order.
    const sidechain = readFileSync(sidechainTranscriptPath(harness.engine.transcriptPath!, id), "utf8");
    const order = ["count the files", "FIRST ANSWER: 7 files.", "RESUME-9", "RESUMED ANSWER: 3 tests."];
    const positions = order.map((text) => sidechain.indexOf(text));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });

  // Mutation caught: resume-isolated-kept (a run that had its own worktree is resumed where the worktree is gone).
  it("a finished agent that ran in its own worktree is not resumed: one line, nothing sent", async () => {
    const subagent: EmulatorRequest[] = [];
    const parent: EmulatorRequest[] = [];
    let id = "";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagent.push(request);
        return "LOOKED.";
      }
      parent.push(request);
      const background = harness!.engine.toolRuntime.background!;
      if (parent.length === 1)
        return use("Agent", {
          description: "Isolated",
          prompt: "look",
          run_in_background: true,
          isolation: "worktree",
        });
      if (parent.length === 2) {
        id = launchedId(lastToolResult(request));
        await eventually(() => background.get(id)?.state === "exited");
        return use("ToolSearch", { query: "select:SendMessage" });
      }
      if (parent.length === 3) return use("SendMessage", { to: id, message: "go on" });
      return "Done.";
    };
    harness = await startHarness(
      { scenario: Array.from({ length: 8 }, () => router) },
      { deferredTools: true, sandbox: false },
    );
    initRepository(harness.workspace);
    expect(turnEnd(await collect(harness.engine.submitMessage("isolate, then go on"))).reason).toBe("completed");
    expect(lastToolResult(parent[3]!)).toBe(
      `Agent ${id}'s conversation is not kept (it ran in a worktree of its own, or in an earlier process); start a new Agent. Nothing was sent.`,
    );
    expect(subagent).toHaveLength(1);
  });

  // Mutation caught: send-message-unknown-list (the error line does not name the session's agents).
  it('an unknown id and "main" are one error line each, naming the known agents', async () => {
    const held = gate();
    const parent: EmulatorRequest[] = [];
    let id = "";
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        await held.opened;
        return "late";
      }
      parent.push(request);
      if (parent.length === 1) return use("ToolSearch", { query: "select:SendMessage" });
      if (parent.length === 2) return use("SendMessage", { to: "a-nobody", message: "hello" });
      if (parent.length === 3) return use("Agent", { description: "Hold on", prompt: "wait", run_in_background: true });
      if (parent.length === 4) {
        id = launchedId(lastToolResult(request));
        return use("SendMessage", { to: "bash_1", message: "hello" });
      }
      if (parent.length === 5) return use("SendMessage", { to: "main", message: "hello" });
      return "Done.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 10 }, () => router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("send around"))).reason).toBe("completed");
    expect(lastToolResult(parent[2]!)).toBe(
      'No background agent with ID "a-nobody"; nothing was sent. This session has no background agents.',
    );
    expect(lastToolResult(parent[4]!)).toBe(
      `No background agent with ID "bash_1"; nothing was sent. Background agents: ${id} (Hold on, running).`,
    );
    expect(lastToolResult(parent[5]!)).toBe(
      `"main" is this conversation: only a background agent could send to it; nothing was sent. Background agents: ${id} (Hold on, running).`,
    );
  });
});

describe("SendMessage's schema matches Claude Code 2.1.328's", () => {
  interface Schema {
    properties?: Record<string, { type?: string; maxLength?: number }>;
    required?: string[];
  }
  const recorded = JSON.parse(readFileSync("test/fixtures/claude-code-sendmessage-tool.json", "utf8")) as {
    version: string;
    tools: Array<{ name: string; input_schema: Schema; defer_loading?: boolean }>;
  };
  const shape = (schema: Schema) => ({
    fields: Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, field]) => [name, field.type])),
    required: [...(schema.required ?? [])].sort(),
  });

  it("field names, types and required fields (notify_when_idle left out); deferred; not a subagent's", () => {
    expect(recorded.version).toBe("2.1.328");
    const theirs = recorded.tools.find((tool) => tool.name === "SendMessage");
    expect(theirs?.defer_loading).toBe(true);
    const ours = deferredBuiltinTools().find((tool) => tool.name === "SendMessage");
    expect(ours?.deferLoading).toBe(true);
    const expected = shape(theirs?.input_schema ?? {});
    // Cross-session idle notices: threadline has no other sessions to subscribe to (docs/TOOLS.md).
    delete expected.fields.notify_when_idle;
    const generated = z.toJSONSchema(ours?.inputSchema ?? z.object({})) as Schema;
    expect(shape(generated)).toEqual(expected);
    expect(generated.properties?.summary?.maxLength).toBe(theirs?.input_schema.properties?.summary?.maxLength);
    expect(subagentTools(deferredBuiltinTools(), GENERAL_PURPOSE_AGENT).map((tool) => tool.name)).not.toContain(
      "SendMessage",
    );
  });
});
