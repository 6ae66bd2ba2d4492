import { readFile, writeFile } from "node:fs/promises";
import { afterEach, describe, expect, it } from "vitest";
import { QueryEngine, type QueryEngineOptions } from "../../src/engine/query-engine.js";
import type { EngineEvent } from "../../src/loop/events.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import { fastProvider, type Harness, startHarness } from "../../support/engine-harness.js";
import { runTask, taskSteps, writeDataFiles } from "./compaction-scenario.js";

const WINDOW = 60_000;
let harness: Harness | undefined;
let resumed: QueryEngine | undefined;
afterEach(async () => {
  await resumed?.close();
  await harness?.close();
  harness = undefined;
  resumed = undefined;
});

async function firstRequest(events: AsyncIterable<EngineEvent>, onUser?: () => Promise<void>): Promise<string> {
  for await (const event of events) {
    if (event.type === "user" && onUser) await onUser();
    if (event.type === "request_start") return event.request.json;
  }
  throw new Error("no request was sent");
}

/**
 * Runs tasks until `until` holds, then sends one more prompt from the live engine and from an engine resumed
 * from the transcript as it stood just before that prompt; returns both first requests' bytes.
 */
async function liveAndResumed(
  options: Partial<QueryEngineOptions>,
  until: (entries: readonly TimelineEntry[]) => boolean,
): Promise<{ live: string; again: string }> {
  const steps = Array.from({ length: 12 }, (_, task) => taskSteps(task, 3, 12)).flat();
  harness = await startHarness({ scenario: steps, contextWindow: WINDOW }, { contextWindow: WINDOW, ...options });
  await writeDataFiles(harness.workspace, 12, 2_000);
  let task = 0;
  while (!until(harness.engine.timeline.entries)) {
    expect((await runTask(harness.engine, task++)).end.reason).toBe("completed");
    expect(task).toBeLessThan(10);
  }
  const path = harness.engine.transcriptPath!;
  const copy = `${path}.copy.jsonl`;
  const prompt = "Next: summarise what you found.";
  const h = harness;
  const live = await firstRequest(h.engine.submitMessage(prompt), async () => {
    // The transcript now ends with the new prompt: keep everything before it.
    const lines = (await readFile(path, "utf8")).split("\n").filter((line) => line !== "");
    while (lines.length > 0 && !lines.at(-1)!.includes(prompt)) lines.pop();
    lines.pop();
    await writeFile(copy, `${lines.join("\n")}\n`);
  });
  const result = await QueryEngine.resume(copy, {
    cwd: h.workspace,
    home: h.home,
    provider: fastProvider(h.emulator.url),
    permission: { mode: "bypassPermissions" },
    contextWindow: WINDOW,
    ...options,
  });
  resumed = result.engine;
  const again = await firstRequest(resumed.submitMessage(prompt));
  return { live, again };
}

describe("Resume after compaction tiers", () => {
  it("after a collapse commit, the next request bytes are the same", async () => {
    const { live, again } = await liveAndResumed(
      { compaction: { collapse: true, microcompact: false, snip: false }, sessionMemory: false },
      (entries) => entries.some((entry) => entry.type === "collapse-commit"),
    );
    expect(live.includes("[Earlier task collapsed to a summary]")).toBe(true);
    expect(again === live).toBe(true);
  });

  it("after an autocompaction, the next request bytes are the same", async () => {
    const { live, again } = await liveAndResumed(
      { compaction: { collapse: false, microcompact: false, snip: false }, sessionMemory: false },
      (entries) => entries.some((entry) => entry.type === "system" && entry.subtype === "compact_boundary"),
    );
    expect(live.includes("This session is being continued")).toBe(true);
    expect(again === live).toBe(true);
  });
});
