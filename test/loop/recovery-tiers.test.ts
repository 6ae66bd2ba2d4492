/**
 * The prompt-too-long chain asks the tier list, not named tiers: each tier's overflow step in tier order, at
 * most once per turn, only while its tier is on and the step is available; the final error names what was tried.
 */
import { describe, expect, it } from "vitest";
import { COMPACTION_TIERS, type OverflowOutcome, type OverflowReason, type Tier } from "../../src/compaction/index.js";
import { newPromptTooLongRecovery, recoverFromPromptTooLong } from "../../src/loop/recovery/prompt-too-long.js";
import { createSystemEntry } from "../../src/messages/index.js";
import { ProviderError } from "../../src/provider/errors.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput } from "../compaction/compaction-input.js";

const TOO_LONG = new ProviderError("prompt_too_long", "prompt is too long: 210000 tokens > 200000 maximum", {
  actualTokens: 210_000,
  maxTokens: 200_000,
});

/** A tier whose overflow step answers `outcome` and logs each call (with the numbers it was given). */
function stepTier(
  name: string,
  reason: OverflowReason,
  outcome: OverflowOutcome,
  options: { on?: boolean; available?: boolean } = {},
) {
  const calls: (number | undefined)[] = [];
  const tier: Tier = {
    name,
    enabled: () => options.on ?? true,
    run: () => ({}),
    overflow: {
      reason,
      label: `${name} step`,
      available: () => options.available ?? true,
      async relieve(_input, chain, overflow) {
        calls.push(overflow.actualTokens);
        chain.push(createSystemEntry(chain.context(), "informational", `${name} relieved`));
        return outcome;
      },
    },
  };
  return { tier, calls };
}

function input() {
  const builder = new TimelineBuilder();
  builder.user("Start.");
  return compactionInput(builder.entries, builder.clock);
}

describe("the overflow chain over the tier list", () => {
  it("the default list offers clearing old results, collapse drain, then reactive compaction", () => {
    // The chain then drops the oldest rounds behind a marker (loop/recovery/prompt-too-long.ts), after every tier's step.
    expect(COMPACTION_TIERS.flatMap((tier) => (tier.overflow ? [tier.overflow.reason] : []))).toEqual([
      "overflow_clear",
      "collapse_drain",
      "reactive_compact",
    ]);
  });

  it("asks each step once, in order, skipping off and unavailable ones, and names only the steps that tried", async () => {
    const off = stepTier("off", "collapse_drain", { kind: "retry", compacted: false }, { on: false });
    const absent = stepTier("absent", "collapse_drain", { kind: "retry", compacted: false }, { available: false });
    const empty = stepTier("empty", "collapse_drain", { kind: "nothing" });
    const helps = stepTier("helps", "reactive_compact", { kind: "retry", compacted: true });
    const fails = stepTier("fails", "reactive_compact", { kind: "failed", message: "compaction failed: no summary" });
    const tiers = [off.tier, absent.tier, empty.tier, helps.tier, fails.tier];
    const used = newPromptTooLongRecovery();

    const first = await recoverFromPromptTooLong(input(), TOO_LONG, used, tiers);
    expect(first).toMatchObject({ action: "retry", reason: "reactive_compact", compacted: true });
    expect(
      first.action === "retry" && first.records.map((record) => record.type === "system" && record.content),
    ).toEqual(["helps relieved"]);
    expect(helps.calls).toEqual([210_000]);

    const second = await recoverFromPromptTooLong(input(), TOO_LONG, used, tiers);
    expect(second).toEqual({
      action: "surface",
      message:
        "The conversation is too long for the model's context window (210,000 tokens > 200,000 maximum); " +
        "helps step and fails step could not make it fit (compaction failed: no summary). " +
        "Run /compact or /clear, or start a new session.",
    });
    expect([off.calls, absent.calls, empty.calls, helps.calls, fails.calls].map((calls) => calls.length)).toEqual([
      0, 0, 1, 1, 1,
    ]);

    // Nothing is asked twice in a turn: the chain ends.
    const third = await recoverFromPromptTooLong(input(), TOO_LONG, used, tiers);
    expect(third.action).toBe("surface");
    expect(fails.calls).toHaveLength(1);
  });
});
