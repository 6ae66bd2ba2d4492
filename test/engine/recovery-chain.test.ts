/**
 * The prompt-too-long chain in the loop, end to end on the emulator: the server's window is smaller than the
 * client's, so the client sends a request it believes fits and the server answers "prompt is too long".
 * Each tier configuration must take its own path: collapse drain, reactive compaction, or a clear error —
 * each step at most once per turn, and a tier that is off never runs.
 */
import { afterEach, describe, expect, it } from "vitest";
import {
  COMPACT_SUMMARY_PREFIX,
  type CompactionSettings,
  collapsedSpanText,
  DEFAULT_MAX_PTL_RETRIES,
} from "../../src/compaction/index.js";
import {
  classifyRequest,
  type EmulatorRequest,
  estimateRequestTokens,
  type RequestLogEntry,
} from "../../src/emulator/index.js";
import type { EngineEvent } from "../../src/loop/events.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { messageRecords, taskSteps, writeDataFiles } from "./compaction-scenario.js";

/** What the emulator (the "server") accepts; every engine here believes in a larger window. */
const SERVER_WINDOW = 30_000;
/** Main requests after which a turn is taken to be looping and interrupted. */
const LOOP_GUARD_REQUESTS = 20;
const TOO_LONG = /^prompt is too long: (\d+) tokens > 30000 maximum$/;

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function kind(record: RequestLogEntry): "summary" | "side" | "main" {
  return classifyRequest(record.body as EmulatorRequest);
}

function continueReasons(events: readonly EngineEvent[]): string[] {
  return events.flatMap((event) => (event.type === "loop_continue" ? [event.reason] : []));
}

function rejectedTooLong(records: readonly RequestLogEntry[]): RequestLogEntry[] {
  return records.filter((record) => record.status === 400 && TOO_LONG.test(record.error?.message ?? ""));
}

function bodyText(record: RequestLogEntry): string {
  return JSON.stringify((record.body as EmulatorRequest).messages);
}

/** Cache-break warnings: a recovery step changes the prefix on purpose, so there must be none. */
function cacheBreakNotices(entries: readonly TimelineEntry[]) {
  return entries.filter((entry) => entry.type === "system" && entry.content.startsWith("Prompt cache break"));
}

function compactBoundaries(entries: readonly TimelineEntry[]) {
  return entries.filter((entry) => entry.type === "system" && entry.subtype === "compact_boundary");
}

async function runTurn(engine: Harness["engine"], task: number) {
  // Each turn starts from the previous turn's staged collapses: wait for the ctx-agent as a slow typist would.
  await engine.idle();
  const events = await collect(engine.submitMessage(`Task ${task}: inspect the data files and report.`));
  return { events, end: turnEnd(events) };
}

/** A single task of `reads` Read calls over files of `tokens` tokens each, on an engine with `clientWindow`. */
async function singleTaskHarness(
  compaction: Partial<CompactionSettings>,
  reads: number,
  tokens: number,
  clientWindow?: number,
  sessionMemory = false,
): Promise<Harness> {
  const h = await startHarness(
    { scenario: taskSteps(0, reads, reads), contextWindow: SERVER_WINDOW },
    { compaction, sessionMemory, ...(clientWindow !== undefined ? { contextWindow: clientWindow } : {}) },
  );
  await writeDataFiles(h.workspace, reads, tokens);
  return h;
}

