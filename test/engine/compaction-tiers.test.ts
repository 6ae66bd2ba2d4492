import { type EmulatorRequest, TokenRuler, validateRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { COMPACT_SUMMARY_PREFIX, collapsedSpanText } from "../../src/compaction/index.js";
import { estimateRequestTokens } from "../../src/messages/index.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { uiView } from "../../src/timeline/index.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { isSummaryRequest, messageRecords, runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

const WINDOW = 60_000;
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const usageTotal = (usage: {
  input_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}) => usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);

describe("AutoCompact on the emulator", () => {
  it("crosses the threshold, summarises with a cache-reading forked request, and continues", async () => {
    const tasks = 4;
    // Ten reads of ~1,000 estimated tokens a task (~1,370 by the server's tokenizer): the read that crosses the
    // threshold leaves the summary input under its slack, so the fork is the parent's request plus the instruction.
    // (Reads of 2,500 crossed it by ~3,400 server tokens at once, and the summary input was pre-cleared.)
    const reads = 10;
    const steps = Array.from({ length: tasks }, (_, task) => taskSteps(task, reads, 8)).flat();
    harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW },
      { contextWindow: WINDOW, compaction: { collapse: false, microcompact: false }, sessionMemory: false },
    );
    await writeDataFiles(harness.workspace, 8, 1_000);
    for (let task = 0; task < tasks; task++) expect((await runTask(harness.engine, task)).end.reason).toBe("completed");

    const records = messageRecords(harness);
    expect(records.every((record) => record.status === 200)).toBe(true);
    const summaryIndex = records.findIndex((record) => isSummaryRequest(record.body));
    expect(summaryIndex).toBeGreaterThan(0);
    const summary = records[summaryIndex]!;
    const parent = records[summaryIndex - 1]!;
    // The fork read exactly what the parent request had cached (tools, system and its messages).
    const parentPrefix =
      (parent.usage?.cache_read_input_tokens ?? 0) + (parent.usage?.cache_creation_input_tokens ?? 0);
    expect(summary.usage?.cache_read_input_tokens ?? 0).toBeGreaterThan(0);
    expect(summary.usage?.cache_read_input_tokens).toBe(parentPrefix);
    // Same tools, system and model as the main loop.
    const parentBody = parent.body as MessagesRequest;
    const summaryBody = summary.body as MessagesRequest;
    expect(summaryBody.tools).toEqual(parentBody.tools);
    expect(summaryBody.system).toEqual(parentBody.system);
    expect(summaryBody.model).toBe(parentBody.model);
    // The summary may write what the window reserves for output: 20 % of a 60K window, 12,000 server tokens,
    // which the client budgets in estimate units (docs/CONTEXT-BUDGET.md): 12,000 over the calibration, the
    // server's count of the parent request per estimated token (~1.1 under the Claude tokenizer). Never more; and
    // at 60K the room the target leaves after system and tools (compact-conversation.ts summaryMaxTokens) sits
    // just under the reserve: with the tools block's ~2,800 estimated tokens it binds ~2 % below it.
    const calibration = usageTotal(parent.usage!) / estimateRequestTokens(parentBody);
    expect(calibration).toBeGreaterThan(1.01);
    expect(summaryBody.max_tokens).toBeLessThanOrEqual((12_000 / calibration) * 1.01);
    expect(summaryBody.max_tokens).toBeGreaterThanOrEqual((12_000 / calibration) * 0.97);

    // The next main request starts from the summary and is valid.
    const next = records[summaryIndex + 1]!.body as MessagesRequest;
    const first = next.messages[0]!;
    expect(typeof first.content === "string" ? first.content : JSON.stringify(first.content)).toContain(
      COMPACT_SUMMARY_PREFIX,
    );
    expect(validateRequest(next, { contextWindow: WINDOW })).toEqual([]);
    expect(TokenRuler.unscaled.request(next as unknown as EmulatorRequest)).toBeLessThan(
      TokenRuler.unscaled.request(parentBody as unknown as EmulatorRequest),
    );

    const boundaries = harness.engine.timeline.entries.filter(
      (entry) => entry.type === "system" && entry.subtype === "compact_boundary",
    );
    expect(boundaries.length).toBeGreaterThanOrEqual(1);
    const metadata = boundaries[0]!.type === "system" ? boundaries[0]!.compactMetadata : undefined;
    expect(metadata?.trigger).toBe("auto");
    expect(metadata!.postTokens).toBeLessThan(metadata!.preTokens);

    // Every summary request the server billed is recorded, before the boundary it led to, with its usage.
    const entries = harness.engine.timeline.entries;
    const sideRequests = entries.filter((entry) => entry.type === "side-request");
    const summaries = records.filter((record) => isSummaryRequest(record.body));
    // The record keeps the billed counts; the server's descriptive usage fields (tier, geo) are not billed.
    const billed = (usage: unknown) => {
      const { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens } = usage as Record<
        string,
        unknown
      >;
      return { input_tokens, output_tokens, cache_read_input_tokens, cache_creation_input_tokens };
    };
    expect(sideRequests.map((entry) => billed(entry.usage))).toEqual(summaries.map((record) => billed(record.usage)));
    expect(sideRequests.every((entry) => entry.purpose === "compact")).toBe(true);
    expect(entries.indexOf(sideRequests[0]!)).toBeLessThan(entries.indexOf(boundaries[0]!));
    expect(harness.engine.totals.requests).toBe(records.length);
  });
});

