/**
 * Break detection on a cache-editing session: threadline's own deletions are expected drops, never reported
 * as breaks; a system-prompt change made mid-session is still caught, even on a request that also deletes.
 * The emulator is asked for cache editing explicitly (it is opt-in on both sides).
 */

import type { ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { CACHE_BREAK_NOTICE_PREFIX } from "../../src/cache/index.js";
import type { QueryEngine } from "../../src/engine/query-engine.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const STEPS = 40;
const MODEL = "claude-sonnet-4-20250514";
let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function breakNotices(engine: QueryEngine): string[] {
  return engine.timeline.entries.flatMap((entry) =>
    entry.type === "system" && entry.content.startsWith(CACHE_BREAK_NOTICE_PREFIX) ? [entry.content] : [],
  );
}

async function runSession(steps: ScenarioStep[]): Promise<Harness> {
  const started = await startHarness(
    { scenario: steps, cacheEditing: true },
    { model: MODEL, compaction: { cacheEdits: "on" } },
  );
  await writeSourceFiles(started.workspace, STEPS);
  await collect(started.engine.submitMessage("Read every module, one at a time."));
  return started;
}

describe("cache break notices on a 40-step cache-editing session", () => {
  it("reports none for threadline's own deletions", async () => {
    harness = await runSession(readEachFileScenario(sourceFileNames(STEPS)));
    const pins = harness.engine.timeline.entries.filter((entry) => entry.type === "cache-edit-pin");
    expect(pins.length).toBeGreaterThan(3);
    expect(harness.emulator.requests.filter((request) => request.status === 200)).toHaveLength(STEPS + 1);
    expect(breakNotices(harness.engine)).toEqual([]);
  });

  it("still catches a system prompt changed mid-session, with its cause", async () => {
    const turns: ScenarioStep[] = readEachFileScenario(sourceFileNames(STEPS));
    const changeAt = 25;
    const original = turns[changeAt]!;
    let engine: QueryEngine | undefined;
    // While answering request 26, something outside the conversation edits the system prompt.
    turns[changeAt] = () => {
      const config = engine!.config as { systemPrompt: readonly string[] };
      config.systemPrompt = [...config.systemPrompt, "Injected: today is a holiday."];
      return original as Exclude<ScenarioStep, (...args: never[]) => unknown>;
    };
    const started = startHarness(
      { scenario: turns, cacheEditing: true },
      { model: MODEL, compaction: { cacheEdits: "on" } },
    );
    harness = await started;
    engine = harness.engine;
    await writeSourceFiles(harness.workspace, STEPS);
    await collect(harness.engine.submitMessage("Read every module, one at a time."));
    const notices = breakNotices(harness.engine);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain("client_change: system prompt changed");
  });
});
