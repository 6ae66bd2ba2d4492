import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MessageEntry, TimelineEntry } from "../../src/messages/index.js";
import { isMessageEntry } from "../../src/messages/index.js";
import { apiView, removedUuids, Timeline } from "../../src/timeline/index.js";
import { JsonlTranscriptStore, loadTranscript, resumeConversation } from "../../src/transcript/index.js";
import { useTempDirs } from "../../support/temp-dirs.js";
import { buildTimeline, operationArbitrary, SESSION_ID } from "./timeline-arbitrary.js";

const BOUNDARIES = new Set(["compact_boundary", "microcompact_boundary", "snip_boundary", "stream_superseded"]);

/** Oracle, written independently of the code under test: the nearest non-removed ancestor by original links. */
function expectedParents(entries: readonly TimelineEntry[]): Map<string, string | null> {
  const byUuid = new Map<string, MessageEntry>();
  for (const entry of entries) if (isMessageEntry(entry)) byUuid.set(entry.uuid, entry);
  const removed = new Set(
    [...removedUuids(entries)].filter((uuid) => {
      const entry = byUuid.get(uuid);
      return entry !== undefined && !(entry.type === "system" && BOUNDARIES.has(entry.subtype));
    }),
  );
  const parents = new Map<string, string | null>();
  for (const entry of byUuid.values()) {
    let parent = entry.parentUuid;
    while (parent !== null && removed.has(parent)) parent = byUuid.get(parent)!.parentUuid;
    parents.set(entry.uuid, parent);
  }
  return parents;
}

describe("write → load → resume round trip", () => {
  const tempDir = useTempDirs();

  it("gives the original apiView (with parents re-pointed to the nearest survivor)", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operationArbitrary, { minLength: 1, maxLength: 40 }), async (operations) => {
        const original = buildTimeline(operations);
        const path = join(await tempDir(), "session.jsonl");
        const store = await JsonlTranscriptStore.open({ sessionId: SESSION_ID, cwd: "/work", path });
        for (const entry of original) store.append(entry);
        await store.close();

        const loaded = await loadTranscript(path);
        expect(loaded.problems).toEqual([]);
        expect(loaded.unknownTypes).toEqual({});
        expect(loaded.header).toMatchObject({ type: "header", version: 1, sessionId: SESSION_ID, cwd: "/work" });
        // Byte-level fidelity first: U+2028/U+2029 and lone surrogates come back unchanged.
        expect(loaded.entries).toEqual(original);

        const resumed = resumeConversation(loaded.entries);
        const timeline = new Timeline(resumed.entries);
        const parents = expectedParents(original);
        const expected = apiView(new Timeline(original).entries).map((entry) => ({
          ...entry,
          parentUuid: parents.get(entry.uuid) ?? null,
        }));
        expect(apiView(timeline.entries)).toEqual(expected);

        // No survivor is ever skipped: every kept message points at its nearest surviving ancestor.
        const kept = new Set(timeline.entries.filter(isMessageEntry).map((entry) => entry.uuid));
        for (const entry of timeline.entries) {
          if (!isMessageEntry(entry)) continue;
          expect(entry.parentUuid).toBe(parents.get(entry.uuid) ?? null);
          if (entry.parentUuid !== null) expect(kept.has(entry.parentUuid)).toBe(true);
        }
        // Records are all kept, in order.
        expect(timeline.entries.filter((entry) => !isMessageEntry(entry))).toEqual(
          original.filter((entry) => !isMessageEntry(entry)),
        );
        expect(resumed.leafUuid).toBe(timeline.lastMessage?.uuid ?? null);
      }),
      { numRuns: 60 },
    );
  });
});
