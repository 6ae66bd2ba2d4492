import { describe, expect, it } from "vitest";
import type { CompactionSettings } from "../../src/compaction/index.js";
import { runCompactionTiers } from "../../src/compaction/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput, EMULATOR_CAPABILITIES, PUBLIC_API_CAPABILITIES } from "./compaction-input.js";

/** A session that would trigger every implemented tier: large, idle for two hours. */
function busySession(): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Start.");
  for (let round = 0; round < 12; round++) builder.round("Read", "q".repeat(8_000));
  builder.assistantText("Done.");
  builder.advance(2 * 3_600_000);
  builder.user("Back again.");
  return builder;
}

const ALL_OFF: Partial<CompactionSettings> = { snip: false, microcompact: false, collapse: false, autocompact: false };

describe("off means off", () => {
  for (const capabilities of [EMULATOR_CAPABILITIES, PUBLIC_API_CAPABILITIES]) {
    it(`every tier off → pure pass-through (cacheEdits=${capabilities.cacheEdits})`, async () => {
      const builder = busySession();
      const output = await runCompactionTiers(
        compactionInput(builder.entries, builder.clock, { capabilities, settings: ALL_OFF }),
      );
      expect(output).toEqual({
        messages: apiViewWithErrors(builder.entries),
        records: [],
        newCacheEdits: [],
        relayBreakpoints: [],
        cacheEditing: false,
        snipTags: false,
      });
    });
  }

  it("snip off: no nudge and no tags, microcompact still runs", async () => {
    const builder = busySession();
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { settings: { snip: false } }),
    );
    expect(output.snipTags).toBe(false);
    expect(output.records.map((record) => record.type)).toEqual(["system"]);
  });

  it("microcompact off: no clearing, no edits, no context_management, even with a cold cache", async () => {
    const builder = busySession();
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { snip: true, microcompact: false },
      }),
    );
    expect(output.records.map((record) => record.type)).toEqual(["attachment"]);
    expect(output.newCacheEdits).toEqual([]);
    expect(output.cacheEditing).toBe(false);
    expect(output.contextManagement).toBeUndefined();
    expect(output.expectCacheDrop).toBeUndefined();
    expect(JSON.stringify(output.messages)).toBe(
      JSON.stringify(apiViewWithErrors([...builder.entries, ...output.records])),
    );
  });

  it("microcompact off also stops re-applying earlier time-based clears", async () => {
    const builder = busySession();
    const on = await runCompactionTiers(compactionInput(builder.entries, builder.clock, { settings: { snip: false } }));
    builder.timeline.appendAll(on.records);
    const off = await runCompactionTiers(compactionInput(builder.entries, builder.clock, { settings: ALL_OFF }));
    expect(off.messages).toEqual(apiViewWithErrors(builder.entries));
  });
});
