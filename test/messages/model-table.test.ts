/**
 * The December model table (issue 55): per-model cache-read rates in every bill, the 5.x models' 128,000-token
 * default output, and Claude Code's default model when nothing names one. Oracles: the published prices as
 * literals (platform.claude.com model pages: Opus 5.5 $4/$20, cache read $0.20; Sonnet 5.5 $2/$10, cache read
 * $0.20; Fable 5.1 $10/$50, cache read a quarter of Fable 5's $1.00), and the emulator's request log over HTTP.
 */
import { afterEach, describe, expect, it } from "vitest";
import { addResponseUsage, emptyUsage, modelLimits, type Usage } from "../../src/messages/index.js";
import { cacheReadUsdPerToken, requestCostUsd } from "../../src/messages/pricing.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

const MILLION_EACH = {
  inputTokens: 1_000_000,
  outputTokens: 1_000_000,
  cacheReadTokens: 1_000_000,
  cacheWrite5mTokens: 1_000_000,
  cacheWrite1hTokens: 1_000_000,
};

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("the model table's prices", () => {
  // Mutation caught: cache-read-rate-standard-only (every model billed at the standard 0.1x read).
  it("bills each model's own cache-read rate: Opus 5.5 $0.20, Sonnet 5.5 $0.20, Fable 5.1 $0.25 per MTok", () => {
    // input + output + read + 5m write (1.25x) + 1h write (2x), $ for a million of each.
    expect(requestCostUsd("claude-opus-5-5", MILLION_EACH)).toBeCloseTo(4 + 20 + 0.2 + 5 + 8, 10);
    expect(requestCostUsd("claude-sonnet-5-5", MILLION_EACH)).toBeCloseTo(2 + 10 + 0.2 + 2.5 + 4, 10);
    expect(requestCostUsd("claude-fable-5-1", MILLION_EACH)).toBeCloseTo(10 + 50 + 0.25 + 12.5 + 20, 10);
    expect(requestCostUsd("claude-sonnet-4-6", MILLION_EACH)).toBeCloseTo(3 + 15 + 0.3 + 3.75 + 6, 10);
    expect(cacheReadUsdPerToken("claude-opus-5-5") * 1_000_000).toBeCloseTo(0.2, 10);
  });

  it("the loop's running total uses the same rate", () => {
    const total = emptyUsage();
    const usage: Usage = {
      input_tokens: 0,
      output_tokens: 0,
      cache_read_input_tokens: 2_000_000,
      cache_creation_input_tokens: 0,
    };
    addResponseUsage(total, usage, modelLimits("claude-opus-5-5-20260922"));
    expect(total.costUsd).toBeCloseTo(0.4, 10);
  });

  it("5.x models default to 128,000 output tokens; older ones keep 8,192", () => {
    expect(modelLimits("claude-opus-5-5").defaultOutputTokens).toBe(128_000);
    expect(modelLimits("claude-haiku-5-5").defaultOutputTokens).toBe(128_000);
    expect(modelLimits("claude-sonnet-4-6").defaultOutputTokens).toBe(8_192);
    expect(modelLimits("claude-opus-5-5")).toMatchObject({ defaultEffort: "medium", thinkingAlwaysOn: true });
  });
});

describe("the default model", () => {
  // Mutation caught: default-model-old (DEFAULT_MODEL back to claude-sonnet-4-6).
  it("with no --model, ANTHROPIC_MODEL or settings model, sends claude-opus-5-5 with max_tokens 128,000", async () => {
    const { ANTHROPIC_MODEL: _pinned, ...env } = process.env;
    harness = await startHarness({ scenario: ["Hello."] }, { env, transcript: false });
    expect(turnEnd(await collect(harness.engine.submitMessage("hi"))).reason).toBe("completed");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    expect(posts).toHaveLength(1);
    expect(posts[0]!.status).toBe(200);
    expect(posts[0]!.body).toMatchObject({ model: "claude-opus-5-5", max_tokens: 128_000 });
  });

  it("ANTHROPIC_MODEL still names the model (the suite's own pin, claude-sonnet-4-6, 8,192)", async () => {
    harness = await startHarness({ scenario: ["Hello."] }, { transcript: false });
    await collect(harness.engine.submitMessage("hi"));
    const post = harness.emulator.requests.find((entry) => entry.path === "/v1/messages");
    expect(post?.body).toMatchObject({ model: "claude-sonnet-4-6", max_tokens: 8_192 });
  });
});
