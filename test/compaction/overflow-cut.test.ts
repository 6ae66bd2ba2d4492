/**
 * The overflow chain on a model that cannot summarise (issue 58), checked by the records the chain writes:
 * - the drop step keeps the round holding the result the model has not read yet, also when the loop has recorded
 *   its synthetic "Prompt is too long" reply after it (that reply is never sent, so it is no round);
 * - when dropping leaves one round still over the window (one tool result bigger than the window), the biggest
 *   result is cut at a line to fit, and its last line says so.
 *
 * - after the breaker trips, the reactive chain sends no summary request; the "off" notice is said once; the
 *   reactive chain does not send the summary request the automatic one just sent for the same view.
 *
 * Mutations caught (scripts/mutation-check.mjs): `overflow-drop-counts-api-error-round`, `overflow-cut-step-removed`,
 * `reactive-summary-after-breaker`, `breaker-notice-repeats`, `reactive-summary-same-view-again`.
 */
import { describe, expect, it } from "vitest";
import type { AutoCompactSession, ForkRequest, ForkRunner, Tier } from "../../src/compaction/index.js";
import {
  COMPACTION_TIERS,
  countCompactionFailure,
  dropOverflowStep,
  RecordChain,
  runCompactionTiers,
} from "../../src/compaction/index.js";
import { newPromptTooLongRecovery, recoverFromPromptTooLong } from "../../src/loop/recovery/prompt-too-long.js";
import { createApiErrorEntry, type TimelineEntry } from "../../src/messages/index.js";
import { ProviderError } from "../../src/provider/errors.js";
import { TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput, thresholdsAt } from "./compaction-input.js";

const WINDOW = 16_000;
const TOO_LONG = new ProviderError("prompt_too_long", "prompt is too long", {
  actualTokens: 40_000,
  maxTokens: WINDOW,
});

/** Every tool_result block in `records`, by tool_use id, with its text. */
function resultsIn(records: readonly TimelineEntry[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const record of records) {
    if (record.type !== "user" || typeof record.message.content === "string") continue;
    for (const block of record.message.content)
      if (block.type === "tool_result") out.set(block.tool_use_id, String(block.content));
  }
  return out;
}

describe("the overflow chain when no summary can be had", () => {
  it("the drop step keeps the unread result though a synthetic error reply follows it", async () => {
    const builder = new TimelineBuilder();
    builder.user("Run the command again and again.");
    for (let index = 0; index < 5; index++) builder.round("Bash", "x".repeat(8_000));
    const unread = builder.round("Bash", "y".repeat(8_000));
    builder.append(createApiErrorEntry(builder.context(), "Prompt is too long"));
    const input = { ...compactionInput(builder.entries, builder.clock), thresholds: thresholdsAt(WINDOW) };
    const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
    const outcome = await dropOverflowStep.relieve(input, chain, { actualTokens: 40_000, maxTokens: WINDOW });
    expect(outcome.kind).toBe("retry");
    const kept = resultsIn(chain.records);
    // Mutation caught: the synthetic reply counted as the newest round (the unread result was dropped).
    expect(kept.get(toolUseId(unread.use))).toBe("y".repeat(8_000));
    expect(kept.size).toBeLessThan(6);
  });

  it("a single result bigger than the window is cut to fit, with one line saying so", async () => {
    const builder = new TimelineBuilder();
    builder.user("Run the command again and again.");
    const lines = Array.from({ length: 20_000 }, (_, index) => String(100_000 + index));
    const big = builder.round("Bash", lines.join("\n"));
    const input = { ...compactionInput(builder.entries, builder.clock), thresholds: thresholdsAt(WINDOW) };
    const noSummary: Tier = {
      name: "no-summary",
      enabled: () => true,
      run: () => ({}),
      overflow: {
        reason: "reactive_compact",
        label: "reactive compaction",
        relieve: () => Promise.resolve({ kind: "failed", message: "the summary request returned no summary" }),
      },
    };
    const used = newPromptTooLongRecovery();
    const steps = [];
    let entries: readonly TimelineEntry[] = builder.entries;
    for (let attempt = 0; attempt < 3; attempt++) {
      const step = await recoverFromPromptTooLong({ ...input, entries }, TOO_LONG, used, [noSummary]);
      steps.push(step);
      if (step.action !== "retry" || step.reason === "overflow_cut") break;
      entries = [...entries, ...step.records];
    }
    // Mutation caught: without the cut step the chain surfaces "too long" after the drop.
    const last = steps.at(-1)!;
    expect(last.action).toBe("retry");
    if (last.action !== "retry") return;
    expect(last.reason).toBe("overflow_cut");
    const cut = resultsIn(last.records).get(toolUseId(big.use))!;
    const shown = cut.split("\n");
    // The kept lines are the result's own first lines, in order; the last line names what was cut and how.
    expect(shown.slice(0, -1)).toEqual(lines.slice(0, shown.length - 1));
    expect(shown.at(-1)).toBe(
      `[Cut to fit the context window (no summary could be had): ${shown.length - 1} of 20000 lines shown; run Bash again for the rest.]`,
    );
    // It fits: under the window at ~4 characters a token, with the room the output reserve takes.
    expect(cut.length / 4).toBeLessThan(WINDOW * 0.75);
    expect(cut.length / 4).toBeGreaterThan(1_000);
  });
});