describe("Context collapse on the emulator", () => {
  it("stages in the background, commits without a model call, projects the summary, and keeps the UI whole", async () => {
    const tasks = 7;
    const reads = 3;
    const steps = Array.from({ length: tasks }, (_, task) => taskSteps(task, reads, 12)).flat();
    harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW },
      { contextWindow: WINDOW, compaction: { collapse: true, microcompact: false }, sessionMemory: false },
    );
    await writeDataFiles(harness.workspace, 12, 2_000);
    const h = harness;
    const summaries = (): number => messageRecords(h).filter((record) => isSummaryRequest2(record.body)).length;
    let commitsSeen = 0;
    let passStartSummaries = 0;
    let pending: { summaries: number; requests: number } | undefined;
    const checked: Array<{ before: number; atSend: number; requestsAtCommit: number; requestsAtSend: number }> = [];
    for (let task = 0; task < tasks; task++) {
      for await (const event of h.engine.submitMessage(`Task ${task}: inspect the data files and report.`)) {
        if (event.type === "user" || event.type === "loop_continue") passStartSummaries = summaries();
        const commits = h.engine.timeline.entries.filter((entry) => entry.type === "collapse-commit").length;
        if (commits > commitsSeen && pending === undefined) {
          commitsSeen = commits;
          pending = { summaries: passStartSummaries, requests: messageRecords(h).length };
        }
        if (event.type === "request_start" && pending !== undefined) {
          checked.push({
            before: pending.summaries,
            atSend: summaries(),
            requestsAtCommit: pending.requests,
            requestsAtSend: messageRecords(h).length,
          });
          pending = undefined;
          // The request that follows a commit shows the span as its summary.
          expect(JSON.stringify(event.request.body.messages).includes("[Earlier task collapsed to a summary]")).toBe(
            true,
          );
          expect(validateRequest(event.request.body, { contextWindow: WINDOW })).toEqual([]);
        }
        if (event.type === "turn_end") expect(event.reason).toBe("completed");
      }
    }
    expect(checked.length).toBeGreaterThanOrEqual(1);
    for (const check of checked) {
      expect(check.atSend).toBe(check.before); // no model call between the pass start and the send
      expect(check.requestsAtSend).toBe(check.requestsAtCommit);
    }
    const entries = h.engine.timeline.entries;
    expect(entries.some((entry) => entry.type === "collapse-snapshot")).toBe(true);
    // While collapse is on, proactive autocompact stayed off.
    expect(entries.some((entry) => entry.type === "system" && entry.subtype === "compact_boundary")).toBe(false);
    // The UI still shows every prompt.
    const prompts = uiView(entries).filter(
      (entry) => entry.type === "user" && JSON.stringify(entry.message.content).includes("inspect the data files"),
    );
    expect(prompts).toHaveLength(tasks);
    // The last request does not carry the first task's prompt any more.
    const last = messageRecords(h).at(-1)!.body as MessagesRequest;
    expect(JSON.stringify(last.messages).includes("Reading data-0.txt for task 0.")).toBe(false);
    expect(JSON.stringify(last.messages).includes(collapsedSpanText("").trim())).toBe(true);
  });
});

function isSummaryRequest2(body: unknown): boolean {
  const text = JSON.stringify((body as MessagesRequest).messages.at(-1));
  return /summar/i.test(text) && /conversation/.test(text);
}
