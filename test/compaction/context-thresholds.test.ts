/**
 * The one context budget (compaction/budget/context-thresholds.ts; docs/CONTEXT-BUDGET.md "One value, one unit").
 * Oracles are literals worked out by hand from the model table's window, the output reserve (min(max output,
 * 20,000, 20 % of the window)), the buffers (autocompact 13,000 or 6.5 %, blocking 3,000 or 1.5 %, warning 20,000
 * or 10 %) and the ratio.
 */
import { describe, expect, it } from "vitest";
import { autoCompactOverridesFromEnv, budgetLimits } from "../../src/compaction/index.js";
import { loopConfigFor } from "../../src/engine/engine-setup.js";

const at = (model: string, ratio = 1, overrides?: Record<string, number>) =>
  budgetLimits(model, overrides, { ratio, learnedWindow: undefined }).thresholds;

describe("the context budget is one value in the server's tokens, divided by the ratio for the loop", () => {
  // Mutation caught: `budget-ratio-ignored` (the estimate figures not divided by the ratio).
  it("claude-sonnet-4-6 at ×4: 167,000 / 177,000 of the server's tokens, 41,750 / 44,250 estimated", () => {
    const thresholds = at("claude-sonnet-4-6", 4);
    expect(thresholds.server).toEqual({
      window: 200_000,
      reserve: 20_000,
      effective: 180_000,
      autocompact: 167_000,
      warning: 147_000,
      blocking: 177_000,
      target: 66_800,
    });
    expect(thresholds.estimate).toEqual({
      window: 50_000,
      reserve: 5_000,
      effective: 45_000,
      autocompact: 41_750,
      warning: 36_750,
      blocking: 44_250,
      target: 16_700,
    });
    expect(at("claude-sonnet-4-6", 1).estimate).toEqual(at("claude-sonnet-4-6", 1).server);
  });
});

describe("the 1M models autocompact near 400K (Claude Code 2.1.334+)", () => {
  // Mutation caught: `autocompact-window-ignored` (the whole 1M window used for autocompact).
  it("claude-opus-5-5: autocompact from a 400,000 window (367,000), blocking from the full 1,000,000 (977,000)", () => {
    const { server, autoCompactWindow } = at("claude-opus-5-5");
    expect(autoCompactWindow).toBe(400_000);
    // 400,000 − 20,000 reserve − 13,000 buffer; warning 20,000 below it; blocking 1,000,000 − 20,000 − 3,000.
    expect(server).toMatchObject({ window: 1_000_000, autocompact: 367_000, warning: 347_000, blocking: 977_000 });
    expect(at("claude-fable-5-1").server.autocompact).toBe(367_000);
    expect(at("claude-sonnet-5-5").server.autocompact).toBe(367_000);
    // A 200K model is unchanged.
    expect(at("claude-sonnet-4-6").server.autocompact).toBe(167_000);
  });

  it("CLAUDE_CODE_AUTO_COMPACT_WINDOW moves it (capped at the model's window); the percent only lowers it", () => {
    expect(at("claude-opus-5-5", 1, { autoCompactWindow: 500_000 }).server.autocompact).toBe(467_000);
    expect(at("claude-opus-5-5", 1, { autoCompactWindow: 2_000_000 }).server.autocompact).toBe(967_000);
    // 50 % of 400,000 less the 20,000 reserve = 190,000; 95 % would be 361,000, under 367,000, so it applies too.
    expect(at("claude-opus-5-5", 1, { autoCompactPercent: 50 }).server.autocompact).toBe(190_000);
    expect(at("claude-opus-5-5", 1, { autoCompactPercent: 95 }).server.autocompact).toBe(361_000);
    // On 200K: 99 % of 180,000 = 178,200 is over the default 167,000: the default stays.
    expect(at("claude-sonnet-4-6", 1, { autoCompactPercent: 99 }).server.autocompact).toBe(167_000);
  });

  it("the environment's names reach the session's budget; a bad value is one line naming it", () => {
    const env = { CLAUDE_CODE_AUTO_COMPACT_WINDOW: "500000", CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "80" };
    expect(autoCompactOverridesFromEnv(env)).toEqual({ autoCompactWindow: 500_000, autoCompactPercent: 80 });
    expect(autoCompactOverridesFromEnv({})).toEqual({});
    expect(() => autoCompactOverridesFromEnv({ CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: "120" })).toThrow(
      'CLAUDE_AUTOCOMPACT_PCT_OVERRIDE must be a whole number from 1 to 100, got "120"',
    );
    const config = loopConfigFor({ model: "claude-opus-5-5" }, env, "/", {} as never);
    // 80 % of (500,000 − 20,000) = 384,000, under the 467,000 the window alone gives.
    expect(budgetLimits(config.model, config.modelOverrides, undefined).thresholds.server.autocompact).toBe(384_000);
  });
});
