import { describe, expect, it } from "vitest";
import {
  cachedDeleteBudget,
  DEFAULT_MIN_CACHED_BATCH_TOKENS,
  deletedCacheReferences,
  planCachedDeletes,
  runCompactionTiers,
} from "../../src/compaction/index.js";
import type { CacheEditPinRecord, SystemEntry } from "../../src/messages/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { COMPACTABLE_TOOLS, SESSION_ID, TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput, EMULATOR_CAPABILITIES, PUBLIC_API_CAPABILITIES, thresholdsAt } from "./compaction-input.js";

/** `count` Read rounds of `size` characters each, then a prompt; all within the warm-cache window. */
function warmSession(count: number, size: number) {
  const builder = new TimelineBuilder();
  builder.user("Read everything.");
  const reads = Array.from({ length: count }, () => builder.round("Read", "r".repeat(size)));
  return { builder, ids: reads.map((read) => toolUseId(read.use)) };
}

function pinFor(deletes: readonly string[], messageIndex: number): CacheEditPinRecord {
  return {
    type: "cache-edit-pin",
    messageIndex,
    block: { type: "cache_edits", edits: deletes.map((id) => ({ type: "delete", cache_reference: id })) },
    timestamp: "2025-01-01T00:00:00.000Z",
    sessionId: SESSION_ID,
  };
}

const policy = { keepRecent: 5, compactableTools: COMPACTABLE_TOOLS, alreadyCleared: new Set<string>() };

