/**
 * The kept tail of a compaction, budgeted in tokens (src/compaction/tail/tail-budget.ts): the last 3 results stay
 * verbatim unless the budget cannot hold them; older results in the tail are cleared first; then the recent
 * ones are cut with a note naming how to read the rest; only then are rounds dropped. Literal sizes: six Read
 * rounds of 400-line results (~1,500 tokens each: 7,600 for the five), a keep count of 5.
 */
import { describe, expect, it } from "vitest";
import {
  budgetTail,
  CLEARED_TOOL_RESULT_PREFIX,
  estimateEntriesTokens,
  groupByApiRound,
} from "../../src/compaction/index.js";
import type { MessageEntry } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";

const FILES = ["f0.ts", "f1.ts", "f2.ts", "f3.ts", "f4.ts", "f5.ts"];

function content(file: string): string {
  return Array.from({ length: 400 }, (_, line) => `${file} line ${String(line).padStart(3, "0")}`).join("\n");
}

function session() {
  const builder = new TimelineBuilder();
  builder.user("Review the files.");
  for (const file of FILES) {
    const messageId = builder.nextMessageId();
    builder.assistantText(`Reading ${file}.`, messageId);
    const use = builder.toolUse("Read", { file_path: file }, messageId);
    builder.toolResults([use], [content(file)]);
  }
  return groupByApiRound(apiView(builder.entries));
}

/** The tool_result contents of `entries`, in order, as strings. */
function results(entries: readonly MessageEntry[]): string[] {
  const out: string[] = [];
  for (const entry of entries) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content)
      if (block.type === "tool_result")
        out.push(typeof block.content === "string" ? block.content : JSON.stringify(block.content));
  }
  return out;
}

describe("compaction tail budgeted in tokens", () => {
  it("keeps the rounds of the last 5 results verbatim when the budget holds them", () => {
    const tail = budgetTail(session(), 5, 1_000_000);
    expect(results(tail.entries)).toEqual(FILES.slice(1).map(content));
    expect([tail.cleared, tail.cut, tail.droppedRounds]).toEqual([0, 0, 0]);
  });

  // Mutation caught: DEFAULT_TAIL_VERBATIM_RESULTS = 1 (or clearing all) brings the third-newest back cleared.
  it("at 6,000 tokens: the 2 older results are cleared, the last 3 stay verbatim", () => {
    const tail = budgetTail(session(), 5, 6_000);
    const kept = results(tail.entries);
    expect(kept).toHaveLength(5);
    expect(kept.slice(0, 2).every((text) => text.startsWith(CLEARED_TOOL_RESULT_PREFIX))).toBe(true);
    expect(kept.slice(2)).toEqual([content("f3.ts"), content("f4.ts"), content("f5.ts")]);
    expect([tail.cleared, tail.cut, tail.droppedRounds]).toEqual([2, 0, 0]);
    expect(estimateEntriesTokens(tail.entries)).toBeLessThanOrEqual(6_000);
  });

  // Mutation caught: an off-by-one in the note's offset, or cutting without the note, fails the regex.
  it("at 3,000 tokens: the last 3 are cut to fit, each with the offset to Read the rest from", () => {
    const tail = budgetTail(session(), 5, 3_000);
    expect(estimateEntriesTokens(tail.entries)).toBeLessThanOrEqual(3_000);
    expect([tail.cleared, tail.cut, tail.droppedRounds]).toEqual([2, 3, 0]);
    const recent = results(tail.entries).slice(2);
    ["f3.ts", "f4.ts", "f5.ts"].forEach((file, index) => {
      const text = recent[index]!;
      const note =
        /\n\[Cut to fit the context after a compaction: (\d+) of 400 lines shown; Read (\S+) with offset (\d+) for the rest\.\]$/.exec(
          text,
        );
      expect(note).not.toBeNull();
      const shown = Number(note![1]);
      expect(note![2]).toBe(file);
      expect(Number(note![3])).toBe(shown + 1);
      expect(shown).toBeGreaterThan(0);
      expect(shown).toBeLessThan(400);
      expect(text.slice(0, note!.index)).toBe(content(file).split("\n").slice(0, shown).join("\n"));
    });
  });

  it("at 100 tokens: only the newest round is left, and the miss is visible to the caller", () => {
    const tail = budgetTail(session(), 5, 100);
    expect(tail.droppedRounds).toBe(4);
    expect(results(tail.entries)).toHaveLength(1);
    expect(tail.tokens).toBeGreaterThan(100);
  });
});
