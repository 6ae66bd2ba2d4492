import { describe, expect, it } from "vitest";
import { CLEARED_TOOL_RESULT_TEXT, runCompactionTiers } from "../../src/compaction/index.js";
import type { MessageEntry, SystemEntry, TimelineEntry } from "../../src/messages/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput, EMULATOR_CAPABILITIES } from "./compaction-input.js";

const HOUR = 3_600_000;

/** Eight compactable rounds and one Agent round, then a long pause. */
function idleSession() {
  const builder = new TimelineBuilder();
  builder.user("Survey the code.");
  const reads = Array.from({ length: 8 }, (_, index) => builder.round("Read", `contents of file ${index} `.repeat(50)));
  const agent = builder.round("Agent", "subagent report ".repeat(50));
  builder.assistantText("Here is the survey.");
  builder.advance(HOUR);
  builder.user("Continue please.");
  return { builder, reads, agent };
}

function resultText(view: readonly MessageEntry[], toolId: string): string | undefined {
  for (const entry of view) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content) {
      if (block.type === "tool_result" && block.tool_use_id === toolId) {
        return typeof block.content === "string" ? block.content : JSON.stringify(block.content);
      }
    }
  }
  return undefined;
}

describe("microcompact, time-based path", () => {
  it("clears all but the 5 most recent compactable results after 60 minutes idle", async () => {
    const { builder, reads, agent } = idleSession();
    const entriesBefore = JSON.stringify(builder.entries);
    const output = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    expect(JSON.stringify(builder.entries)).toBe(entriesBefore);

    const readIds = reads.map((read) => toolUseId(read.use));
    for (const id of readIds.slice(0, 3))
      expect(resultText(output.messages, id)).toMatch(/^\[Old tool result content cleared: Read /);
    for (const id of readIds.slice(3)) expect(resultText(output.messages, id)).toMatch(/^contents of file/);
    // Agent results are never compactable.
    expect(resultText(output.messages, toolUseId(agent.use))).toMatch(/^subagent report/);

    expect(output.records).toHaveLength(1);
    const boundary = output.records[0] as SystemEntry;
    expect(boundary).toMatchObject({
      type: "system",
      subtype: "microcompact_boundary",
      parentUuid: builder.timeline.lastMessage?.uuid,
    });
    expect(boundary.microcompactMetadata?.trigger).toBe("time");
    expect(boundary.microcompactMetadata?.compactedToolIds).toEqual(readIds.slice(0, 3));
    const original = readIds
      .slice(0, 3)
      .reduce((sum, _id, index) => sum + Math.ceil(`contents of file ${index} `.repeat(50).length / 4) + 1, 0);
    // What replaces them is the descriptive placeholder each result now holds, not the generic text.
    const placeholders = readIds
      .slice(0, 3)
      .reduce((sum, id) => sum + Math.ceil((resultText(output.messages, id) ?? "").length / 4) + 1, 0);
    expect(placeholders).toBeGreaterThan(3 * (Math.ceil(CLEARED_TOOL_RESULT_TEXT.length / 4) + 1));
    expect(boundary.microcompactMetadata?.tokensSaved).toBe(original - placeholders);
    expect(boundary.microcompactMetadata?.preTokens).toBeGreaterThan(boundary.microcompactMetadata?.tokensSaved ?? 0);
    expect(output.expectCacheDrop).toMatch(/microcompact/);
    // The cache was cold: no deletes on top of a rewrite.
    expect(output.newCacheEdits).toEqual([]);
    // The rewrite leaves a cache entry just before the first result it keeps (the 4th read), where the next
    // batch's unchanged prefix ends (docs/PROMPT-CACHE.md).
    expect(output.relayBreakpoints).toEqual([readIds[3]]);
  });

  it("is idempotent: the next pass adds no boundary and projects the same bytes", async () => {
    const { builder } = idleSession();
    const first = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    builder.timeline.appendAll(first.records);
    const second = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    expect(second.records).toEqual([]);
    expect(second.expectCacheDrop).toBeUndefined();
    expect(JSON.stringify(second.messages)).toBe(JSON.stringify(first.messages));
  });

  it("keeps applying earlier boundaries on later, warm turns", async () => {
    const { builder, reads } = idleSession();
    const first = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    builder.timeline.appendAll(first.records);
    builder.assistantText("Continuing.");
    builder.user("And more.");
    const later = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    expect(later.records).toEqual([]);
    expect(resultText(later.messages, toolUseId(reads[0]!.use))).toMatch(/^\[Old tool result content cleared: Read /);
    // The earlier prefix is byte-identical to what the first pass sent.
    const prefix = later.messages.slice(0, first.messages.length);
    expect(JSON.stringify(prefix)).toBe(JSON.stringify(first.messages));
  });

  it("does nothing before the gap (the 1-hour TTL in use), and respects a configured gap", async () => {
    const { builder } = idleSession();
    const now = builder.clock;
    const lastAssistant = new Date(now.getTime() - HOUR - 1_000);
    const early = new Date(lastAssistant.getTime() + HOUR - 1);
    const quiet = await runCompactionTiers(compactionInput(builder.entries, early, { cacheTtl: "1h" }));
    expect(quiet.records).toEqual([]);
    expect(JSON.stringify(quiet.messages)).toBe(JSON.stringify(apiViewWithErrors(builder.entries)));
    const configured = await runCompactionTiers(
      compactionInput(builder.entries, early, { cacheTtl: "1h", settings: { timeBasedGapMs: 60_000 } }),
    );
    expect(configured.records).toHaveLength(1);
  });

  it("with the 5-minute TTL, clears once the idle time passes 5 minutes (the cache is cold: clearing is free)", async () => {
    const { builder } = idleSession();
    const lastAssistant = new Date(builder.clock.getTime() - HOUR - 1_000);
    const warm = await runCompactionTiers(
      compactionInput(builder.entries, new Date(lastAssistant.getTime() + 4 * 60_000)),
    );
    expect(
      warm.records.filter((record) => record.type === "system" && record.subtype === "microcompact_boundary"),
    ).toEqual([]);
    const cold = await runCompactionTiers(
      compactionInput(builder.entries, new Date(lastAssistant.getTime() + 6 * 60_000)),
    );
    expect(cold.records).toHaveLength(1);
    expect(cold.records[0]).toMatchObject({ microcompactMetadata: { trigger: "time" } });
  });

  it("never keeps fewer than 5 results, whatever the setting", async () => {
    const { builder } = idleSession();
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { settings: { keepRecentToolResults: 1 } }),
    );
    const boundary = output.records[0] as SystemEntry;
    expect(boundary.microcompactMetadata?.compactedToolIds).toHaveLength(3);
  });

  it("keeps cache editing on for a cache-editing provider while clearing client-side", async () => {
    const { builder } = idleSession();
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { minClearTokens: 1 },
      }),
    );
    expect(output.cacheEditing).toBe(true);
    expect(output.newCacheEdits).toEqual([]);
    expect(
      output.records.map((record: TimelineEntry) => (record as SystemEntry).microcompactMetadata?.trigger),
    ).toEqual(["time"]);
  });
});