describe("microcompact, cached-path policy", () => {
  it("paces deletes oldest first within the turn's budget (growth + 5 % of the prefix)", () => {
    const { builder, ids } = warmSession(9, 12_000);
    const view = apiViewWithErrors(builder.entries);
    // 8 earlier rounds (~24,000 tokens) and one new round (~3,000): budget ~4,200 fits one 3,001-token result.
    expect(cachedDeleteBudget(view)).toBeGreaterThan(3_001);
    expect(cachedDeleteBudget(view)).toBeLessThan(2 * 3_001);
    const batch = planCachedDeletes({ ...policy, view, alreadyDeleted: new Set() });
    expect(batch?.toolIds).toEqual(ids.slice(0, 1));
    expect(batch?.deletes).toEqual([{ type: "delete", cache_reference: ids[0] }]);
    expect(batch?.tokensSaved).toBe(3_000 + 1);
  });

  it("a big new round buys a bigger batch, never touching the 5 most recent", () => {
    const { builder, ids } = warmSession(9, 12_000);
    const last = builder.round("Read", "r".repeat(200_000));
    const batch = planCachedDeletes({ ...policy, view: apiViewWithErrors(builder.entries), alreadyDeleted: new Set() });
    expect(batch?.toolIds).toEqual(ids.slice(0, 5));
    expect(batch?.toolIds).not.toContain(toolUseId(last.use));
  });

  it("a batch below the minimum is not worth a block", () => {
    const { builder } = warmSession(7, 12_000);
    const view = apiViewWithErrors(builder.entries);
    expect(planCachedDeletes({ ...policy, view, minBatchTokens: 3_002, alreadyDeleted: new Set() })).toBeUndefined();
    expect(
      planCachedDeletes({ ...policy, view, minBatchTokens: 3_001, alreadyDeleted: new Set() })?.toolIds,
    ).toHaveLength(1);
    expect(DEFAULT_MIN_CACHED_BATCH_TOKENS).toBe(2_000);
  });

  it("never deletes a reference twice (pins in the timeline are the record)", () => {
    const { builder, ids } = warmSession(12, 12_000);
    builder.timeline.append(pinFor(ids.slice(0, 4), 3));
    const alreadyDeleted = deletedCacheReferences(builder.entries);
    expect([...alreadyDeleted]).toEqual(ids.slice(0, 4));
    const batch = planCachedDeletes({
      ...policy,
      view: apiViewWithErrors(builder.entries),
      minBatchTokens: 1,
      alreadyDeleted,
    });
    expect(batch?.toolIds).toEqual(ids.slice(4, 5));
  });

  it("keeps at least 5 verbatim even when asked for fewer by a direct caller", async () => {
    const { builder, ids } = warmSession(9, 12_000);
    builder.round("Read", "r".repeat(200_000));
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { keepRecentToolResults: 0, minClearTokens: 1 },
      }),
    );
    expect(output.newCacheEdits.map((edit) => edit.cache_reference)).toEqual(ids.slice(0, 5));
  });

  it("emits the batch with a cached microcompact_boundary and leaves the bytes alone", async () => {
    const { builder, ids } = warmSession(9, 12_000);
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { nudgeIntervalTokens: Number.MAX_SAFE_INTEGER },
      }),
    );
    expect(output.cacheEditing).toBe(true);
    expect(output.contextManagement).toBeUndefined();
    expect(output.expectCacheDrop).toBeUndefined();
    expect(JSON.stringify(output.messages)).toBe(JSON.stringify(apiViewWithErrors(builder.entries)));
    expect(output.records).toHaveLength(1);
    const boundary = output.records[0] as SystemEntry;
    expect(boundary.microcompactMetadata).toMatchObject({
      trigger: "cached",
      tokensSaved: 3_001,
      compactedToolIds: ids.slice(0, 1),
    });

    // Once pinned, the next pass adds nothing.
    builder.timeline.appendAll(output.records);
    builder.timeline.append(pinFor(ids.slice(0, 4), 20));
    const next = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { nudgeIntervalTokens: Number.MAX_SAFE_INTEGER },
      }),
    );
    expect(next.newCacheEdits).toEqual([]);
    expect(next.records).toEqual([]);
  });

  it("a compaction in the same pass drops the batch: no edits sent, no boundary claiming them", async () => {
    const { builder } = warmSession(9, 12_000);
    const last = builder.timeline.lastMessage!;
    const input = compactionInput(builder.entries, builder.clock, {
      capabilities: EMULATOR_CAPABILITIES,
      // Collapse off: with it on, autocompact waits for the blocking limit.
      settings: { nudgeIntervalTokens: Number.MAX_SAFE_INTEGER, collapse: false },
    });
    // The same session, but its window is small enough that autocompact fires (from session memory: no model).
    const output = await runCompactionTiers({
      ...input,
      // 30K: autocompact at 22,050 (thresholds scale with the window), under the session's ~27K.
      thresholds: thresholdsAt(30_000),
      fork: {
        estimateWindow: 30_000,
        estimate: () => 0,
        run: () => Promise.reject(new Error("the session memory should have been used")),
      },
      autoCompact: {
        consecutiveFailures: 0,
        trippedNoticeShown: false,
        compactionNotes: () => ({ summary: "Read nine files; all fine.", throughUuid: last.uuid }),
      },
    });
    expect(output.compacted).toBe(true);
    expect(output.newCacheEdits).toEqual([]);
    const boundaries = output.records.filter(
      (record) => record.type === "system" && record.subtype === "microcompact_boundary",
    );
    expect(boundaries).toEqual([]);
  });

  it("never deletes results of the final message (not yet in the cached prefix)", () => {
    const builder = new TimelineBuilder();
    builder.user("Go.");
    const messageId = builder.nextMessageId();
    const uses = Array.from({ length: 8 }, () => builder.toolUse("Read", {}, messageId));
    builder.toolResults(
      uses,
      uses.map(() => "x".repeat(40_000)),
    );
    const batch = planCachedDeletes({
      ...policy,
      view: apiViewWithErrors(builder.entries),
      minBatchTokens: 1,
      alreadyDeleted: new Set(),
    });
    expect(batch).toBeUndefined();
  });

  it("follows THREADLINE_CACHE_EDITS: off falls back to the public path (client-side batches; the server edit only when set), on forces cache edits", async () => {
    const { builder } = warmSession(9, 12_000);
    const off = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { cacheEdits: "off" },
      }),
    );
    expect(off.cacheEditing).toBe(false);
    expect(off.newCacheEdits).toEqual([]);
    expect(off.contextManagement).toBeUndefined();
    const server = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: EMULATOR_CAPABILITIES,
        settings: { cacheEdits: "off", serverClearToolUses: true },
      }),
    );
    expect(server.contextManagement?.edits[0]?.type).toBe("clear_tool_uses_20250919");
    const on = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: PUBLIC_API_CAPABILITIES,
        settings: { cacheEdits: "on" },
      }),
    );
    expect(on.cacheEditing).toBe(true);
    expect(on.newCacheEdits).toHaveLength(1);
    expect(on.contextManagement).toBeUndefined();
  });
});
