/**
 * The prompt-too-long chain in the loop, end to end on the emulator: the server's window is smaller than the
 * client's, so the client sends a request it believes fits and the server answers "prompt is too long".
 * Each tier configuration must take its own path: collapse drain, reactive compaction, or a clear error —
 * each step at most once per turn, and a tier that is off never runs.
 */

import { classifyRequest, type EmulatorRequest, type RequestLogEntry, TokenRuler } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import {
  COMPACT_SUMMARY_PREFIX,
  type CompactionSettings,
  collapsedSpanText,
  DEFAULT_MAX_PTL_RETRIES,
} from "../../src/compaction/index.js";
import type { EngineEvent } from "../../src/loop/events.js";
import { estimateRequestTokens, type TimelineEntry } from "../../src/messages/index.js";
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
    // Client window 50K (effective 40K: the output reserve is 20 % of a small window): spans are staged at 24K,
    // committed at 36K. The server rejects above 30K, so the third task overflows the server while the client
    // still sees no reason to commit.
    const steps = Array.from({ length: 3 }, (_, task) => taskSteps(task, 5, 15)).flat();
    harness = await startHarness(
      { scenario: steps, contextWindow: SERVER_WINDOW },
      { contextWindow: 50_000, compaction: { collapse: true, microcompact: false }, sessionMemory: false },
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
    // The drain called no model. The next pass knows the server's 30K window (learned from the error, kept for
    // the session), so it may compact before the retry: the retry is the next main request.
    const after = records.slice(records.indexOf(rejected[0]!) + 1);
    const retry = after.find((record) => kind(record) === "main")!;
    expect(after.indexOf(retry)).toBeLessThanOrEqual(1);
    expect(retry.status).toBe(200);
    // The first request after the rejection (the retry, or the summary before it) carries the drained view.
    expect(bodyText(after[0]!)).toContain(collapsedSpanText("").trim());
    expect(bodyText(rejected[0]!)).not.toContain(collapsedSpanText("").trim());
    expect(TokenRuler.unscaled.request(retry.body as EmulatorRequest)).toBeLessThanOrEqual(SERVER_WINDOW);

    const entries = h.engine.timeline.entries;
    const commits = entries.filter((entry) => entry.type === "collapse-commit");
    expect(commits).toHaveLength(1);
    expect(commits[0]!.type === "collapse-commit" && commits[0]!.firstArchivedUuid).toBe(staged);
    // At most the one compaction the learned 30K window calls for after the drain.
    expect(compactBoundaries(entries).length).toBeLessThanOrEqual(1);
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
    // preTokens is in estimate units, as every budget (docs/CONTEXT-BUDGET.md): the server's count of the rejected
    // request over the calibration, which that count itself just set (server count ÷ the estimate of the body the
    // server counted, ~1.10 under the Claude tokenizer; a slower earlier ratio may differ by well under 1 %).
    // Not the server's count itself: that assumed a server counting chars/4, where the two are equal.
    const seenRatio = actual / estimateRequestTokens(firstRejected.body as EmulatorRequest);
    expect(seenRatio).toBeGreaterThan(1.01);
    expect(metadata).toMatchObject({ trigger: "reactive" });
    expect(Math.abs(metadata!.preTokens - actual / seenRatio)).toBeLessThanOrEqual((actual / seenRatio) * 0.01);
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

  it("makes room in one step: the compaction's tail is budgeted to its target, so the retry fits the server's window", async () => {
    // Five reads of ~6.6K fill the server's 30K window. The client's window is 200K, but the server's error says
    // 30K: the chain works to that (and keeps it for the session), so the compaction keeps a tail budgeted in
    // tokens instead of the five results verbatim, and the one retry fits.
    // Mutations applied, each fails it: an unbudgeted tail (every kept result verbatim) ends at the blocking
    // limit; ignoring the window the error named (the 200K client window's 66,800 target) ends prompt_too_long.
    harness = await singleTaskHarness({ microcompact: false }, 8, 5_500);
    const engine = harness.engine;
    const events: EngineEvent[] = [];
    for await (const event of engine.submitMessage("Task 0: inspect the data files and report.")) {
      events.push(event);
      if (events.filter((item) => item.type === "request_start").length > LOOP_GUARD_REQUESTS) engine.interrupt();
    }
    expect(turnEnd(events).reason).toBe("completed");
    expect(continueReasons(events).filter((reason) => reason !== "tool_use")).toEqual(["reactive_compact"]);
    const records = messageRecords(harness);
    const main = records.filter((record) => kind(record) === "main");
    expect(rejectedTooLong(main)).toHaveLength(1);
    // The reactive one, then proactive ones at the learned window's threshold as the reads go on.
    expect(compactBoundaries(harness.engine.timeline.entries).length).toBeGreaterThanOrEqual(1);
    const afterCompaction = main.slice(main.indexOf(rejectedTooLong(main)[0]!) + 1);
    for (const record of afterCompaction)
      expect(TokenRuler.unscaled.request(record.body as EmulatorRequest)).toBeLessThanOrEqual(SERVER_WINDOW);
  });
});
