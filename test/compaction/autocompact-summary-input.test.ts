import { describe, expect, it } from "vitest";
import {
  dropOldestRounds,
  extractSummary,
  groupByApiRound,
  replaceMediaWithPlaceholders,
  tailRoundCount,
} from "../../src/compaction/index.js";
import { createUserEntry, imageBlock, textBlock } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { SESSION_ID, TimelineBuilder } from "../../support/timeline-builder.js";

function rounds(count: number): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Start");
  for (let index = 0; index < count; index++) builder.round("Read", "y".repeat(2_000));
  return builder;
}

describe("summary input", () => {
  it("groups by API round and drops the oldest rounds covering the gap, keeping at least one", () => {
    const view = apiView(rounds(6).entries);
    const groups = groupByApiRound(view);
    expect(groups).toHaveLength(7);
    const smaller = dropOldestRounds(view, 1_000, SESSION_ID)!;
    expect(smaller.length).toBeLessThan(view.length);
    expect(smaller[0]!.type).toBe("user");
    const unknownGap = dropOldestRounds(view, undefined, SESSION_ID)!;
    expect(groupByApiRound(unknownGap).length).toBeLessThan(groups.length);
    const most = dropOldestRounds(view, 1_000_000, SESSION_ID)!;
    expect(groupByApiRound(most).some((round) => round.entries.some((entry) => entry.type === "assistant"))).toBe(true);
    expect(dropOldestRounds(view.slice(0, 1), 10, SESSION_ID)).toBeUndefined();
  });

  it("keeps enough recent rounds for 5 tool results within the budget, never all", () => {
    const groups = groupByApiRound(apiView(rounds(8).entries));
    expect(tailRoundCount(groups, 5, 1_000_000)).toBe(5);
    expect(tailRoundCount(groups, 5, 600)).toBe(1);
    expect(tailRoundCount(groups.slice(0, 2), 5, 1_000_000)).toBe(1);
  });

  it("keeps only the summary and replaces media with placeholders", () => {
    expect(extractSummary("<analysis>think</analysis>\n<summary>\nThe gist.\n</summary>")).toBe("The gist.");
    expect(extractSummary("plain")).toBe("plain");
    const entry = createUserEntry({ sessionId: SESSION_ID, parentUuid: null }, [
      imageBlock("image/png", "AAAA"),
      textBlock("look"),
    ]);
    const [replaced] = replaceMediaWithPlaceholders([entry]);
    expect(JSON.stringify(replaced)).toContain("[image]");
    expect(JSON.stringify(replaced)).not.toContain("AAAA");
  });
});
