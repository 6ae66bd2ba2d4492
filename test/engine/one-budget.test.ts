/**
 * One context budget (issue 52 item 4; docs/CONTEXT-BUDGET.md "One value, one unit"): at a calibration ratio of 4
 * on claude-sonnet-4-6, `/context`, the status line and the loop all work from the same thresholds. Before, the
 * loop divided the window by the ratio first and worked its thresholds out of the 50,000-token remainder (its
 * shares then bind: autocompact at 147,000 and blocking at 157,000 of the server's tokens) while `/context` printed
 * 167,000 and 177,000.
 *
 * Oracles are literals worked out by hand from the model table's window (200,000), the output reserve
 * (min(64,000 max output, 20,000, 20 % of 200,000) = 20,000), the buffers (autocompact 13,000, blocking 3,000,
 * warning 20,000 below autocompact) and the ratio: autocompact 200,000 − 20,000 − 13,000 = 167,000 of the server's
 * tokens = 41,750 estimated; blocking 177,000 = 44,250 estimated; warning 147,000. Whether the loop compacted is
 * read from the emulator's request log (a `summary` request, or none), never from the client's functions.
 * Mutations caught: `threshold-owner-status-line`, `threshold-owner-loop` (scripts/mutation-check.mjs).
 */
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { contextReportInput, formatContextReport } from "../../src/cli/modes/slash/context-report.js";
import { sessionStats } from "../../src/cli/modes/status/session-stats.js";
import { formatStatusLine } from "../../src/cli/modes/status/status-line.js";
import type { QueryEngine } from "../../src/engine/query-engine.js";
import { createAssistantEntry, type TimelineEntry, textBlock } from "../../src/messages/index.js";
import { collect } from "../../support/collect.js";
import { resumeSavedEngine, saveSession, turnEnd } from "../../support/engine-harness.js";
import { SESSION_ID, TimelineBuilder } from "../../support/timeline-builder.js";

const MODEL = "claude-sonnet-4-6";
const RATIO = 4;

let emulator: Emulator | undefined;
let engine: QueryEngine | undefined;
afterEach(async () => {
  await engine?.close();
  await emulator?.close();
  engine = undefined;
  emulator = undefined;
});

/**
 * A saved session whose last response the server counted at `reported` tokens (all of it a cache read), with the
 * calibration recorded at ×4: the loop's count of the next request is ceil(reported ÷ 4) plus the estimate of the
 * new prompt (a few tokens), whatever the conversation's own size.
 */
function sessionAt(reported: number): readonly TimelineEntry[] {
  const builder = new TimelineBuilder();
  builder.user("Go through the service logs and list the failures.");
  builder.round("Read", "service log: request failed with status 503\n".repeat(40));
  builder.append(
    createAssistantEntry(builder.context(), textBlock("The service failed three times with a 503."), {
      messageId: builder.nextMessageId(),
      model: MODEL,
      stopReason: "end_turn",
      usage: { input_tokens: 0, cache_read_input_tokens: reported, output_tokens: 0 },
    }),
  );
  builder.append({
    type: "context-budget",
    ratio: RATIO,
    reported,
    estimated: Math.ceil(reported / RATIO),
    timestamp: builder.clock.toISOString(),
    sessionId: SESSION_ID,
  });
  return builder.entries;
}

/** Resumes `sessionAt(reported)` on the emulator, autocompact the only tier, and sends one prompt. */
async function resumeAndAsk(reported: number): Promise<{ sources: (string | undefined)[] }> {
  const saved = await saveSession(`budget-${reported}`, sessionAt(reported));
  emulator = await startEmulator({ scenario: ["Nothing else failed."] });
  engine = await resumeSavedEngine(saved, emulator, {
    model: MODEL,
    compaction: { snip: false, microcompact: false, collapse: false, autocompact: true },
    sessionMemory: false,
  });
  const end = turnEnd(await collect(engine.submitMessage("Anything else?")));
  expect(end.reason).toBe("completed");
  const sources = emulator.requests.filter((record) => record.path === "/v1/messages").map((record) => record.source);
  return { sources };
}

describe("/context, the status line and the loop share one budget at a ratio of 4", () => {
  it("/context and the status line report the thresholds in the server's tokens: 147,000, 167,000, 177,000", async () => {
    const saved = await saveSession("budget-report", sessionAt(160_000));
    emulator = await startEmulator({ scenario: ["unused"] });
    engine = await resumeSavedEngine(saved, emulator, { model: MODEL });
    const report = formatContextReport(contextReportInput(engine));
    expect(report).toContain("calibrated ×4.00 to the server's count");
    expect(report).toContain(" of 200k ");
    expect(report).toContain("Thresholds (the server's tokens): warning 147k · autocompact 167k · blocking 177k");
    const line = formatStatusLine(sessionStats(engine));
    expect(line).toContain("ctx 80% (160k/200k, ac 167k)");
  });

  // 160,000 ÷ 4 = 40,000 estimated, under 41,750: the loop sends the prompt without compacting. Before, it
  // compacted here (its threshold was 36,750 estimated, 147,000 of the server's tokens).
  it("at 160,000 of the server's tokens (under 167,000) the loop does not compact", async () => {
    const { sources } = await resumeAndAsk(160_000);
    expect(sources).not.toContain("summary");
    expect(sources[0]).toBe("scenario");
  });

  // 168,000 ÷ 4 = 42,000 estimated, over 41,750 and under the blocking 44,250: the first request is a summary.
  it("at 168,000 (over 167,000) the loop compacts before it sends the prompt", async () => {
    const { sources } = await resumeAndAsk(168_000);
    expect(sources[0]).toBe("summary");
    expect(sources.at(-1)).toBe("scenario");
  });
});
