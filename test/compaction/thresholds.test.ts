import { describe, expect, it } from "vitest";
import {
  autoCompactThreshold,
  blockingLimit,
  calculateTokenWarningState,
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
