/**
 * Issue 52, the 16K ×4 cell: when the target leaves the summary less than its 256-token floor of `max_tokens`
 * (while the output reserve is larger), a summary of the whole conversation is cut off, and asking the
 * cache-safe fork first only added a request before the cleared one that followed (bench/compaction-pressure.ts
 * --ruler, 16K ×4: 11 summary requests for 4 compactions, 199,337; 6 and 176,994 going the cleared way at once).
 * Oracle: literals (the floor is 256, the 16K reserve 3,200).
 *
 * Mutation it catches (scripts/mutation-check.mjs): `summary-floor-fork-anyway` (`<` for `<=`: the floor never
 * counts as binding, so the fork is asked first).
 */
import { describe, expect, it } from "vitest";
import { forkUnfit } from "../../src/compaction/index.js";

describe("the summary's max_tokens at its floor", () => {
  it("goes the cleared way at once and says why", () => {
    expect(forkUnfit("auto", 256, 3_200).notCacheSafe).toMatch(/max_tokens is at its 256-token floor/);
    expect(forkUnfit("manual", 256, 3_200).notCacheSafe).toMatch(/256-token floor/);
  });

  it("asks the cache-safe fork when the summary has room above the floor, or the reserve is the floor itself", () => {
    expect(forkUnfit("auto", 257, 3_200)).toEqual({});
    expect(forkUnfit("auto", 3_200, 3_200)).toEqual({});
    expect(forkUnfit("auto", 256, 256)).toEqual({});
  });

  it("after the server refused the main request, never forks", () => {
    expect(forkUnfit("reactive", 3_200, 3_200).notCacheSafe).toBe("the server refused the main request as too long");
  });
});
