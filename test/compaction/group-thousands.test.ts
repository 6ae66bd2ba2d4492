/**
 * The placeholder's size is written with en-US thousands separators without ICU; its bytes must be those
 * `toLocaleString("en-US")` gives (ICU is the independent oracle here), or every cleared placeholder changes.
 * Mutation applied once: the lookahead's `$` anchor dropped (`/\B(?=(\d{3})+)/g`) — 10000 became "1,0,000".
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { groupThousands } from "../../src/compaction/results/cleared-placeholder.js";

describe("groupThousands", () => {
  it("writes a whole count as toLocaleString('en-US') does", () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (count) => {
        expect(groupThousands(count)).toBe(count.toLocaleString("en-US"));
      }),
      { numRuns: 500 },
    );
    expect(groupThousands(1234567)).toBe("1,234,567");
    expect(groupThousands(999)).toBe("999");
  });
});
