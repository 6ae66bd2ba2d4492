import type { RequestLogEntry } from "@threadline/emulator";
import { validateRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { announcedFeaturesFromEntries } from "../../src/request/index.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { readEachFileScenario, sourceFileNames, writeSourceFiles } from "../../support/tool-heavy-session.js";

const MODEL = "claude-sonnet-4-20250514";
const STEPS = 40;
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

async function runSession(cacheEdits: "on" | "off"): Promise<RequestLogEntry[]> {
  // Cache editing comes from the emulator's announcement: THREADLINE_CACHE_EDITS stays "auto".
  const harness = await startHarness(
    { scenario: readEachFileScenario(sourceFileNames(STEPS)), cacheEditing: cacheEdits === "on" },
    {
      model: MODEL,
      compaction: { cacheEdits: cacheEdits === "on" ? "auto" : "off", microcompact: cacheEdits === "on" },
    },
  );
  harnesses.push(harness);
  await writeSourceFiles(harness.workspace, STEPS);
  const events = await collect(harness.engine.submitMessage("Read every module, one at a time."));
  expect(turnEnd(events).reason).toBe("completed");
  expect(harness.emulator.stats().violations).toBe(0);
  // The announcement is recorded once, so a resume of this session uses cache editing from its first request.
  expect(announcedFeaturesFromEntries(harness.engine.timeline.entries)).toEqual(
    cacheEdits === "on" ? ["cache-editing"] : [],
  );
  // The first request went out before the announcement: no cache editing in it.
  expect(JSON.stringify(harness.emulator.requests[0]?.body)).not.toContain("cache_reference");
  return harness.emulator.requests.filter((request) => request.path === "/v1/messages" && request.status === 200);
}

function counted(entry: RequestLogEntry): number {
  const usage = entry.usage!;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

function cacheRead(entry: RequestLogEntry): number {
  return entry.usage!.cache_read_input_tokens ?? 0;
}

describe("microcompact, cached path, on a 40-step tool-heavy session", () => {
  it("counted tokens fall after edits while the cache keeps hitting, and pins stay at their index", async () => {
    const withEdits = await runSession("on");
    const without = await runSession("off");
    expect(withEdits).toHaveLength(STEPS + 1);
    expect(without).toHaveLength(STEPS + 1);

    const pinIndex = new Map<string, number>();
    let firstEdit = -1;
    withEdits.forEach((request, requestIndex) => {
      const body = request.body as MessagesRequest;
      body.messages.forEach((message, messageIndex) => {
        if (typeof message.content === "string") return;
        for (const block of message.content) {
          if (block.type !== "cache_edits") continue;
          const key = JSON.stringify(block);
          if (!pinIndex.has(key)) pinIndex.set(key, messageIndex);
          // a pinned block is re-sent at exactly the index it was first placed at
          expect(pinIndex.get(key)).toBe(messageIndex);
          if (firstEdit < 0) firstEdit = requestIndex;
        }
      });
    });
    expect(firstEdit).toBeGreaterThan(0);
    expect(pinIndex.size).toBeGreaterThan(10);

    for (let index = firstEdit; index < withEdits.length; index++) {
      // the deleted results no longer count ...
      expect(counted(withEdits[index]!)).toBeLessThan(counted(without[index]!));
      // ... and no request lost the cache: it reads at least 95 % of what the previous one read
      expect(cacheRead(withEdits[index]!)).toBeGreaterThanOrEqual(0.95 * cacheRead(withEdits[index - 1]!));
    }
    expect(counted(withEdits.at(-1)!)).toBeLessThan(0.25 * counted(without.at(-1)!));
    expect(validateRequest(withEdits.at(-1)!.body, { cacheEditing: true })).toEqual([]);
    // The public API (the default) would refuse these requests: cache editing is emulator-only.
    expect(validateRequest(withEdits.at(-1)!.body).length).toBeGreaterThan(0);
  });
});
