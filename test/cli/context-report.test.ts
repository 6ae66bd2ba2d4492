/**
 * `/context` and the status line show the server's tokens: the estimate times the session's calibration
 * (docs/CONTEXT-BUDGET.md), against the server's window. Oracles are literals: a 4,000-character system prompt is
 * 1,000 estimated tokens (chars ÷ 4), so 2,000 where the server has been counting twice the estimate.
 * Mutation caught: `context-report-ignores-ratio` (the calibration dropped from the report).
 */
import { describe, expect, it } from "vitest";
import { estimateNextRequest, formatContextReport } from "../../src/cli/modes/slash/context-report.js";
import { budgetLimits, DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";

const thresholdsAt = (ratio: number) =>
  budgetLimits("claude-sonnet-4-6", undefined, { ratio, learnedWindow: undefined }).thresholds;

const input = {
  entries: [],
  model: "claude-sonnet-4-6",
  thresholds: thresholdsAt(1),
  systemPrompt: ["s".repeat(4_000)],
  tools: [],
  settings: DEFAULT_COMPACTION_SETTINGS,
};

describe("/context by the server's measure", () => {
  it("without a calibration the estimate is shown as it is", () => {
    expect(estimateNextRequest(input).systemTokens).toBe(1_000);
    expect(formatContextReport(input)).toContain("Context for the next request (estimated): 1.0k of 200k");
  });

  it("a session whose server counts twice the estimate shows twice the tokens, and says so", () => {
    const calibrated = { ...input, thresholds: thresholdsAt(2) };
    expect(estimateNextRequest(calibrated).systemTokens).toBe(2_000);
    expect(formatContextReport(calibrated)).toContain(
      "Context for the next request (estimated, calibrated ×2.00 to the server's count): 2.0k of 200k",
    );
  });
});
