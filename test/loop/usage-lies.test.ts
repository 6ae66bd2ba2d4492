/**
 * Usage that lies: a resumed transcript whose last usage is far below what it holds, and a server that
 * reports zero usage while streaming. Neither may let an over-window request go out.
 */

import { type Emulator, type EmulatorRequest, startEmulator, TokenRuler } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { estimateEntriesTokens, tokenCountWithEstimation } from "../../src/compaction/index.js";
import type { QueryEngine } from "../../src/engine/query-engine.js";
import type { MessageEntry } from "../../src/messages/index.js";
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

describe("the context estimate does not trust usage that lies", () => {
  it("a zero usage is skipped: the estimate falls back to an earlier usage or the ruler", () => {
    const builder = new TimelineBuilder();
    builder.user("x".repeat(40_000));
    const answer = builder.assistantText("ok");
    answer.message.usage = { input_tokens: 0, output_tokens: 0 };
    const messages = builder.entries.filter((entry): entry is MessageEntry => "uuid" in entry);
    expect(tokenCountWithEstimation(messages)).toBe(estimateEntriesTokens(messages));
    expect(tokenCountWithEstimation(messages)).toBeGreaterThan(10_000);
  });

  it("a resumed session whose last usage is stale is compacted before anything is uploaded", async () => {
    const builder = new TimelineBuilder();
    for (let task = 0; task < 3; task++) {
      builder.user(`Task ${task}: read the logs.`);
      for (let read = 0; read < 8; read++) {
        const line = `service ${task} log ${read}: request failed with status 503 after the retry budget\n`;
        builder.round("Read", line.repeat(Math.ceil(16_000 / line.length)), `Reading log ${read}.`);
      }
    }
    const last = builder.assistantText("Done reading.");
    // Stale: reported when the context was tiny, long before most of what the transcript now holds.
    last.message.usage = { input_tokens: 1_000, output_tokens: 10 };
    const saved = await saveSession("stale", builder.entries);
    const held = estimateEntriesTokens(builder.entries.filter((entry): entry is MessageEntry => "uuid" in entry));
    expect(held).toBeGreaterThan(2 * WINDOW);

    emulator = await startEmulator({ scenario: ["All caught up."], contextWindow: WINDOW });
    engine = await resumeSavedEngine(saved, emulator, {
      contextWindow: WINDOW,
      // Only autocompact may make room (the idle-time microcompact would otherwise clear the old reads first).
      compaction: { microcompact: false, collapse: false },
    });
    const end = turnEnd(await collect(engine.submitMessage("Continue.")));
    expect(end.reason).toBe("completed");
    const calls = emulator.requests.filter((record) => record.path === "/v1/messages");
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) {
      expect(call.status).toBe(200);
      expect(TokenRuler.unscaled.request(call.body as EmulatorRequest)).toBeLessThanOrEqual(WINDOW);
    }
  });

  it("with compaction off, the over-window request is refused with one line and never sent", async () => {
    const builder = new TimelineBuilder();
    builder.user("Read the log.");
    builder.round("Read", "log line\n".repeat(30_000), "Reading.");
    const last = builder.assistantText("Done.");
    last.message.usage = { input_tokens: 0, output_tokens: 0 };
    const saved = await saveSession("stale-off", builder.entries);
    emulator = await startEmulator({ scenario: ["never"], contextWindow: WINDOW });
    engine = await resumeSavedEngine(saved, emulator, {
      contextWindow: WINDOW,
      compaction: { autocompact: false, collapse: false, microcompact: false, snip: false },
    });
    const end = turnEnd(await collect(engine.submitMessage("Continue.")));
    expect(end.reason).toBe("blocking_limit");
    expect(end.error?.split("\n")).toHaveLength(1);
    expect(emulator.requests.filter((record) => record.path === "/v1/messages")).toHaveLength(0);
  });
});
