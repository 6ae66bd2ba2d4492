import { type Emulator, type EmulatorRequest, startEmulator, TokenRuler } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { estimateEntriesTokens } from "../../src/compaction/index.js";
import type { QueryEngine } from "../../src/engine/query-engine.js";
import type { MessageEntry, TimelineEntry } from "../../src/messages/index.js";
import { collect } from "../../support/collect.js";
import { resumeSavedEngine, saveSession, turnEnd } from "../../support/engine-harness.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";

const WINDOW = 40_000;
let emulator: Emulator | undefined;
let engine: QueryEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await emulator?.close();
  engine = undefined;
  emulator = undefined;
});

/** A saved session of 10 tasks × 10 big reads: about ten times the window. */
function hugeSession(): readonly TimelineEntry[] {
  const builder = new TimelineBuilder();
  for (let task = 0; task < 10; task++) {
    builder.user(`Task ${task}: go through the logs of service ${task} and list the failures.`);
    for (let read = 0; read < 10; read++) {
      const line = `service ${task} log ${read}: request failed with status 503 after 2000 ms retry budget exhausted\n`;
      builder.round("Read", line.repeat(Math.ceil(16_000 / line.length)), `Reading log ${read} of service ${task}.`);
    }
    builder.assistantText(`Service ${task}: found the failures in every log.`);
  }
  return builder.entries;
}

describe("Resuming a session ten times the window", () => {
  it("is made to fit (compacted or cleared) and answers in at most 6 model calls, never sending an over-window request", async () => {
    const entries = hugeSession();
    const saved = await saveSession("huge", entries);
    const tokens = estimateEntriesTokens(entries.filter((entry): entry is MessageEntry => "uuid" in entry));
    expect(tokens).toBeGreaterThan(10 * WINDOW);

    emulator = await startEmulator({
      scenario: ["Picking up from the summary: all caught up."],
      contextWindow: WINDOW,
    });
    engine = await resumeSavedEngine(saved, emulator, { contextWindow: WINDOW });
    const end = turnEnd(await collect(engine.submitMessage("Please continue where we left off.")));
    expect(end.reason).toBe("completed");
    expect(end.lastText).toBe("Picking up from the summary: all caught up.");

    const calls = emulator.requests.filter((record) => record.path === "/v1/messages");
    expect(calls.length).toBeLessThanOrEqual(6);
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(TokenRuler.unscaled.request(call.body as EmulatorRequest)).toBeLessThanOrEqual(WINDOW);
    }
    // Made room by a compaction, or by clearing old results where that alone reaches the target (cheaper).
    const boundary = engine.timeline.entries.find(
      (entry) =>
        entry.type === "system" && (entry.subtype === "compact_boundary" || entry.subtype === "microcompact_boundary"),
    );
    expect(boundary).toBeDefined();
  });
});
