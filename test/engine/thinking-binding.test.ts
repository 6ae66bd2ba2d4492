/**
 * Sessions on a model that binds thinking to its prefix (Opus 5.5) through the tiers that rewrite history: snip,
 * time-based microcompact (client-side clearing), collapse and autocompact. The emulator checks every thinking block
 * sent back against the prefix it was produced after and answers 400 for a changed one unless the request asks for
 * drop_block; threadline asks, so no request fails, and the thinking after each rewrite is dropped by the server,
 * reported in `input_transformations` and kept in the transcript. Oracles: the emulator's request log and literals.
 */
import type { EmulatorRequest, RequestLogEntry, ScenarioStep, Turn } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { formatInspectReport } from "../../src/cli/inspect/format.js";
import { inspectRecords } from "../../src/cli/inspect/report.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";
import { runTask, writeDataFiles } from "./compaction-scenario.js";

const MODEL = "claude-opus-5-5";
/** A server that takes betas (the public API does; a loopback URL is otherwise taken for a compatible server). */
const BETAS = { capabilities: { betas: true } };
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A step that thinks, says what it does and reads `file`. */
const thinkThenRead = (file: string, label: string): ScenarioStep => ({
  content: [
    { type: "thinking", thinking: `Plan for ${label}: read ${file} next.` },
    { type: "text", text: `Reading ${file}.` },
    { type: "tool_use", name: "Read", input: { file_path: file } },
  ],
});
/** A final answer that thinks first. */
const thinkThenAnswer = (text: string): ScenarioStep => ({
  content: [
    { type: "thinking", thinking: `Everything needed is in view; answer: ${text}` },
    { type: "text", text },
  ],
});

const messageRecords = (h: Harness): RequestLogEntry[] =>
  h.emulator.requests.filter((record) => record.path === "/v1/messages");
/** Every `input_transformations` entry the emulator logged, over the session. */
const dropped = (h: Harness) => messageRecords(h).flatMap((record) => record.inputTransformations ?? []);

/** What every request of a session on a binding model must show: no refusal, the binding asked for, on every one. */
function expectBoundSession(h: Harness): void {
  const records = messageRecords(h);
  expect(records.map((record) => record.status).filter((status) => status !== 200)).toEqual([]);
  for (const record of records) {
    expect((record.body as { thinking?: unknown }).thinking).toEqual({
      type: "adaptive",
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    });
    expect(record.headers["anthropic-beta"]).toContain("thinking-binding-controls-2026-08-01");
  }
}

