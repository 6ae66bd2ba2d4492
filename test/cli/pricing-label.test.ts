import { describe, expect, it } from "vitest";
import { formatCostReport, formatStatusLine, type SessionStats } from "../../src/cli/modes/status/status-line.js";
import { modelPriceLabel, UNKNOWN_MODEL_NOTE } from "../../src/cli/pricing.js";
import { emptyUsage, isKnownModel, KNOWN_MODEL_IDS, modelLimits } from "../../src/messages/index.js";
import { requestCostUsd } from "../../src/messages/pricing.js";

/** Every id the pinned SDK's `Model` union names (node_modules/@anthropic-ai/sdk, resources/messages). */
const SDK_MODELS = [
  "claude-fable-5-2",
  "claude-mythos-5-2",
  "claude-haiku-5-5",
  "claude-sonnet-5-5",
  "claude-fable-5-1",
  "claude-opus-5-5",
  "claude-mythos-5-1",
  "claude-sonnet-5",
  "claude-fable-5",
  "claude-mythos-5",
  "claude-opus-5",
  "claude-opus-4-8",
  "claude-opus-4-7",
  "claude-mythos-preview",
  "claude-opus-4-6",
  "claude-sonnet-4-6",
  "claude-haiku-4-5",
  "claude-haiku-4-5-20251001",
  "claude-opus-4-5",
  "claude-opus-4-5-20251101",
  "claude-sonnet-4-5",
  "claude-sonnet-4-5-20250929",
];

function stats(model: string): SessionStats {
  return {
    contextTokens: 0,
    contextWindow: 200_000,
    totals: { ...emptyUsage(), costUsd: 0.5 },
    turnMillis: 0,
    toolCalls: 0,
    toolErrors: 0,
    turns: 1,
    model,
  };
}

describe("the model table and unknown models", () => {
  it.each(SDK_MODELS)("knows %s", (model) => {
    expect(isKnownModel(model)).toBe(true);
    expect(modelLimits(model).contextWindow).toBeGreaterThanOrEqual(200_000);
  });

  it("the claude-5 family has its published window and prices, and rejects prefill", () => {
    expect(modelLimits("claude-opus-5-5")).toMatchObject({ contextWindow: 1_000_000, maxOutputTokens: 128_000 });
    expect(modelLimits("claude-opus-5-5").inputPricePerMTok).toBe(4);
    expect(modelLimits("claude-opus-5").inputPricePerMTok).toBe(5);
    expect(modelLimits("claude-sonnet-5-5").outputPricePerMTok).toBe(10);
    expect(modelLimits("claude-fable-5-2").inputPricePerMTok).toBe(8);
    expect(modelLimits("claude-fable-5-1").acceptsPrefill).toBe(false);
    expect(KNOWN_MODEL_IDS).toContain("claude-mythos-preview");
  });

  it("an unknown model is named as unknown wherever its price is shown", () => {
    expect(modelPriceLabel("claude-sonnet-4-6")).toBe("claude-sonnet-4-6");
    expect(modelPriceLabel("qwen3-coder-30b")).toBe(`qwen3-coder-30b (${UNKNOWN_MODEL_NOTE})`);
    expect(formatStatusLine(stats("qwen3-coder-30b"))).toContain(UNKNOWN_MODEL_NOTE);
    expect(formatStatusLine(stats("claude-sonnet-4-6"))).not.toContain(UNKNOWN_MODEL_NOTE);
    expect(formatCostReport(stats("qwen3-coder-30b"))).toContain(`qwen3-coder-30b (${UNKNOWN_MODEL_NOTE})`);
    expect(
      requestCostUsd("qwen3-coder-30b", {
        inputTokens: 1,
        cacheReadTokens: 0,
        cacheWrite5mTokens: 0,
        cacheWrite1hTokens: 0,
        outputTokens: 0,
      }),
    ).toBeGreaterThanOrEqual(0);
  });
});
