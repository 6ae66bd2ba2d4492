/**
 * A 30-step tool session at a 16K window against the emulator's compatible (llama-server-like) mode: most local
 * models run at 8K–32K, where the old absolute thresholds were negative (autocompact at 16,000 − 16,000 − 13,000).
 * The session reads 20 modules of 300–1,500 tokens (~18K in all, more than the window), edits a line it read at
 * each task's start and answers with a fact read three tasks back; the closed-loop model re-reads what it can no
 * longer see. It must finish with no fact lost, and every compaction must leave room (its next request at most
 * 4,704 tokens: 40 % of the 11,760-token threshold at 16K).
 * Mutation caught: the old thresholds (output reserve 20,000, buffer 13,000, no window share) compact on every
 * request and never get under the target: applied, the session stops at task 0 with "blocking_limit".
 */
import { describe, expect, it } from "vitest";
import { sessionCost } from "../../bench/lib/cost.js";
import {
  type PressureShape,
  pressurePrompt,
  pressureSteps,
  writePressureFiles,
} from "../../bench/lib/pressure-session.js";
import type { EngineEvent } from "../../src/loop/events.js";
import { startHarness } from "../../support/engine-harness.js";

const WINDOW = 16_000;
const SHAPE: PressureShape = { tasks: 5, readsPerTask: 4, minTokens: 300, maxTokens: 1_500, factLag: 3 };

describe("a 16K window on a compatible server", () => {
  it("finishes a 30-step tool session with no fact lost, every compaction under its target", async () => {
    const steps = pressureSteps(SHAPE);
    expect(steps).toHaveLength(30);
    const harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW, mode: "compatible" },
      { contextWindow: WINDOW, transcript: false },
    );
    try {
      await writePressureFiles(harness.workspace, SHAPE);
      const afterCompaction: number[] = [];
      for (let task = 0; task < SHAPE.tasks; task++) {
        // The request count is read as each boundary streams by, not after the turn: read after it, it pointed at
        // the next task's first request, which carries the rest of this task's growth on top of the compaction.
        const events: EngineEvent[] = [];
        for await (const event of harness.engine.submitMessage(pressurePrompt(task))) {
          events.push(event);
          if (event.type === "entry" && event.entry.type === "system" && event.entry.subtype === "compact_boundary")
            afterCompaction.push(harness.emulator.requests.length);
        }
        const end = events.findLast((event) => event.type === "turn_end");
        expect({ task, reason: end?.type === "turn_end" ? end.reason : undefined }).toEqual({
          task,
          reason: "completed",
        });
      }
      await harness.engine.idle();
      expect(afterCompaction.length).toBeGreaterThanOrEqual(1);
      expect(harness.emulator.requests.filter((record) => record.status !== 200)).toEqual([]);
      expect(harness.emulator.stats()).toMatchObject({ factsLost: 0, stepsRemaining: 0 });
      expect(sessionCost(harness.emulator.requests).factsLost).toBe(0);
      const main = harness.emulator.requests.filter(
        (record) => record.path === "/v1/messages" && (record.source === "scenario" || record.source === "reread"),
      );
      let checked = 0;
      for (const index of afterCompaction) {
        const next = harness.emulator.requests.slice(index).find((record) => main.includes(record));
        if (next?.usage === undefined) continue;
        checked++;
        const context = next.usage.input_tokens + (next.usage.cache_read_input_tokens ?? 0);
        expect(context).toBeLessThanOrEqual(4_704 + 2_000); // the target, plus the newest step's own growth
      }
      expect(checked).toBeGreaterThanOrEqual(1);
    } finally {
      await harness.close();
    }
  }, 120_000);
});
