/**
 * Projections the tiers apply every turn hand back the same objects for the same input, so the request
 * stage's identity memos (closed turns, serialized JSON) keep working after a time-based clear or a commit.
 */
import { describe, expect, it } from "vitest";
import { applyClearedToolResults, CLEARED_TOOL_RESULT_PREFIX, collapsedSpanEntry } from "../../src/compaction/index.js";
import type { CollapseCommitRecord } from "../../src/messages/index.js";
import { apiViewWithErrors } from "../../src/timeline/index.js";
import { SESSION_ID, TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";

describe("projection identity", () => {
  it("a cleared result is the same copy turn after turn, and a new clear makes a new one", () => {
    const builder = new TimelineBuilder();
    builder.user("Read both.");
    const first = builder.round("Read", "one");
    const second = builder.round("Read", "two");
    const view = apiViewWithErrors(builder.entries);
    const cleared = new Set([toolUseId(first.use)]);
    const turn1 = applyClearedToolResults(view, cleared);
    builder.user("And now?");
    const turn2 = applyClearedToolResults(apiViewWithErrors(builder.entries), cleared);
    const at = view.indexOf(first.result);
    expect(turn1[at]).not.toBe(first.result);
    expect(JSON.stringify(turn1[at])).toContain(CLEARED_TOOL_RESULT_PREFIX);
    expect(turn2[at]).toBe(turn1[at]);
    expect(turn2[view.indexOf(second.result)]).toBe(second.result);
    const more = applyClearedToolResults(view, new Set([...cleared, toolUseId(second.use)]));
    expect(more[at]).toBe(turn1[at]);
    expect(more[view.indexOf(second.result)]).not.toBe(second.result);
  });

  it("a commit's summary entry is one object", () => {
    const commit: CollapseCommitRecord = {
      type: "collapse-commit",
      collapseId: "c1",
      summaryUuid: "00000000-0000-4000-8000-000000000abc",
      firstArchivedUuid: "a",
      lastArchivedUuid: "b",
      summary: "Did the thing.",
      timestamp: "2025-01-01T00:00:00.000Z",
      sessionId: SESSION_ID,
    };
    expect(collapsedSpanEntry(commit)).toBe(collapsedSpanEntry(commit));
  });
});