describe("prompt too long: the recovery chain on the emulator", () => {
  it("collapse on with a staged span: drains collapse (no model call) and the retried request succeeds", async () => {
    // Client window 60K: spans are staged at 24K, committed at 36K. The server rejects above 30K, so the
    // third task overflows the server while the client still sees no reason to commit.
    const steps = Array.from({ length: 3 }, (_, task) => taskSteps(task, 5, 15)).flat();
    harness = await startHarness(
      { scenario: steps, contextWindow: SERVER_WINDOW },
      { contextWindow: 60_000, compaction: { collapse: true, microcompact: false }, sessionMemory: false },
    );
    await writeDataFiles(harness.workspace, 15, 2_000);
    for (const task of [0, 1]) expect((await runTurn(harness.engine, task)).end.reason).toBe("completed");

    const h = harness;
    let staged: string | undefined;
    const events: EngineEvent[] = [];
    await h.engine.idle();
    for await (const event of h.engine.submitMessage("Task 2: inspect the data files and report.")) {
      // The background ctx-agent finished before this turn: its staged span is there, uncommitted.
      if (event.type === "user" && events.length === 0) {
        const snapshot = h.engine.timeline.entries.findLast((entry) => entry.type === "collapse-snapshot");
        staged = snapshot?.type === "collapse-snapshot" ? snapshot.staged[0]?.startUuid : undefined;
        expect(h.engine.timeline.entries.some((entry) => entry.type === "collapse-commit")).toBe(false);
      }
      events.push(event);
    }
    expect(staged).toBeDefined();
    expect(turnEnd(events).reason).toBe("completed");
    expect(continueReasons(events).filter((reason) => reason !== "tool_use")).toEqual(["collapse_drain"]);

    const records = messageRecords(h);
    const rejected = rejectedTooLong(records);
    expect(rejected).toHaveLength(1);
    expect(kind(rejected[0]!)).toBe("main");
    const retry = records[records.indexOf(rejected[0]!) + 1]!;
    // The very next request is the retry itself: the drain called no model.
    expect(kind(retry)).toBe("main");
    expect(retry.status).toBe(200);
    expect(bodyText(retry)).toContain(collapsedSpanText("").trim());
    expect(bodyText(rejected[0]!)).not.toContain(collapsedSpanText("").trim());
    expect(estimateRequestTokens(retry.body as EmulatorRequest)).toBeLessThanOrEqual(SERVER_WINDOW);

    const entries = h.engine.timeline.entries;
    const commits = entries.filter((entry) => entry.type === "collapse-commit");
    expect(commits).toHaveLength(1);
    expect(commits[0]!.type === "collapse-commit" && commits[0]!.firstArchivedUuid).toBe(staged);
    expect(compactBoundaries(entries)).toHaveLength(0);
    expect(cacheBreakNotices(entries)).toEqual([]);
  });

  it("collapse off, autocompact on: compacts reactively (one summary side request) and the retry succeeds", async () => {
    // Client window 100K (autocompact at 67K); the server rejects the ninth read's request (~31.6K).
    harness = await singleTaskHarness({ collapse: false, microcompact: false }, 10, 3_000, 100_000);
    const { events, end } = await runTurn(harness.engine, 0);
    expect(end.reason).toBe("completed");
    expect(continueReasons(events).filter((reason) => reason !== "tool_use")).toEqual(["reactive_compact"]);

    const records = messageRecords(harness);
    const firstRejected = rejectedTooLong(records)[0]!;
    expect(kind(firstRejected)).toBe("main");
    const actual = Number(TOO_LONG.exec(firstRejected.error!.message)![1]);
    const after = records.slice(records.indexOf(firstRejected) + 1);
    const retryIndex = after.findIndex((record) => kind(record) === "main");
    const summaries = after.slice(0, retryIndex);
    // The summary request may itself be too long for the server; it retries smaller and is accepted.
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(summaries.length).toBeLessThanOrEqual(1 + DEFAULT_MAX_PTL_RETRIES);
    expect(summaries.every((record) => kind(record) === "summary")).toBe(true);
    expect(summaries.at(-1)!.status).toBe(200);
    const retry = after[retryIndex]!;
    expect(retry.status).toBe(200);
    const firstMessage = (retry.body as EmulatorRequest).messages[0]!;
    expect(JSON.stringify(firstMessage.content)).toContain(COMPACT_SUMMARY_PREFIX);
    // Nothing was rejected after the retry, and no collapse record was ever written.
    expect(after.slice(retryIndex).every((record) => record.status === 200)).toBe(true);

    const entries = harness.engine.timeline.entries;
    const boundaries = compactBoundaries(entries);
    expect(boundaries).toHaveLength(1);
    const metadata = boundaries[0]!.type === "system" ? boundaries[0]!.compactMetadata : undefined;
    expect(metadata).toMatchObject({ trigger: "reactive", preTokens: actual });
    expect(metadata!.postTokens).toBeLessThan(SERVER_WINDOW);
    expect(cacheBreakNotices(entries)).toEqual([]);
    expect(entries.some((entry) => entry.type === "collapse-commit" || entry.type === "collapse-snapshot")).toBe(false);
  });

  it("both off: the turn ends with prompt_too_long, the numbers in the error, and no summary request ever", async () => {
    // Session memory is left at its default (on): it must not run either, since autocompact is off.
    harness = await singleTaskHarness(
      { collapse: false, autocompact: false, microcompact: false },
      10,
      3_000,
      100_000,
      true,
    );
    const { events, end } = await runTurn(harness.engine, 0);
    expect(end.reason).toBe("prompt_too_long");
    const records = messageRecords(harness);
    const rejected = rejectedTooLong(records);
    expect(rejected).toHaveLength(1);
    expect(records.at(-1)).toBe(rejected[0]);
    const actual = Number(TOO_LONG.exec(rejected[0]!.error!.message)![1]);
    expect(actual).toBeGreaterThan(SERVER_WINDOW);
    expect(end.error).toContain(`(${actual.toLocaleString("en-US")} tokens > 30,000 maximum)`);
    expect(end.error).not.toContain("could not make it fit");
    expect(events.some((event) => event.type === "notice" && event.level === "error")).toBe(true);
    expect(continueReasons(events).every((reason) => reason === "tool_use")).toBe(true);

    // Off means off, background work included: every request was a main-loop request of this turn.
    await harness.engine.close();
    const all = messageRecords(harness);
    expect(all.map(kind)).toEqual(all.map(() => "main"));
    expect(all).toHaveLength(events.filter((event) => event.type === "request_start").length);
    const entries = harness.engine.timeline.entries;
    expect(compactBoundaries(entries)).toHaveLength(0);
    expect(entries.some((entry) => entry.type === "collapse-commit" || entry.type === "collapse-snapshot")).toBe(false);
  });

  it("never loops: when the compacted request is still too long, each step ran once and the turn ends", async () => {
    // Five reads of ~6.6K fill the server's window; a compaction keeps those five results verbatim (the client's
    // 200K window allows a 45K tail), so the compacted request is still over the server's 30K.
    harness = await singleTaskHarness({ microcompact: false }, 8, 5_500);
    const engine = harness.engine;
    const events: EngineEvent[] = [];
    for await (const event of engine.submitMessage("Task 0: inspect the data files and report.")) {
      events.push(event);
      // A chain that looped would go on forever: stop it well past any bound, so the test fails fast.
      if (events.filter((item) => item.type === "request_start").length > LOOP_GUARD_REQUESTS) engine.interrupt();
    }
    const end = turnEnd(events);
    expect(end.reason).toBe("prompt_too_long");
    expect(end.error).toMatch(/\(\d{2},\d{3} tokens > 30,000 maximum\)/);
    expect(end.error).toContain("reactive compaction could not make it fit");
    // Nothing was staged, so the drain had nothing to commit and did not retry; compaction retried once.
    expect(continueReasons(events).filter((reason) => reason !== "tool_use")).toEqual(["reactive_compact"]);

    const records = messageRecords(harness);
    const main = records.filter((record) => kind(record) === "main");
    const summaries = records.filter((record) => kind(record) === "summary");
    const rejectedMain = rejectedTooLong(main);
    expect(rejectedMain).toHaveLength(2); // the original and the one retry after compaction
    expect(main.at(-1)).toBe(rejectedMain[1]);
    expect(records.at(-1)).toBe(rejectedMain[1]);
    expect(summaries.length).toBeGreaterThanOrEqual(1);
    expect(summaries.length).toBeLessThanOrEqual(1 + DEFAULT_MAX_PTL_RETRIES);
    expect(main.length - rejectedMain.length).toBe(5); // the five accepted reads' requests
    expect(compactBoundaries(harness.engine.timeline.entries)).toHaveLength(1);
    // The turn's bill counts the summary requests that were answered, too.
    expect(end.usage.requests).toBe(5 + summaries.filter((record) => record.status === 200).length);
  });
});
