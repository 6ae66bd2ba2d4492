import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { inspectFile } from "../../src/cli/inspect/inspect.js";
import { SUBAGENT_PROMPT_PREFIX, subagentUsage } from "../../src/engine/subagent.js";
import { DEFAULT_SUBAGENT_TYPES } from "../../src/engine/subagent-types.js";
import { isMessageEntry, type TimelineEntry, type UserEntry } from "../../src/messages/index.js";
import { sidechainTranscriptPath } from "../../src/sessions/index.js";
import { type AgentToolDisplay, defaultTools, isAgentToolDisplay } from "../../src/tools/index.js";
import type { Tool } from "../../src/tools/types.js";
import { loadTranscript, resumeConversation } from "../../src/transcript/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

/** Longest a test waits for concurrent arrivals before failing (instead of hanging). */
const ARRIVAL_TIMEOUT_MS = 5_000;

let harness: Harness | undefined;
const cleanups: Array<() => void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup();
  await harness?.close();
  harness = undefined;
});

function systemText(request: EmulatorRequest): string {
  if (typeof request.system === "string") return request.system;
  return (request.system ?? []).map((block) => block.text).join("\n");
}

function firstUserText(request: EmulatorRequest): string {
  const content = request.messages[0]?.content;
  if (typeof content === "string") return content;
  return (content ?? []).flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

function isSubagentRequest(request: EmulatorRequest): boolean {
  return systemText(request).includes(SUBAGENT_PROMPT_PREFIX);
}

function endsWithToolResult(request: EmulatorRequest): boolean {
  const last = request.messages.at(-1);
  return Array.isArray(last?.content) && last.content.some((block) => block.type === "tool_result");
}

/** Resolves true once `count` parties have arrived, or false after `timeoutMs` (so a test fails, never hangs). */
function arrivalBarrier(count: number, timeoutMs = ARRIVAL_TIMEOUT_MS): () => Promise<boolean> {
  let arrived = 0;
  let open!: (value: boolean) => void;
  const opened = new Promise<boolean>((resolve) => {
    open = resolve;
  });
  const timer = setTimeout(() => open(false), timeoutMs);
  cleanups.push(() => clearTimeout(timer));
  return () => {
    arrived++;
    if (arrived >= count) {
      clearTimeout(timer);
      open(true);
    }
    return opened;
  };
}

const PARENT_FINAL = "Both subagents reported.";

/** The parent calls Agent twice (alpha: the default type, beta: `betaType`), then summarizes. */
function parentTurn(request: EmulatorRequest, betaType?: string) {
  if (endsWithToolResult(request)) return PARENT_FINAL;
  return {
    content: [
      { type: "text" as const, text: "Delegating." },
      {
        type: "tool_use" as const,
        name: "Agent",
        input: { description: "Inspect greet file", prompt: "alpha: look at greet.ts" },
      },
      {
        type: "tool_use" as const,
        name: "Agent",
        input: {
          description: "Inspect readme",
          prompt: "beta: look at README.md",
          ...(betaType !== undefined ? { subagent_type: betaType } : {}),
        },
      },
    ],
  };
}

function agentResults(entries: readonly TimelineEntry[]): UserEntry[] {
  return entries.filter(
    (entry): entry is UserEntry => entry.type === "user" && isAgentToolDisplay(entry.toolUseResult),
  );
}

describe("Agent tool: subagents on the emulator", () => {
  it("runs two subagents concurrently with resumable sidechains; the parent sees only their results", async () => {
    const arrive = arrivalBarrier(2);
    const overlapped: boolean[] = [];
    const subagentTools: string[][] = [];
    const router: ScenarioStep = async (request) => {
      if (!isSubagentRequest(request)) return parentTurn(request, "Explore");
      const alpha = firstUserText(request).startsWith("alpha");
      if (request.messages.length === 1) {
        subagentTools.push((request.tools ?? []).map((tool) => tool.name));
        // Both subagents' first requests must be in flight at once for either to be answered.
        overlapped.push(await arrive());
        return {
          content: [{ type: "tool_use", name: "Read", input: { file_path: alpha ? "greet.ts" : "README.md" } }],
        };
      }
      return alpha ? "ALPHA-RESULT: greet.ts misspells Hello." : "BETA-RESULT: the readme is two lines.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 10 }, () => router) });
    const events = await collect(harness.engine.submitMessage("Check the greeting and the readme"));
    const end = turnEnd(events);
    expect(end.reason).toBe("completed");
    expect(end.lastText).toBe(PARENT_FINAL);
    expect(overlapped).toEqual([true, true]);

    // Subagents get a tool subset and never the Agent tool.
    expect(subagentTools).toHaveLength(2);
    for (const names of subagentTools) expect(names).not.toContain("Agent");
    const general = subagentTools.find((names) => names.includes("Bash"));
    expect(general?.sort()).toEqual(["Bash", "Edit", "Glob", "Grep", "REPL", "Read", "Write"]);
    const explore = subagentTools.find((names) => !names.includes("Bash"));
    expect(explore?.sort()).toEqual(["Glob", "Grep", "REPL", "Read"]);

    // The parent's tool results carry the final texts and link to the sidechains.
    const results = agentResults(harness.engine.timeline.entries);
    expect(results).toHaveLength(2);
    const displays = results.map((entry) => entry.toolUseResult as AgentToolDisplay);
    const texts = results.map((entry) => JSON.stringify(entry.message.content));
    expect(texts[0]).toContain("ALPHA-RESULT");
    expect(texts[1]).toContain("BETA-RESULT");
    expect(displays.map((display) => display.subagentType)).toEqual(["general-purpose", "Explore"]);
    expect(new Set(displays.map((display) => display.agentId)).size).toBe(2);

    const sidechainEntries: TimelineEntry[] = [];
    for (const display of displays) {
      expect(display.status).toBe("completed");
      expect(display.toolUseCount).toBe(1);
      expect(display.transcriptPath).toBe(sidechainTranscriptPath(harness.engine.transcriptPath!, display.agentId));
      expect(display.transcriptPath).toContain(`${harness.engine.sessionId}/subagents/agent-${display.agentId}`);
      const loaded = await loadTranscript(display.transcriptPath!);
      expect(loaded.problems).toEqual([]);
      const messages = loaded.entries.filter(isMessageEntry);
      expect(messages.length).toBeGreaterThanOrEqual(4);
      for (const entry of messages) {
        expect(entry.isSidechain).toBe(true);
        expect(entry.agentId).toBe(display.agentId);
        expect(entry.sessionId).toBe(harness.engine.sessionId);
      }
      // Resume gives the whole sidechain back: prompt, tool call, tool result, final answer.
      const resumed = resumeConversation(loaded.entries);
      expect(resumed.dropped).toBe(0);
      const resumedMessages = resumed.entries.filter(isMessageEntry);
      expect(resumedMessages.map((entry) => entry.uuid)).toEqual(messages.map((entry) => entry.uuid));
      const kinds = resumedMessages.map((entry) =>
        entry.type === "assistant" ? entry.message.content[0].type : entry.type,
      );
      expect(kinds).toEqual(["user", "tool_use", "user", "text"]);
      sidechainEntries.push(...loaded.entries);
      // inspect attributes the sidechain file's tokens to the subagent.
      const report = await inspectFile(display.transcriptPath!, { stderr: process.stderr, isTTY: false });
      expect(report.scopes.map((scope) => scope.scope)).toContain(display.agentId);
    }

    // The parent's requests never carry subagent entries: no sidechain tool ids, prompt, or file contents.
    const bodies = harness.emulator.requests
      .filter((record) => record.path === "/v1/messages" && record.body !== undefined)
      .map((record) => record.body as EmulatorRequest)
      .filter((body) => !isSubagentRequest(body));
    expect(bodies).toHaveLength(2);
    const finalBytes = JSON.stringify(bodies[1]);
    expect(finalBytes).toContain("ALPHA-RESULT");
    expect(finalBytes).toContain("BETA-RESULT");
    expect(finalBytes).not.toContain(SUBAGENT_PROMPT_PREFIX);
    expect(finalBytes).not.toContain("Helo"); // greet.ts content, read only by a subagent
    expect(finalBytes).not.toContain("A tiny project"); // README.md content, likewise
    for (const entry of sidechainEntries) {
      if (!isMessageEntry(entry)) continue;
      expect(finalBytes).not.toContain(entry.uuid);
      if (entry.type === "assistant" && entry.message.content[0].type === "tool_use")
        expect(finalBytes).not.toContain(entry.message.content[0].id);
    }
    expect(harness.emulator.stats().violations).toBe(0);

    // The parent's own transcript holds no sidechain entries; usage is attributed per subagent.
    await harness.engine.close();
    const parent = await loadTranscript(harness.engine.transcriptPath!);
    expect(parent.entries.filter((entry) => isMessageEntry(entry) && entry.isSidechain)).toEqual([]);
    const fromParent = subagentUsage(parent.entries);
    expect(fromParent.map((usage) => usage.agentId)).toEqual(displays.map((display) => display.agentId));
    for (const usage of fromParent) {
      expect(usage.requests).toBe(2);
      expect(usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens).toBeGreaterThan(0);
    }
    const fromSidechains = subagentUsage(sidechainEntries);
    expect(fromSidechains.map(({ agentId, requests, outputTokens }) => ({ agentId, requests, outputTokens }))).toEqual(
      fromParent.map(({ agentId, requests, outputTokens }) => ({ agentId, requests, outputTokens })),
    );
  });

  it("refuses an unknown subagent type with a clear error result", async () => {
    harness = await startHarness({
      scenario: [
        {
          content: [
            { type: "tool_use", name: "Agent", input: { description: "x y z", prompt: "p", subagent_type: "Nope" } },
          ],
        },
        "ok",
      ],
    });
    const events = await collect(harness.engine.submitMessage("go"));
    expect(turnEnd(events).reason).toBe("completed");
    const result = events.find((event) => event.type === "tool_end");
    expect(result?.type === "tool_end" && result.isError).toBe(true);
    expect(JSON.stringify(result?.type === "tool_end" ? result.entry.message.content : "")).toContain(
      "general-purpose, Explore",
    );
  });
});

/** A read-only tool that waits until its call is aborted, recording starts and aborts. */
function blockingTool(log: { started: string[]; aborted: string[] }): Tool<{ id: string }> {
  return {
    name: "Blocking",
    description: "Waits until cancelled.",
    inputSchema: z.strictObject({ id: z.string() }),
    compactable: true,
    isReadOnly: () => true,
    call(input, context) {
      log.started.push(input.id);
      return new Promise((resolve) => {
        context.signal.addEventListener("abort", () => {
          log.aborted.push(input.id);
          resolve({ content: "cancelled" });
        });
      });
    },
  };
}

async function waitFor(condition: () => Promise<boolean> | boolean, what: string): Promise<void> {
  for (let attempt = 0; attempt < ARRIVAL_TIMEOUT_MS / 20; attempt++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe("Agent tool: aborting the parent", () => {
  it("aborts the subagents' running tools", async () => {
    const log = { started: [] as string[], aborted: [] as string[] };
    const router: ScenarioStep = (request) => {
      if (!isSubagentRequest(request)) return parentTurn(request);
      const id = firstUserText(request).startsWith("alpha") ? "alpha" : "beta";
      return { content: [{ type: "tool_use", name: "Blocking", input: { id } }] };
    };
    // With explicit tools the Agent tool is opted in; both subagents get the default (all-tools) type.
    harness = await startHarness(
      { scenario: Array.from({ length: 10 }, () => router) },
      { tools: [...defaultTools(), blockingTool(log)], agents: DEFAULT_SUBAGENT_TYPES },
    );
    const turn = collect(harness.engine.submitMessage("delegate"));
    await waitFor(() => log.started.length === 2, "both subagent tools to start");
    harness.engine.interrupt();
    const events = await turn;
    expect(turnEnd(events).reason).toBe("aborted");
    await waitFor(() => log.aborted.length === 2, "both subagent tools to see the abort");
    expect(log.aborted.sort()).toEqual(["alpha", "beta"]);
  });

  it("cancels the subagents' in-flight HTTP requests", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    cleanups.push(() => release());
    let arrivals = 0;
    const router: ScenarioStep = async (request) => {
      if (!isSubagentRequest(request)) return parentTurn(request);
      arrivals++;
      await held; // never answered while the test runs: only cancellation can end these requests
      return "too late";
    };
    harness = await startHarness({ scenario: Array.from({ length: 10 }, () => router) });
    const turn = collect(harness.engine.submitMessage("delegate"));
    await waitFor(() => arrivals === 2, "both subagent requests to arrive");
    harness.engine.interrupt();
    const events = await turn;
    expect(turnEnd(events).reason).toBe("aborted");
    // Each subagent's loop saw its stream cancelled and recorded the interruption in its sidechain.
    const folder = join(harness.engine.transcriptPath!.replace(/\.jsonl$/, ""), "subagents");
    await waitFor(async () => {
      if (!existsSync(folder)) return false;
      const files = await readdir(folder);
      if (files.length !== 2) return false;
      const texts = await Promise.all(files.map((file) => readFile(join(folder, file), "utf8")));
      return texts.every((text) => text.includes("[Request interrupted by user]"));
    }, "both sidechains to record the interruption");
    // No subagent request was ever answered.
    const answered = harness.emulator.requests.filter(
      (record) =>
        record.body !== undefined &&
        isSubagentRequest(record.body as EmulatorRequest) &&
        record.status === 200 &&
        record.stopReason,
    );
    expect(answered).toEqual([]);
  });
});
