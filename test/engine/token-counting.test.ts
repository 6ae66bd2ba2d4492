/**
 * Token counting where the server declares it (docs/CONTEXT-BUDGET.md, "Token counting"; issue 38): before the
 * first request after a compaction the loop asks `count_tokens`, and the count feeds the calibration. Oracles
 * are the emulator's request log: the usage it reported for the first request after each compaction, and the
 * count_tokens requests it received — none at all where counting is not declared (the rule: never send what
 * a server has not declared).
 */
import { describe, expect, it } from "vitest";
import { runPressure } from "../../bench/lib/pressure-run.js";
import type { PressureShape } from "../../bench/lib/pressure-session.js";

const AUTOCOMPACT_ONLY = { snip: false, microcompact: false, collapse: false, autocompact: true } as const;

/** Four reads a task, results averaging 3 % of the window by the server's count (as token-ratio.test.ts). */
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

const COUNT_PATH = "/v1/messages/count_tokens";

describe("token counting on a server that declares it", () => {
  // 120,000 server tokens at ×3 are 40,000 estimated: output reserve 20 % (8,000), autocompact buffer 6.5 %
  // (2,600), threshold 29,400, target 40 % = 11,760 estimated = 35,280 of the server's tokens.
  it("at ×3 counts before the first request after each compaction, which is within its target", async () => {
    const run = await runPressure({
      window: 120_000,
      tokenRatio: 3,
      shape: shape(120_000, 3),
      compaction: AUTOCOMPACT_ONLY,
      capabilities: { tokenCounting: true },
    });
    expect(run.finished).toBe(true);
    expect(run.compactions).toBeGreaterThanOrEqual(1);
    expect(run.afterCompaction).toHaveLength(run.compactions);
    for (const count of run.afterCompaction) expect(count).toBeLessThanOrEqual(35_280);
    expect(run.rejected).toBe(0);
    // After each compaction, a count comes before the next main request.
    expect(run.compactedAt).toHaveLength(run.compactions);
    for (const index of run.compactedAt) {
      const next = run.requests
        .slice(index)
        .find((record) => record.path === COUNT_PATH || record.source === "scenario" || record.source === "reread");
      expect(next?.path).toBe(COUNT_PATH);
      expect(next?.status).toBe(200);
    }
  }, 240_000);

  it("sends no count_tokens request to a server that has not declared it", async () => {
    const run = await runPressure({
      window: 120_000,
      tokenRatio: 3,
      shape: shape(120_000, 3),
      compaction: AUTOCOMPACT_ONLY,
    });
    expect(run.compactions).toBeGreaterThanOrEqual(1);
    expect(run.requests.filter((record) => record.path === COUNT_PATH)).toHaveLength(0);
  }, 240_000);
});