/** A fork runner whose model cannot summarise (it answers a tool call: no text), counting what it was sent. */
function uselessFork(): ForkRunner & { requests: ForkRequest[] } {
  const requests: ForkRequest[] = [];
  return {
    requests,
    estimateWindow: WINDOW,
    estimate: () => 1_000,
    run: (request) => {
      requests.push(request);
      return Promise.resolve({
        text: "",
        usage: { input_tokens: 1_000, output_tokens: 4 },
        estimatedInputTokens: 1_000,
      });
    },
  };
}

function longSession(): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Run the command again and again.");
  for (let index = 0; index < 8; index++) builder.round("Bash", `${index}`.repeat(8_000));
  return builder;
}

describe("a model that cannot summarise is not asked again and again", () => {
  it("after the breaker trips the reactive chain sends no summary request", async () => {
    const builder = longSession();
    const fork = uselessFork();
    const autoCompact: AutoCompactSession = { consecutiveFailures: 3, trippedNoticeShown: true };
    const input = {
      ...compactionInput(builder.entries, builder.clock),
      thresholds: thresholdsAt(WINDOW),
      fork,
      autoCompact,
    };
    const reactiveOnly = COMPACTION_TIERS.filter((tier) => tier.name === "autocompact");
    const step = await recoverFromPromptTooLong(input, TOO_LONG, newPromptTooLongRecovery(), reactiveOnly);
    expect(fork.requests).toHaveLength(0);
    expect(step.action).toBe("retry");
    // With the breaker closed, the same chain does ask (the guard is the breaker, not a missing fork).
    const open = { ...input, autoCompact: { consecutiveFailures: 0, trippedNoticeShown: false } };
    await recoverFromPromptTooLong(open, TOO_LONG, newPromptTooLongRecovery(), reactiveOnly);
    expect(fork.requests).toHaveLength(1);
  });

  it("the 'off' notice is said once, not with a rising count", () => {
    const session: AutoCompactSession = { consecutiveFailures: 0, trippedNoticeShown: false };
    const notices = Array.from({ length: 6 }, () => countCompactionFailure(session, "no summary"));
    expect(notices.filter((notice) => notice !== undefined)).toEqual([
      "Auto-compaction failed (1/3): no summary",
      "Auto-compaction failed (2/3): no summary",
      "Auto-compaction failed 3 times in a row and is off for this session: no summary. Use /compact to try by hand.",
    ]);
  });

  it("the reactive chain does not resend the summary request the automatic one just sent for the same view", async () => {
    const builder = longSession();
    const fork = uselessFork();
    const autoCompact: AutoCompactSession = { consecutiveFailures: 0, trippedNoticeShown: false };
    const input = {
      ...compactionInput(builder.entries, builder.clock),
      thresholds: thresholdsAt(WINDOW),
      fork,
      autoCompact,
    };
    const pass = await runCompactionTiers(input);
    expect(fork.requests).toHaveLength(1);
    expect(pass.compacted).not.toBe(true);
    const reactiveOnly = COMPACTION_TIERS.filter((tier) => tier.name === "autocompact");
    const step = await recoverFromPromptTooLong(input, TOO_LONG, newPromptTooLongRecovery(), reactiveOnly);
    expect(fork.requests).toHaveLength(1);
    expect(step.action).toBe("retry");
  });
});
