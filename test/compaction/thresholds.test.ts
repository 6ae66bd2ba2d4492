import { describe, expect, it } from "vitest";
import {
  autoCompactThreshold,
  blockingLimit,
  calculateTokenWarningState,
  compactionTargetTokens,
  effectiveContextWindow,
  estimateEntriesTokens,
  tokenCountWithEstimation,
  warningThreshold,
} from "../../src/compaction/index.js";
import { createAssistantEntry, createUserEntry, textBlock } from "../../src/messages/index.js";
import { MODEL } from "../../support/timeline-builder.js";

describe("window thresholds", () => {
  it("gives PIPELINE §3.4's numbers for a 200K window", () => {
    expect(effectiveContextWindow(MODEL, 200_000)).toBe(180_000);
    expect(autoCompactThreshold(MODEL, 200_000)).toBe(167_000);
    expect(warningThreshold(MODEL, 200_000)).toBe(147_000);
    expect(blockingLimit(MODEL, 200_000)).toBe(177_000);
  });

  // Mutation caught: dropping the window shares (the fixed 20,000 / 13,000 / 3,000 at every window) makes the
  // 16K and 8K thresholds negative.
  it("scales with small windows: 16K and 8K compact at a sensible point, 200K keeps its numbers", () => {
    expect(effectiveContextWindow(MODEL, 16_000)).toBe(12_800);
    expect(autoCompactThreshold(MODEL, 16_000)).toBe(11_760);
    expect(warningThreshold(MODEL, 16_000)).toBe(10_160);
    expect(blockingLimit(MODEL, 16_000)).toBe(12_560);
    expect(compactionTargetTokens(MODEL, 16_000)).toBe(4_704);
    expect(autoCompactThreshold(MODEL, 8_000)).toBe(5_880);
    expect(compactionTargetTokens(MODEL, 200_000)).toBe(66_800);
    expect(autoCompactThreshold(MODEL, 1_000_000)).toBe(967_000);
  });

  // Mutation caught (`compaction-target-ignores-prefix`): the plain 40 % at every prefix — at a 4,000 window (40K
  // counted ×10) with a 2,500-token prefix the target would be 1,176, under the prefix itself, which no compaction
  // can reach (docs/CONTEXT-BUDGET.md "The fixed prefix").
  it("leaves the conversation a fifth of the room above a prefix over a quarter of the threshold", () => {
    // 4,000: threshold 2,940 (4,000 − 800 − 260). Plain target 1,176; 2,500 + 20 % of 440 = 2,588.
    expect(compactionTargetTokens(MODEL, 4_000, 2_500)).toBe(2_588);
    // 16,000: threshold 11,760; prefix 4,000 → 4,000 + 20 % of 7,760 = 5,552 (plain 4,704).
    expect(compactionTargetTokens(MODEL, 16_000, 4_000)).toBe(5_552);
    // A prefix under a quarter of the threshold changes nothing: 2,000 at 16K and 3,000 at 200K.
    expect(compactionTargetTokens(MODEL, 16_000, 2_000)).toBe(4_704);
    expect(compactionTargetTokens(MODEL, 200_000, 3_000)).toBe(66_800);
  });

  it("reserves only the model's max output when it is below 20,000", () => {
    // claude-3-5-haiku's max output is 8,192.
    expect(effectiveContextWindow("claude-3-5-haiku-20241022", 200_000)).toBe(191_808);
  });

  it("reports the warning state at each boundary", () => {
    const below = calculateTokenWarningState(146_999, MODEL, 200_000);
    expect(below.isAboveWarningThreshold).toBe(false);
    const warning = calculateTokenWarningState(147_000, MODEL, 200_000);
    expect([
      warning.isAboveWarningThreshold,
      warning.isAboveErrorThreshold,
      warning.isAboveAutoCompactThreshold,
    ]).toEqual([true, true, false]);
    const auto = calculateTokenWarningState(167_000, MODEL, 200_000);
    expect([auto.isAboveAutoCompactThreshold, auto.isAtBlockingLimit]).toEqual([true, false]);
    const blocking = calculateTokenWarningState(177_000, MODEL, 200_000);
    expect(blocking.isAtBlockingLimit).toBe(true);
    expect(calculateTokenWarningState(0, MODEL, 200_000).percentLeft).toBe(100);
    expect(calculateTokenWarningState(83_500, MODEL, 200_000).percentLeft).toBe(50);
    expect(calculateTokenWarningState(500_000, MODEL, 200_000).percentLeft).toBe(0);
  });
});

describe("tokenCountWithEstimation", () => {
  const context = (uuid: string) => ({ sessionId: "s", parentUuid: null, uuid, now: new Date(0) });

  it("adds the last response's usage to the estimate of what came after it", () => {
    const first = createUserEntry(context("u1"), "x".repeat(4_000));
    const reply = createAssistantEntry(context("a1"), textBlock("done"), {
      messageId: "m1",
      model: MODEL,
      usage: { input_tokens: 100, output_tokens: 50, cache_read_input_tokens: 1_000, cache_creation_input_tokens: 200 },
    });
    const after = createUserEntry(context("u2"), "y".repeat(400));
    expect(tokenCountWithEstimation([first, reply, after])).toBe(100 + 50 + 1_000 + 200 + 100);
  });

  it("estimates everything when no response has usage yet", () => {
    const entries = [
      createUserEntry(context("u1"), "x".repeat(4_000)),
      createUserEntry(context("u2"), "y".repeat(400)),
    ];
    expect(tokenCountWithEstimation(entries)).toBe(1_100);
    expect(estimateEntriesTokens(entries)).toBe(1_100);
  });
});
