/**
 * Memos that continue from last call's identical prefix must answer exactly what a plain pass answers, for
 * any sequence of calls: a list that grows, shrinks, changes in the middle, or alternates with another list
 * starting with the same object.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateEntriesTokens, estimateEntryTokens } from "../../src/compaction/budget/entry-tokens.js";
import { createUserEntry, type MessageEntry } from "../../src/messages/index.js";
import { filterGrowing, sharedPrefixLength } from "../../src/timeline/index.js";

interface Item {
  id: number;
  keep: boolean;
}
const isKept = (item: Item): boolean => item.keep;

/** Calls made on a pool of objects: each call is a list of pool indexes (index 0 always first). */
const callSequences = fc.array(fc.array(fc.nat(30), { maxLength: 25 }), { minLength: 1, maxLength: 12 });

describe("identity-prefix memos", () => {
  it("sharedPrefixLength counts the leading identical elements", () => {
    const [a, b, c] = [{}, {}, {}];
    expect(sharedPrefixLength([a, b, c], [a, b])).toBe(2);
    expect(sharedPrefixLength([a, b], [a, c])).toBe(1);
    expect(sharedPrefixLength([], [a])).toBe(0);
  });

  it("filterGrowing equals Array.filter for any sequence of calls", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 31, maxLength: 31 }), callSequences, (keeps, calls) => {
        const pool: Item[] = keeps.map((keep, id) => ({ id, keep }));
        for (const call of calls) {
          const list = [pool[0]!, ...call.map((index) => pool[index]!)];
          expect(filterGrowing(list, isKept)).toEqual(list.filter(isKept));
        }
      }),
      { numRuns: 300 },
    );
  });

  it("estimateEntriesTokens equals a plain sum for any sequence of calls", () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 31, maxLength: 31 }), callSequences, (texts, calls) => {
        const pool: MessageEntry[] = texts.map((text) =>
          createUserEntry({ sessionId: "s", parentUuid: null, now: new Date(0) }, text || "x"),
        );
        for (const call of calls) {
          const list = [pool[0]!, ...call.map((index) => pool[index]!)];
          const plain = list.reduce((sum, entry) => sum + estimateEntryTokens(entry), 0);
          expect(estimateEntriesTokens(list)).toBe(plain);
        }
      }),
      { numRuns: 300 },
    );
  });
});
