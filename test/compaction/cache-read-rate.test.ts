/**
 * Compaction's price rules use the session's model's own cache-read rate from the model table (issue 55,
 * docs/MODELS.md): a kept result's rent is that rate × its tokens on every request, the rewrite (1.25 − that rate)
 * × the tokens after the first cleared block. Literals worked out by hand for 14 Read rounds of 4,007 characters
 * (1,003 estimated tokens; 978 saved each when cleared), the 3 most recent kept: results 0–10 clearable, result i
 * re-read by the 10 − i responses since result i + 3 arrived (55 in all); 3,401 tokens from the first cleared
 * block on stay. At 0.1 (claude-sonnet-4-6): rent 0.1 × 978 × 55 = 5,379 ≥ rewrite 1.15 × 3,401 = 3,911: the batch
 * fires. At Opus 5.5's 0.05: rent 2,689.5 < 1.2 × 3,401 = 4,081: it does not (keeping is cheaper there).
 * Mutation caught: `batch-clear-standard-read-rate` (the standard 0.1 whatever the model).
 */
import { describe, expect, it } from "vitest";
import { runCompactionTiers } from "../../src/compaction/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { compactionInput } from "./compaction-input.js";

function session(): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Read the logs.");
  for (let index = 0; index < 14; index++) builder.round("Read", `log ${index}: ${"x".repeat(4_000)}`);
  return builder;
}

async function clearText(model: string): Promise<string[]> {
  const builder = session();
  const input = compactionInput(builder.entries, builder.clock, { settings: { collapse: false } });
  const output = await runCompactionTiers({ ...input, model });
  return output.records.flatMap((record) =>
    record.type === "system" && record.subtype === "microcompact_boundary" ? [String(record.content)] : [],
  );
}

describe("the clearing break-even at the model's own cache-read rate", () => {
  it("at 0.1 (claude-sonnet-4-6) the batch pays: rent 5,379 outweighs a 3,911 rewrite", async () => {
    const texts = await clearText("claude-sonnet-4-6");
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain("Cleared 11 ");
    expect(texts[0]).toContain("~5379 already paid to keep them outweighs a ~3911 rewrite");
  });

  it("at 0.05 (claude-opus-5-5) the same batch does not pay, and nothing is cleared", async () => {
    expect(await clearText("claude-opus-5-5")).toEqual([]);
  });
});