describe("thinking bound to its prefix, through every tier that rewrites history", () => {
  it("snip: the thinking after the snipped exchange is dropped by the server, reported and recorded", async () => {
    const snipStep = (request: EmulatorRequest): Turn => {
      const id = /\[id:([0-9a-z]+)\]/.exec(JSON.stringify(request.messages[0]))?.[1];
      if (!id) throw new Error("no snip id tag on the first user message");
      return {
        content: [
          { type: "thinking", thinking: "The first exchange is obsolete." },
          { type: "tool_use", name: "Snip", input: { ids: [id] } },
        ],
      };
    };
    harness = await startHarness(
      {
        scenario: [
          thinkThenRead("README.md", "the readme"),
          thinkThenAnswer("The readme says hello."),
          thinkThenRead("greet.ts", "greet"),
          thinkThenAnswer("greet misspells Hello."),
          snipStep,
          thinkThenAnswer("Snipped the old exchange."),
        ],
      },
      { model: MODEL, compaction: { snip: true } },
      BETAS,
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("OBSOLETE TASK: read the readme"))).reason).toBe(
      "completed",
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("Read greet.ts"))).reason).toBe("completed");
    expect(dropped(harness)).toEqual([]);
    expect(turnEnd(await collect(harness.engine.submitMessage("Clean up the context please"))).reason).toBe(
      "completed",
    );
    expectBoundSession(harness);
    const last = messageRecords(harness).at(-1)!;
    expect(JSON.stringify(last.body)).not.toContain("OBSOLETE TASK");
    // Snip took the first prompt's text: every thinking block after it (five turns) was produced after it.
    expect(last.inputTransformations).toEqual(
      [1, 3, 5, 7, 9].map((message) => ({
        type: "thinking_dropped",
        path: `messages.${message}.content.0`,
        reason: "prefix_binding_mismatch",
      })),
    );
    // The transcript keeps what the server said it dropped, on the response it answered.
    const recorded = harness.engine.timeline.entries.flatMap((entry) =>
      entry.type === "assistant" ? (entry.message.input_transformations ?? []) : [],
    );
    expect(recorded).toHaveLength(5);
    // inspect counts them on the request that reported them, and says so in one line.
    const report = await inspectRecords(harness.engine.timeline.entries);
    expect(report.requests.map((request) => request.thinkingDropped)).toEqual([0, 0, 0, 0, 0, 5]);
    expect(formatInspectReport(report)).toContain(
      "Thinking dropped by the server (its prefix was rewritten): 5 blocks over 1 request, first at request 6",
    );
  });

  it("time-based microcompact (client-side clearing): no 400, the thinking after the first cleared result dropped", async () => {
    let now = Date.parse("2026-12-07T10:00:00Z");
    const files = sourceFileNames(8);
    harness = await startHarness(
      {
        scenario: [
          ...files.map((file, index) => thinkThenRead(file, `step ${index}`)),
          thinkThenAnswer("Read."),
          thinkThenAnswer("Back."),
        ],
        now: () => now,
      },
      { model: MODEL, now: () => new Date(now), compaction: { cacheEdits: "off" } },
      BETAS,
    );
    await writeSourceFiles(harness.workspace, 8, 4_000);
    expect(turnEnd(await collect(harness.engine.submitMessage("Read the modules."))).reason).toBe("completed");
    expect(dropped(harness)).toEqual([]);
    now += 61 * 60_000;
    expect(turnEnd(await collect(harness.engine.submitMessage("Anything else?"))).reason).toBe("completed");
    expectBoundSession(harness);
    // Eight results, the five most recent kept: the first three cleared, so every thinking block from the one
    // after the first cleared result on (steps 1-7 and the answer: 8) was produced after a changed prefix.
    expect(messageRecords(harness).at(-1)!.inputTransformations).toHaveLength(8);
  });

  it.each([
    { tier: "collapse", tasks: 7, reads: 3, files: 12, tokens: 2_000, collapse: true },
    { tier: "autocompact", tasks: 4, reads: 10, files: 8, tokens: 1_000, collapse: false },
  ])("$tier in a 60K window: every request answered, the drops reported", async (cell) => {
    const window = 60_000;
    const steps = Array.from({ length: cell.tasks }, (_, task) => [
      ...Array.from({ length: cell.reads }, (_, read) =>
        thinkThenRead(`data-${(task * cell.reads + read) % cell.files}.txt`, `task ${task}`),
      ),
      thinkThenAnswer(`Task ${task} is done: the files were read.`),
    ]).flat();
    harness = await startHarness(
      { scenario: steps, contextWindow: window },
      {
        model: MODEL,
        contextWindow: window,
        compaction: { collapse: cell.collapse, microcompact: false },
        sessionMemory: false,
      },
      BETAS,
    );
    await writeDataFiles(harness.workspace, cell.files, cell.tokens);
    for (let task = 0; task < cell.tasks; task++)
      expect((await runTask(harness.engine, task)).end.reason).toBe("completed");
    expectBoundSession(harness);
    const rewrites = harness.engine.timeline.entries.filter((entry) =>
      cell.collapse
        ? entry.type === "collapse-commit"
        : entry.type === "system" && entry.subtype === "compact_boundary",
    );
    expect(rewrites.length).toBeGreaterThan(0);
    expect(dropped(harness).length).toBeGreaterThan(0);
    expect(dropped(harness).every((item) => item.reason === "prefix_binding_mismatch")).toBe(true);
  });
});
