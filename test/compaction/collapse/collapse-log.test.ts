import { describe, expect, it } from "vitest";
import {
  collapseCommits,
  drainCollapses,
  findCollapsibleSpan,
  projectApiView,
  projectCollapses,
  RecordChain,
} from "../../../src/compaction/index.js";
import type { CollapseCommitRecord, MessageEntry } from "../../../src/messages/index.js";
import { apiView, uiView } from "../../../src/timeline/index.js";
import { COMPACTABLE_TOOLS, SESSION_ID, TimelineBuilder } from "../../../support/timeline-builder.js";
import { compactionInput } from "../compaction-input.js";

function twoTasks(): TimelineBuilder {
  const builder = new TimelineBuilder();
  for (let task = 0; task < 3; task++) {
    builder.user(`Task ${task}`);
    for (let read = 0; read < 3; read++) builder.round("Read", "x".repeat(4_000));
    builder.assistantText(`Task ${task} done.`);
  }
  return builder;
}

describe("collapse log", () => {
  it("finds a finished task span that keeps the final answer and the 5 most recent results", () => {
    const builder = twoTasks();
    const view = apiView(builder.entries);
    const span = findCollapsibleSpan(view, { compactableTools: COMPACTABLE_TOOLS, keepRecent: 5, staged: [] });
    expect(span).toBeDefined();
    expect(view[span!.first]!.type).toBe("user");
    // The task's final answer stays outside the span.
    const after = view[span!.last + 1]!;
    expect(after.type === "assistant" && after.message.content[0].type === "text").toBe(true);
    // Task 1 holds some of the 5 most recent results, so only task 0 collapses.
    expect(JSON.stringify(view.slice(span!.first, span!.last + 1))).not.toContain("Task 1");
  });

  it("projects committed spans as their summary, replays the log, and leaves the UI view whole", () => {
    const builder = twoTasks();
    const view = apiView(builder.entries);
    const span = findCollapsibleSpan(view, { compactableTools: COMPACTABLE_TOOLS, keepRecent: 5, staged: [] })!;
    const commit: CollapseCommitRecord = {
      type: "collapse-commit",
      collapseId: "c1",
      summaryUuid: "s1",
      summary: "Task 0 read three files.",
      firstArchivedUuid: span.startUuid,
      lastArchivedUuid: span.endUuid,
      timestamp: builder.clock.toISOString(),
      sessionId: SESSION_ID,
    };
    builder.timeline.append(commit);
    const projected = projectApiView(builder.entries, { microcompact: true, collapse: true });
    expect(projected).toHaveLength(view.length - (span.last - span.first + 1) + 1);
    expect(JSON.stringify(projected)).toContain("Task 0 read three files.");
    expect(projectCollapses(view, collapseCommits(builder.entries))).toEqual(projected);
    expect(uiView(builder.entries).length).toBeGreaterThanOrEqual(view.length);
    // Off means off: with collapse off the commit is not applied.
    expect(projectApiView(builder.entries, { microcompact: true, collapse: false })).toHaveLength(view.length);
  });

  it("drains staged spans on prompt-too-long, and drains nothing when none are staged", () => {
    const builder = twoTasks();
    const view: MessageEntry[] = apiView(builder.entries);
    const input = compactionInput(builder.entries, builder.clock);
    expect(drainCollapses(input, new RecordChain(SESSION_ID, null, builder.clock))).toBe(0);
    const span = findCollapsibleSpan(view, { compactableTools: COMPACTABLE_TOOLS, keepRecent: 5, staged: [] })!;
    builder.timeline.append({
      type: "collapse-snapshot",
      staged: [{ startUuid: span.startUuid, endUuid: span.endUuid, summary: "s", stagedAt: "t" }],
      timestamp: builder.clock.toISOString(),
      sessionId: SESSION_ID,
    });
    const chain = new RecordChain(SESSION_ID, null, builder.clock);
    expect(drainCollapses(compactionInput(builder.entries, builder.clock), chain)).toBe(1);
    expect(chain.records[0]!.type).toBe("collapse-commit");
  });
});
