/**
 * Compaction makes progress or stops (docs/ARCHITECTURE.md "Compaction target"), checked by what the tiers do,
 * counted from the outside: how many summary requests the fork runner was sent, and which records a pass wrote.
 * - A compaction that leaves the context over its target counts as a failure; after three in a row, the pass
 *   sends no more summary requests (the breaker).
 * - After a compaction, the next waits until the context has grown by a quarter of the threshold.
 * - The overflow chain's last step drops the oldest rounds behind a marker (no model call) when every tier's
 *   step failed.
 *
 * Mutations caught (scripts/mutation-check.mjs): `compaction-miss-not-a-failure`, `compaction-growth-gate-off`,
 * `overflow-drop-step-removed`.
 */
import { describe, expect, it } from "vitest";
import {
  type AutoCompactSession,
  type ForkRequest,
  type ForkRunner,
  runCompactionTiers,
  type Tier,
} from "../../src/compaction/index.js";
import { newPromptTooLongRecovery, recoverFromPromptTooLong } from "../../src/loop/recovery/prompt-too-long.js";
import { ProviderError } from "../../src/provider/errors.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput, thresholdsAt } from "./compaction-input.js";

/** A 30K window: autocompact at 22,050 tokens (docs/PIPELINE.md thresholds table), its target 40 % of that. */
const WINDOW = 30_000;

/**
 * A summary of about 200 estimated tokens: over MIN_SUMMARY_TOKENS (100), so it is a real summary and not the
 * "far too short" failure (summary-input.ts `summaryTooShort`); these tests are about missed targets, not that.
 */
const SUMMARY = [
  "The user asked to read every log and report what failed.",
  ...Array.from(
    { length: 9 },
    (_, index) =>
      `log ${index} was read in full: its entries are routine request traces, no error lines, no stack traces, nothing to follow up.`,
  ),
  "Nothing is pending; the next step is to answer the user with the list of failures, which is empty so far.",
].join(" ");

/** A fork runner that answers every summary request with that summary and counts them. */
function countingFork(): ForkRunner & { requests: ForkRequest[] } {
  const requests: ForkRequest[] = [];
  return {
    requests,
    estimateWindow: WINDOW,
    estimate: () => 1_000,
    run: (request) => {
      requests.push(request);
      return Promise.resolve({
        text: `<summary>${SUMMARY}</summary>`,
        usage: { input_tokens: 1_000, output_tokens: 40 },
        estimatedInputTokens: 1_000,
      });
    },
  };
}

/** A session of `rounds` Read rounds of ~3,000 tokens each (12,000 characters), over the 22,050 trigger at 9. */
function session(rounds: number) {
  const builder = new TimelineBuilder();
  builder.user("Read every log and tell me what failed.");
  for (let round = 0; round < rounds; round++) builder.round("Read", `log ${round}: ${"x".repeat(12_000)}`);
  return builder;
}

const AUTOCOMPACT_ONLY = { snip: false, microcompact: false, collapse: false, autocompact: true } as const;

/** Memory files of about `tokens` tokens (4 characters each), attached again after every compaction. */
const memoryOf = (tokens: number) => (tokens === 0 ? [] : [`Project rules. ${"r".repeat(tokens * 4)}`]);

/**
 * One tier pass with autocompact alone. `memoryTokens` of memory files are attached after a compaction: more
 * than the target (8,820 at 30K) and every compaction misses it, whatever the summary.
 */
async function pass(builder: TimelineBuilder, fork: ForkRunner, autoCompact: AutoCompactSession, memoryTokens: number) {
  return runCompactionTiers({
    ...compactionInput(builder.entries, builder.clock, { settings: AUTOCOMPACT_ONLY }),
    thresholds: thresholdsAt(WINDOW),
    fork,
    autoCompact,
    restoreAttachments: memoryOf(memoryTokens),
  });
}

const systemTexts = (records: readonly { type: string }[]) =>
  records.flatMap((record) =>
    record.type === "system" ? [String((record as unknown as { content: string }).content)] : [],
  );

