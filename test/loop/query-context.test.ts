import { describe, expect, it } from "vitest";
import { deletedCacheReferences } from "../../src/compaction/index.js";
import { pinsFromEntries } from "../../src/loop/query-context.js";
import { type CacheEditPinRecord, createSystemEntry, type TimelineEntry } from "../../src/messages/index.js";

function pin(messageIndex: number, reference: string): CacheEditPinRecord {
  return {
    type: "cache-edit-pin",
    messageIndex,
    block: { type: "cache_edits", edits: [{ type: "delete", cache_reference: reference }] },
    timestamp: "2026-11-29T00:00:00.000Z",
    sessionId: "s",
  };
}

const boundary = createSystemEntry({ sessionId: "s", parentUuid: null }, "compact_boundary", "Conversation compacted", {
  compactMetadata: { trigger: "auto", preTokens: 1000, postTokens: 100 },
});

describe("pins across a compaction", () => {
  it("pins and deleted references from before the last compact boundary no longer apply", () => {
    const entries: TimelineEntry[] = [pin(3, "toolu_a"), pin(5, "toolu_b"), boundary, pin(2, "toolu_c")];
    expect(pinsFromEntries(entries).map((entry) => entry.messageIndex)).toEqual([2]);
    expect([...deletedCacheReferences(entries)]).toEqual(["toolu_c"]);
    expect(pinsFromEntries(entries.slice(0, 2)).map((entry) => entry.messageIndex)).toEqual([3, 5]);
  });
});
