/**
 * At a 16K window no compaction leaves the context above its target (docs/ARCHITECTURE.md "Compaction target").
 * Literal numbers: window 16,000 → output reserve 3,200, autocompact threshold 11,760, plain target 4,704 (40 % of
 * the threshold). A 6,000-character system prompt appendix makes system and tools large — over a quarter of the
 * threshold, so the target is the prefix plus 20 % of the room above it (docs/CONTEXT-BUDGET.md "The fixed
 * prefix"), the prefix as the server counts it (its count_tokens of the first request's system and tools) — and
 * long user messages make the emulator's summary long (it quotes 200 characters of every user message), so a
 * summary allowed the whole 3,200-token reserve overshoots the target. The oracle is the emulator's own usage of
 * the first main request after each summary request, never the client's estimate or the constants under test.
 */

import type { RequestLogEntry, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { prefixCount } from "../../bench/lib/pressure-run.js";
import { formatInspectReport, inspectRecords } from "../../src/cli/inspect/inspect.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const WINDOW = 16_000;
/** The autocompact threshold at 16K: 16,000 − 3,200 reserve − 1,040 buffer. */
const THRESHOLD = 11_760;
/** 40 % of the threshold: the target while the prefix is under a quarter of it. */
const PLAIN_TARGET = 4_704;
/** The output reserve at 16K: 20 % of the window. */
const RESERVE = 3_200;
const TURNS = 75;

/** Ordinary English words, each tagged with a number: the server's tokenizer counts such text ~1.06× the estimate. */
const VOCABULARY = (
  "the parser reads each module before the build starts and keeps a small cache of every symbol it finds " +
  "so that later passes can check names types and imports without opening the same file again while the " +
  "writer stores results under a folder named after the project"
).split(" ");

/**
 * A distinct ~900-character request (≈ 225 tokens), its first 200 characters quoted by the summary. Tagged words, not
 * made-up identifiers like `w12x34`: those cost the Claude tokenizer ~1.7× the estimate, which the calibration
 * then applies to the system prompt and tools as well and no compaction can reach its target.
 */
function request(turn: number): string {
  const words = Array.from(
    { length: 120 },
    (_, word) => `${VOCABULARY[(turn * 7 + word * 3) % VOCABULARY.length]}${(turn * 31 + word * 17) % 97}`,
  );
  return `Task ${turn}: note these tagged words for later, ${words.join(" ")}.`;
}

const APPENDIX = Array.from({ length: 100 }, (_, line) => `Project rule ${line}: keep module ${line} pure.`).join("\n");

function usageTokens(usage: {
  input_tokens: number;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
}): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** What one logged summary request cost, recomputed from the emulator's usage with literal prices. */
function oracle(record: RequestLogEntry) {
  const usage = record.usage!;
  const input = usage.input_tokens;
  const read = usage.cache_read_input_tokens ?? 0;
  const write = usage.cache_creation_input_tokens ?? 0;
  const output = usage.output_tokens;
  const usd = ((input + 1.25 * write + 0.1 * read) * 3 + output * 15) / 1_000_000;
  return { input, read, write, output, usd };
}

describe("compaction target at a 16K window", () => {
  // Mutation caught: summaryMaxTokens returning `reserve` (today's summary max_tokens, the whole output
  // reserve) lets the summary fill the target and the first request after it lands above 4,704.
  it("every first request after a compaction is within its target (the prefix counted by the server), and the summary's max_tokens is bounded below 3,200", async () => {
    const steps: ScenarioStep[] = Array.from({ length: TURNS }, (_, turn) => `Noted for task ${turn}.`);
    harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW },
      {
        contextWindow: WINDOW,
        appendSystemPrompt: APPENDIX,
        compaction: { collapse: false, microcompact: false },
        sessionMemory: false,
      },
    );
    for (let turn = 0; turn < TURNS; turn++) {
      const end = turnEnd(await collect(harness.engine.submitMessage(request(turn))));
      expect(end.reason).toBe("completed");
    }
    const records = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
    const summaries = records.flatMap((record, index) => (record.source === "summary" ? [index] : []));
    expect(summaries.length).toBeGreaterThanOrEqual(2);
    const after: number[] = [];
    for (const index of summaries) {
      const next = records.slice(index + 1).find((record) => record.source === "scenario");
      if (next?.usage !== undefined) after.push(usageTokens(next.usage));
    }
    expect(after.length).toBeGreaterThanOrEqual(2);
    const prefix = await prefixCount(harness.emulator.url, records[0]!.body);
    expect(prefix).toBeGreaterThan(THRESHOLD / 4); // the case this test is about: a prefix over a quarter
    const target = Math.max(PLAIN_TARGET, Math.floor(prefix + (THRESHOLD - prefix) * 0.2));
    for (const tokens of after) expect(tokens).toBeLessThanOrEqual(target);
    const maxTokens = summaries.map((index) => (records[index]!.body as { max_tokens: number }).max_tokens);
    for (const cap of maxTokens) expect(cap).toBeLessThan(RESERVE);

    // Priced and reported: each boundary's summaryUsage equals the usage the emulator logged for the summary
    // requests before it (after the previous boundary), and its cost is that usage at Sonnet 4.6's list prices
    // ($3 / $15 per MTok; cache write 1.25×, read 0.1×) recomputed here.
    // Mutation caught: dropping the usage push in summarizeWithRetries (or pricing output at the input price)
    // leaves summaryUsage zero (or the cost off) against the log.
    const boundaries = harness.engine.timeline.entries.filter(
      (entry) => entry.type === "system" && entry.subtype === "compact_boundary",
    );
    // One compaction may send its summary in chunks (summary-input.ts `partition`: the input over the summary
    // request's capacity, which is smaller in estimate units once the calibration runs over 1): summary requests
    // with no main request between them belong to one boundary, and its usage is their sum.
    const groups: number[][] = [];
    summaries.forEach((index, position) => {
      const previous = summaries[position - 1];
      const between = previous === undefined ? [] : records.slice(previous + 1, index);
      if (previous !== undefined && !between.some((record) => record.source === "scenario")) groups.at(-1)!.push(index);
      else groups.push([index]);
    });
    expect(boundaries).toHaveLength(groups.length);
    const expected = groups.map((group) => {
      const parts = group.map((index) => oracle(records[index]!));
      const sum = (key: "input" | "read" | "write" | "output" | "usd") =>
        parts.reduce((total, part) => total + part[key], 0);
      return {
        requests: group.length,
        input: sum("input"),
        read: sum("read"),
        write: sum("write"),
        output: sum("output"),
        usd: sum("usd"),
      };
    });
    boundaries.forEach((entry, position) => {
      const recorded = entry.type === "system" ? entry.compactMetadata?.summaryUsage : undefined;
      const want = expected[position]!;
      expect(recorded).toMatchObject({
        requests: want.requests,
        inputTokens: want.input,
        cacheReadInputTokens: want.read,
        cacheCreationInputTokens: want.write,
        outputTokens: want.output,
      });
      expect(recorded!.costUsd).toBeCloseTo(want.usd, 10);
    });
    const report = await inspectRecords(harness.engine.timeline.entries);
    const text = formatInspectReport(report);
    const lines = text.split("\n").filter((line) => /^ {2}\d+\. auto: /.test(line));
    expect(lines).toHaveLength(groups.length);
    lines.forEach((line, position) => {
      const want = expected[position]!;
      const total = (want.input + want.read + want.write).toLocaleString("en-US");
      const requests = `${want.requests} request${want.requests === 1 ? "" : "s"}`;
      expect(line).toContain(`summary: ${requests}, ${total} in (${want.read.toLocaleString("en-US")} cache read`);
      expect(line).toContain(`${want.output.toLocaleString("en-US")} out, $${want.usd.toFixed(4)}`);
      expect(line).toMatch(/: [\d,]+ → [\d,]+ tokens \(−[\d,]+\)/);
    });
  }, 120_000);
});
