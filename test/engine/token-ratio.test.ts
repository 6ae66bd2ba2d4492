/**
 * Compaction by the server's measure (docs/CONTEXT-BUDGET.md; issue 38): the emulator counts `tokenRatio` times
 * the estimate, and every oracle is the emulator's own request log (the usage it reported, the bodies it got),
 * never the client's budget functions. Targets are literals worked out by hand from docs/ARCHITECTURE.md
 * "Compaction thresholds".
 */
import { describe, expect, it } from "vitest";
import { runPressure, serverCount } from "../../bench/lib/pressure-run.js";
import type { PressureShape } from "../../bench/lib/pressure-session.js";
import { collect } from "../../support/collect.js";
import { startHarness, turnEnd } from "../../support/engine-harness.js";

const AUTOCOMPACT_ONLY = { snip: false, microcompact: false, collapse: false, autocompact: true } as const;

/** Four reads a task, results averaging 3 % of the window by the server's count. */
function shape(window: number, ratio: number): PressureShape {
  const mean = (window * 0.03) / ratio;
  return {
    tasks: 7,
    readsPerTask: 4,
    minTokens: Math.round(mean / 4),
    maxTokens: Math.round((mean * 7) / 4),
    factLag: 3,
  };
}

describe("a server that counts differently from the estimate", () => {
  // The budget is worked out in the server's tokens, then divided by the ratio (context-thresholds.ts): 120,000
  // less the output reserve (20,000) and the autocompact buffer (6.5 % of 120,000 = 7,800) is a threshold of
  // 92,200 = 23,050 estimated at ×4, target 40 % = 9,220 estimated = 36,880 of the server's tokens. Before the
  // calibration the first request after the compaction reported 44,312 (the target met in estimated tokens).
  // Mutations caught: `budget-ratio-ignored` (the window not divided by the ratio), `budget-usage-unscaled`.
  it("at ×4 no first request after a compaction is over its target by the server's count", async () => {
    const run = await runPressure({
      window: 120_000,
      tokenRatio: 4,
      shape: shape(120_000, 4),
      compaction: AUTOCOMPACT_ONLY,
    });
    expect(run.finished).toBe(true);
    expect(run.compactions).toBeGreaterThanOrEqual(1);
    expect(run.afterCompaction).toHaveLength(run.compactions);
    for (const count of run.afterCompaction) expect(count).toBeLessThanOrEqual(36_880);
    expect(run.rejected).toBe(0);
    expect(run.factsLost).toBe(0);
  }, 240_000);

  // 40,000 at ×10: output reserve 8,000, autocompact buffer 2,600, threshold 29,400 of the server's tokens; the
  // lean system and tools alone count ~9,300 there, over a quarter of it, so the target is that prefix (the
  // server's own count_tokens of each request's system and tools) plus a fifth of the room above it. Each
  // compaction lists more files in its artifact trail; before the trail was fitted to the room after a compaction
  // the fourth first-request-after landed at 140 % of its target.
  // Mutation caught: `trail-unbudgeted` (the whole trail attached).
  it("at 40K ×10, where the prefix takes over a quarter of the window, every compaction lands within its target", async () => {
    const run = await runPressure({ window: 40_000, tokenRatio: 10, shape: shape(40_000, 10), compaction: {} });
    expect(run.finished).toBe(true);
    expect(run.compactions).toBeGreaterThanOrEqual(3);
    expect(run.afterCompaction).toHaveLength(run.compactions);
    run.afterCompaction.forEach((count, index) => {
      const prefix = run.afterCompactionPrefix[index]!;
      expect(prefix).toBeGreaterThan(29_400 / 4);
      expect(count).toBeLessThanOrEqual(Math.max(11_760, Math.floor(prefix + (29_400 - prefix) * 0.2)));
    });
    expect(run.factsLost).toBe(0);
    // The task is never dropped: every main request holds the prompt of the task being worked on, verbatim, though
    // the summaries here come back cut at their max_tokens (a few dozen words). The task a request belongs to is the
    // latest whose prompt any request so far held (a task's first request always holds its own).
    // Mutation caught: `prompt-not-kept-after-summary`.
    let task = 0;
    const main = run.requests.filter(
      (record) => record.path === "/v1/messages" && (record.source === "scenario" || record.source === "reread"),
    );
    expect(main.length).toBeGreaterThan(20);
    for (const record of main) {
      const text = JSON.stringify((record.body as { messages: unknown }).messages);
      while (task < 6 && text.includes(`Task ${task + 1}: review the next modules`)) task++;
      expect(text).toContain(`Task ${task}: review the next modules, fix the checksum in the first one, and report.`);
    }
    expect(task).toBe(6);
  }, 240_000);

  // 400,000 at ×10: reserve 20,000, buffer 13,000, threshold 367,000 of the server's tokens = 36,700 estimated;
  // target 40 % = 14,680 estimated = 146,800 of the server's tokens.
  it("at ×10 a 400K-window session finishes, every request under the window, no compaction over its target", async () => {
    const run = await runPressure({ window: 400_000, tokenRatio: 10, shape: shape(400_000, 10), compaction: {} });
    expect(run.finished).toBe(true);
    expect(run.rejected).toBe(0);
    expect(run.peak).toBeLessThanOrEqual(400_000);
    for (const count of run.afterCompaction) expect(count).toBeLessThanOrEqual(146_800);
  }, 240_000);

  // The window (3,000 of the server's tokens) cannot hold even the system prompt and tools at ×10. The server's
  // own 400 is the only thing that says so: the engine is told of no window.
  // Mutations caught: `budget-no-rejected-body-guard` (the same body is sent again).
  it("a window that cannot hold the prompt ends the turn with an error naming it, not a summary", async () => {
    const harness = await startHarness(
      { contextWindow: 3_000, tokenRatio: 10, scenario: ["never reached"] },
      { transcript: false, sessionMemory: false },
    );
    try {
      const events = await collect(harness.engine.submitMessage("Summarise the project."));
      const end = turnEnd(events);
      expect(end.reason).not.toBe("completed");
      expect(end.error).toContain("3,000");
      expect(end.lastText).toBe("");
      const messages = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
      expect(messages.every((record) => record.status === 400)).toBe(true);
      expect(messages.filter((record) => record.source === "summary")).toHaveLength(0);
      // No rejected body was sent twice.
      const bodies = messages.map((record) => record.bodySha256);
      expect(new Set(bodies).size).toBe(bodies.length);
      expect(messages.length).toBeGreaterThanOrEqual(1);
      expect(messages.every((record) => serverCount(record) === 0)).toBe(true);
    } finally {
      await harness.close();
    }
  }, 60_000);
});
