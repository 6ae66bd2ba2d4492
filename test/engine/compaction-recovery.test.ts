import { type EmulatorRequest, type ScenarioStep, TokenRuler } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";
import { isSummaryRequest, messageRecords, runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Autocompact at 32,340 (the buffers scale with a small window), which the ten reads cross; blocking at 34,540. */
const WINDOW = 44_000;

/** Ten big reads (crossing the autocompact threshold), then six tiny Bash calls, then an answer. */
function breakerSteps(): ScenarioStep[] {
  const steps = taskSteps(0, 10, 10).slice(0, 10);
  for (let call = 0; call < 6; call++)
    steps.push({ content: [{ type: "tool_use", name: "Bash", input: { command: `echo small ${call}` } }] });
  steps.push("All done.");
  return steps;
}

async function breakerHarness(faults: Array<{ onRequest: number; kind: "server_error" }>): Promise<Harness> {
  const h = await startHarness(
    { scenario: breakerSteps(), contextWindow: WINDOW, faults },
    { contextWindow: WINDOW, compaction: { collapse: false, microcompact: false }, sessionMemory: false },
  );
  // No provider retries, so one failed summary request is one attempt.
  const engine = new (h.engine.constructor as typeof import("../../src/engine/query-engine.js").QueryEngine)({
    cwd: h.workspace,
    home: h.home,
    provider: fastProvider(h.emulator.url, { maxRetries: 0 }),
    permission: { mode: "bypassPermissions" },
    contextWindow: WINDOW,
    compaction: { collapse: false, microcompact: false },
    sessionMemory: false,
  });
  await h.engine.close();
  (h as { engine: typeof engine }).engine = engine;
  // 2,300 estimated tokens a file: the server's tokenizer counts each read as ~3,090 (~1.34× the estimate), so
  // nine reads leave the context near 30,000 by its count (under the 32,340 trigger) and the tenth near
  // 33,100, over it with room for the six small calls under the 34,540 blocking limit. (At 2,500 the ninth read
  // already crossed the trigger and the tenth the blocking limit: a reactive compaction, outside the breaker.)
  await writeDataFiles(h.workspace, 10, 2_300);
  return h;
}

describe("AutoCompact circuit breaker", () => {
  it("stops after exactly 3 consecutive failed summary requests, with a notice, and the turn goes on", async () => {
    // Dry run: where the first summary request falls (everything before it is deterministic).
    harness = await breakerHarness([]);
    expect((await runTask(harness.engine, 0)).end.reason).toBe("completed");
    const first = messageRecords(harness).find((record) => isSummaryRequest(record.body))?.messagesRequest;
    expect(first).toBeDefined();
    await harness.close();

    // Every summary attempt fails: they alternate with main requests.
    const failAt = [first!, first! + 2, first! + 4];
    harness = await breakerHarness(failAt.map((onRequest) => ({ onRequest, kind: "server_error" as const })));
    const { end, events } = await runTask(harness.engine, 0);
    expect(end.reason).toBe("completed");
    const attempts = messageRecords(harness).filter((record) => isSummaryRequest(record.body));
    expect(attempts.map((record) => record.messagesRequest)).toEqual(failAt);
    expect(attempts.every((record) => record.fault === "server_error")).toBe(true);
    const mainAfter = messageRecords(harness).filter((record) => (record.messagesRequest ?? 0) > failAt[2]!);
    expect(mainAfter.length).toBeGreaterThanOrEqual(3);
    expect(mainAfter.some((record) => isSummaryRequest(record.body))).toBe(false);
    const notices = harness.engine.timeline.entries.filter(
      (entry) => entry.type === "system" && entry.content.startsWith("Auto-compaction failed"),
    );
    expect(notices).toHaveLength(3);
    expect(notices[2]!.type === "system" && notices[2]!.content).toContain("off for this session");
    expect(events.some((event) => event.type === "entry")).toBe(true);
  });
});

describe("Summary request over the window", () => {
  it("a summary request the server finds too long is sent once at most: the window its error named is kept and worked to", async () => {
    // The client believes in a 100K window; the server enforces 70K. The first summary is a cache-safe fork of
    // the main loop's prefix (summary-fork.ts), sized by the window the client believes: the server refuses it
    // (unbilled), names its 70K window, and the summary is made the cleared way, its estimate kept under 95 % of
    // its budget. Every later fork is sized by the learned window: no second refusal, no 400 → shrink → retry
    // loop. Mutation applied: a slack of 1.5 (the estimate may overfill the budget) sends a cleared summary the
    // server rejects and fails this.
    const steps = taskSteps(0, 12, 12);
    harness = await startHarness(
      { scenario: steps, contextWindow: 70_000 },
      {
        contextWindow: 100_000,
        compaction: { collapse: false, microcompact: false },
        sessionMemory: false,
      },
    );
    await writeDataFiles(harness.workspace, 12, 8_000);
    const { end } = await runTask(harness.engine, 0);
    expect(end.reason).toBe("completed");
    const summaries = messageRecords(harness).filter((record) => isSummaryRequest(record.body));
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    const refused = summaries.filter((record) => record.status !== 200);
    expect(refused.length).toBeLessThanOrEqual(1);
    // Each refusal is followed by the cleared summary the server accepts.
    for (const record of refused) expect(summaries[summaries.indexOf(record) + 1]?.status).toBe(200);
    for (const record of summaries.filter((summary) => summary.status === 200))
      expect(TokenRuler.unscaled.request(record.body as EmulatorRequest)).toBeLessThanOrEqual(70_000);
  });
});