describe("compaction makes progress or stops", () => {
  it("three compactions that miss their target stop auto-compaction: the fourth pass sends no summary request", async () => {
    const fork = countingFork();
    const breaker: AutoCompactSession = { consecutiveFailures: 0, trippedNoticeShown: false };
    for (let attempt = 0; attempt < 3; attempt++) {
      // Each pass starts from a larger session, so the growth gate never holds a compaction back here.
      const output = await pass(session(9 + attempt * 3), fork, breaker, 12_000);
      expect(output.compacted).toBe(true);
    }
    expect(fork.requests).toHaveLength(3);
    const fourth = await pass(session(18), fork, breaker, 12_000);
    // Mutation caught: a missed target not counted as a failure (the breaker never opens; a 4th summary is sent).
    expect(fork.requests).toHaveLength(3);
    expect(fourth.compacted).not.toBe(true);
  });

  it("a compaction that reached its target resets the count: misses must be in a row", async () => {
    const fork = countingFork();
    const breaker: AutoCompactSession = { consecutiveFailures: 0, trippedNoticeShown: false };
    await pass(session(9), fork, breaker, 12_000);
    await pass(session(12), fork, breaker, 12_000);
    await pass(session(15), fork, breaker, 0);
    await pass(session(18), fork, breaker, 12_000);
    await pass(session(21), fork, breaker, 12_000);
    expect(fork.requests).toHaveLength(5);
  });

  it("after a compaction the next waits for a quarter of the threshold of growth, and says so once", async () => {
    const fork = countingFork();
    const state: AutoCompactSession = { consecutiveFailures: 0, trippedNoticeShown: false };
    // The first compaction leaves over 20,000 tokens (the memory files): the next may compact only from there
    // plus a quarter of the 22,050 threshold (~5,500), so not at ~24,100 (8 rounds), though that is over 22,050.
    await pass(session(9), fork, state, 20_000);
    expect(fork.requests).toHaveLength(1);
    const held = await pass(session(8), fork, state, 20_000);
    // Mutation caught: the growth gate off (a second summary request right away).
    expect(fork.requests).toHaveLength(1);
    expect(systemTexts(held.records).filter((text) => text.startsWith("Compaction is not making room"))).toHaveLength(
      1,
    );
    const again = await pass(session(8), fork, state, 20_000);
    expect(fork.requests).toHaveLength(1);
    expect(systemTexts(again.records).filter((text) => text.startsWith("Compaction is not making room"))).toHaveLength(
      0,
    );
  });
});

describe("the overflow chain's last step", () => {
  const TOO_LONG = new ProviderError("prompt_too_long", "prompt is too long: 40000 tokens > 30000 maximum", {
    actualTokens: 40_000,
    maxTokens: 30_000,
  });
  const failing: Tier = {
    name: "always-fails",
    enabled: () => true,
    run: () => ({}),
    overflow: {
      reason: "reactive_compact",
      label: "a summary",
      relieve: () => Promise.resolve({ kind: "failed", message: "compaction failed: no summary" }),
    },
  };

  it("drops the oldest rounds behind a marker when every tier's step failed, without a model call", async () => {
    const builder = session(12);
    const input = {
      ...compactionInput(builder.entries, builder.clock, { settings: AUTOCOMPACT_ONLY }),
      thresholds: thresholdsAt(WINDOW),
    };
    const before = JSON.stringify(builder.entries);
    const step = await recoverFromPromptTooLong(input, TOO_LONG, newPromptTooLongRecovery(), [failing]);
    // Mutation caught: the drop step left out of the chain (the turn ends with the error instead).
    expect(step.action).toBe("retry");
    // Append-only (docs/INVARIANTS.md #1): the step writes records; no entry of the timeline changes.
    expect(JSON.stringify(builder.entries)).toBe(before);
    const texts = step.action === "retry" ? systemTexts(step.records) : [];
    expect(texts.some((text) => /^Conversation cut to fit \(reactive\): .* oldest rounds dropped$/.test(text))).toBe(
      true,
    );
  });

  it("with autocompact off nothing is dropped (off means off)", async () => {
    const builder = session(12);
    const input = {
      ...compactionInput(builder.entries, builder.clock, { settings: { ...AUTOCOMPACT_ONLY, autocompact: false } }),
      thresholds: thresholdsAt(WINDOW),
    };
    const step = await recoverFromPromptTooLong(input, TOO_LONG, newPromptTooLongRecovery(), [failing]);
    expect(step.action).toBe("surface");
  });
});
