/**
 * Session memory feeds AutoCompact: once the session passes the memory thresholds the engine refreshes a
 * summary in the background after each turn, and a later compaction uses it instead of calling a model.
 */
import { existsSync, readFileSync } from "node:fs";
import { classifyRequest, type EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import type { CompactionNotesSnapshot } from "../../src/compaction/index.js";
import { COMPACT_SUMMARY_PREFIX, compactSummaryText } from "../../src/compaction/index.js";
import type { EngineEvent } from "../../src/loop/events.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { messageRecords, taskSteps, writeDataFiles } from "./compaction-scenario.js";

/** Client and server agree: autocompact runs at 37K − 7,400 − 2,405 = 27,195 (buffers scale with a small window), proactively. */
const WINDOW = 37_000;
const TASKS = 3;
const READS = 4;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Three tasks of four ~2K-token reads: memory is made after task 1 (over 75 % of the threshold), task 2 compacts. */
async function memoryHarness(sessionMemory: boolean): Promise<Harness> {
  const steps = Array.from({ length: TASKS }, (_, task) => taskSteps(task, READS, TASKS * READS)).flat();
  const h = await startHarness(
    { scenario: steps, contextWindow: WINDOW },
    { contextWindow: WINDOW, compaction: { collapse: false, microcompact: false }, sessionMemory },
  );
  await writeDataFiles(h.workspace, TASKS * READS, 2_000);
  return h;
}

function summaryCount(h: Harness): number {
  return messageRecords(h).filter((record) => classifyRequest(record.body as EmulatorRequest) === "summary").length;
}

interface TaskTrace {
  events: EngineEvent[];
  /** Summary requests in the log when the turn started (background work of earlier turns done). */
  summariesAtStart: number;
  /** The session memory when the turn started. */
  memoryAtStart: CompactionNotesSnapshot | undefined;
  /** For the first request sent after a compact_boundary: summary requests then, and its first message. */
  afterBoundary?: { summaries: number; firstMessage: string };
}

async function runTask(h: Harness, task: number): Promise<TaskTrace> {
  const trace: TaskTrace = { events: [], summariesAtStart: 0, memoryAtStart: undefined };
  let boundarySeen = false;
  // The trace compares against the memory the previous turn's background update left: wait for it.
  await h.engine.idle();
  for await (const event of h.engine.submitMessage(`Task ${task}: inspect the data files and report.`)) {
    if (trace.events.length === 0) {
      trace.summariesAtStart = summaryCount(h);
      trace.memoryAtStart = h.engine.compactionNotes?.snapshot();
    }
    trace.events.push(event);
    if (event.type === "entry" && event.entry.type === "system" && event.entry.subtype === "compact_boundary")
      boundarySeen = true;
    if (event.type === "request_start" && boundarySeen && trace.afterBoundary === undefined) {
      const first = event.request.body.messages[0]!;
      trace.afterBoundary = {
        summaries: summaryCount(h),
        firstMessage: typeof first.content === "string" ? first.content : JSON.stringify(first.content),
      };
    }
  }
  expect(turnEnd(trace.events).reason).toBe("completed");
  return trace;
}

function lastAssistantUuid(events: readonly EngineEvent[]): string | undefined {
  return events.findLast((event) => event.type === "assistant")?.entry.uuid;
}

describe("session memory and AutoCompact", () => {
  it("after the thresholds, a compaction uses the background memory with no summary model call", async () => {
    harness = await memoryHarness(true);
    const h = harness;
    const memory = h.engine.compactionNotes;
    expect(memory).toBeDefined();

    const task0 = await runTask(h, 0);
    expect(task0.summariesAtStart).toBe(0);
    expect(task0.memoryAtStart).toBeUndefined();
    const task1 = await runTask(h, 1);
    // Task 0 ended above 10K tokens but under 75 % of the 27K autocompact threshold: no update yet (one would
    // cost about what the summary it replaces costs, and no compaction is near).
    expect(task1.summariesAtStart).toBe(0);
    expect(task1.memoryAtStart).toBeUndefined();
    const task2 = await runTask(h, 2);
    // Task 1 ended over 75 % of the threshold: one background summary request made the memory, covering the
    // session through task 1's answer.
    expect(task2.summariesAtStart).toBe(1);
    const snapshot = task2.memoryAtStart;
    expect(snapshot?.throughUuid).toBe(lastAssistantUuid(task1.events));

    // Task 2 crossed the autocompact threshold: compacted with no new summary request before the next send.
    expect(task2.afterBoundary).toBeDefined();
    expect(task2.afterBoundary!.summaries).toBe(task2.summariesAtStart);
    expect(task2.afterBoundary!.firstMessage).toContain(COMPACT_SUMMARY_PREFIX);
    expect(task2.afterBoundary!.firstMessage).toContain(
      JSON.stringify(compactSummaryText(snapshot!.summary)).slice(1, -1),
    );
    const boundary = h.engine.timeline.entries.find(
      (entry) => entry.type === "system" && entry.subtype === "compact_boundary",
    );
    expect(boundary?.type === "system" ? boundary.compactMetadata?.trigger : undefined).toBe("auto");

    // It lives beside the transcript, so a resumed session has it too.
    const path = h.engine.transcriptPath!.replace(/\.jsonl$/, ".memory.md");
    expect(existsSync(path)).toBe(true);
    expect(readFileSync(path, "utf8")).toContain(snapshot!.summary);
  });

  it("without session memory the same compaction calls the summary model", async () => {
    harness = await memoryHarness(false);
    await runTask(harness, 0);
    await runTask(harness, 1);
    const task2 = await runTask(harness, 2);
    expect(task2.summariesAtStart).toBe(0);
    expect(task2.afterBoundary).toBeDefined();
    expect(task2.afterBoundary!.summaries).toBe(1);
    expect(task2.afterBoundary!.firstMessage).toContain(COMPACT_SUMMARY_PREFIX);
  });
});
