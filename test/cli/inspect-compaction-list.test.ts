/**
 * inspect's one line per compaction (src/cli/inspect/compaction-list.ts) on untrusted records: a boundary from
 * before `summaryUsage` existed still reads, and says its cost was not recorded; a malformed usage field is
 * read as zeros, never thrown on. Literal records and literal expected lines.
 */
import { describe, expect, it } from "vitest";
import { compactionLine, compactionOf } from "../../src/cli/inspect/compaction-list.js";
import { count, dollars } from "../../src/cli/inspect/format.js";

describe("inspect's compaction lines", () => {
  // Mutation caught: requiring summaryUsage (or reading postTokens as 0 when absent) changes these lines.
  it("an old boundary without summaryUsage, and Claude Code's without postTokens, still read", () => {
    expect(
      compactionLine(compactionOf({ trigger: "auto", preTokens: 12_000, postTokens: 4_000 }), count, dollars),
    ).toBe("auto: 12,000 → 4,000 tokens (−8,000); summary cost not recorded");
    expect(compactionLine(compactionOf({ trigger: "manual", preTokens: 50_000 }), count, dollars)).toBe(
      "manual: from 50,000 tokens; summary cost not recorded",
    );
  });

  // Mutation caught: leaving cache reads out of "in", or printing the output as input, changes the line.
  it("a recorded summary prints its input (cache read and written), output and dollars", () => {
    const metadata = {
      trigger: "reactive",
      preTokens: 30_000,
      postTokens: 9_500,
      summaryUsage: {
        requests: 2,
        inputTokens: 100,
        cacheReadInputTokens: 20_000,
        cacheCreationInputTokens: 1_000,
        outputTokens: 800,
        costUsd: 0.0254,
      },
    };
    expect(compactionLine(compactionOf(metadata), count, dollars)).toBe(
      "reactive: 30,000 → 9,500 tokens (−20,500); summary: 2 requests, 21,100 in (20,000 cache read, 1,000 written), 800 out, $0.0254",
    );
    const broken = compactionOf({ trigger: "auto", preTokens: 10, postTokens: 5, summaryUsage: { outputTokens: "x" } });
    expect(compactionLine(broken, count, dollars)).toBe(
      "auto: 10 → 5 tokens (−5); summary: 0 requests, 0 in (0 cache read, 0 written), 0 out, $0.0000",
    );
  });
});
