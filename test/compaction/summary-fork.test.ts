/**
 * The summary request as a cache-safe fork (docs/PROMPT-CACHE.md "Forks"; src/compaction/summary/summary-fork.ts): only the tool
 * results that arrived after the last model response may be cut; everything the last main request sent stays
 * byte for byte. Oracles are literal strings and token counts written out here, never the function's constants.
 */
import { describe, expect, it } from "vitest";
import { cacheSafeForkMessages, estimateEntriesTokens, forkInputRoom } from "../../src/compaction/index.js";
import type { MessageEntry } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";

/** Three finished rounds the last main request sent, then a reply whose two tool results it did not. */
function session(): MessageEntry[] {
  const builder = new TimelineBuilder();
  builder.user("Start");
  for (let index = 0; index < 3; index++) builder.round("Read", `old-${index} ${"a".repeat(4_000)}`);
  const messageId = builder.nextMessageId();
  builder.assistantText("Reading two more.", messageId);
  const first = builder.toolUse("Read", { arg: "x" }, messageId);
  const second = builder.toolUse("Grep", { arg: "y" }, messageId);
  builder.toolResults(
    [first, second],
    [`new-0\n${"b".repeat(79).concat("\n").repeat(100)}`, `new-1 ${"c".repeat(400)}`],
  );
  return apiView(builder.entries);
}

const bytes = (entries: readonly MessageEntry[]): string =>
  JSON.stringify(entries.map((entry) => ("message" in entry ? entry.message : entry)));

describe("cache-safe summary fork", () => {
  it("sends the view itself when it fits, whatever its size", () => {
    const view = session();
    const tokens = estimateEntriesTokens(view);
    const forked = cacheSafeForkMessages(view, tokens, estimateEntriesTokens);
    expect(bytes(forked!)).toBe(bytes(view));
  });

  // Mutations caught: fork-cuts-sent-results (cutting results the last main request sent, whose bytes the cache
  // holds) and fork-room-ignores-output (the room not leaving the summary's max_tokens).
  it("cuts only the results after the last response, leaving the sent prefix byte for byte", () => {
    const view = session();
    const tokens = estimateEntriesTokens(view);
    // 1,000 tokens short: the 8,000-character new result (100 lines) (~2,000 tokens) must give them up, the old ones nothing.
    const forked = cacheSafeForkMessages(view, tokens - 1_000, estimateEntriesTokens)!;
    expect(forked).toBeDefined();
    expect(estimateEntriesTokens(forked)).toBeLessThanOrEqual(tokens - 1_000);
    const sent = view.length - 1; // every entry but the last (the unsent results) went out in the last request
    expect(bytes(forked.slice(0, sent))).toBe(bytes(view.slice(0, sent)));
    const last = JSON.stringify(forked.at(-1));
    expect(last).toContain("new-0\\nbbbb");
    expect(last).toContain("Cut to fit");
    expect(last).toContain(`new-1 ${"c".repeat(400)}`);
    // No room even with the new results gone: not a fork (the caller clears the cleared way and says why).
    expect(cacheSafeForkMessages(view, 3_000, estimateEntriesTokens)).toBeUndefined();
    // The room leaves the output cap: 97 % of a 10,000 window less 2,000 of max_tokens.
    expect(forkInputRoom(10_000, 2_000)).toBe(7_700);
  });
});
