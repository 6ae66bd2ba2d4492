import { afterEach, describe, expect, it } from "vitest";
import { type EmulatorRequest, estimateRequestTokens, type ScenarioStep } from "../../src/emulator/index.js";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";
import { isSummaryRequest, messageRecords, runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const WINDOW = 60_000;

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
  await writeDataFiles(h.workspace, 10, 2_500);
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
  it("retries at most 3 times after prompt-too-long, each request smaller, and the last succeeds", async () => {
    // The client believes in a 100K window; the server enforces 70K, so the summary request is too long there.
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
    const all = messageRecords(harness).filter((record) => isSummaryRequest(record.body));
    // The first compaction: rejected attempts up to the first accepted one.
    const firstAccepted = all.findIndex((record) => record.status === 200);
    const summaries = all.slice(0, firstAccepted + 1);
    const rejected = summaries.filter((record) => record.status === 400);
    expect(rejected.length).toBeGreaterThanOrEqual(1);
    expect(rejected.length).toBeLessThanOrEqual(3);
    expect(summaries.at(-1)!.status).toBe(200);
    const sizes = summaries.map((record) => estimateRequestTokens(record.body as EmulatorRequest));
    for (let index = 1; index < sizes.length; index++) expect(sizes[index]!).toBeLessThan(sizes[index - 1]!);
    expect(rejected[0]!.error?.message).toContain("prompt is too long");
  });
});
