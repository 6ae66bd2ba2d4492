/**
 * The most recent tool results are verbatim in every request: whatever the sizes, tools, idle gaps, cache TTL
 * and batch keep setting (even one below the floor), a pass on the public path (no cache editing, the
 * defaults' client-side batches and time-based clears) never clears any of the last 3 results, and every
 * pass's records are appended as the loop does, so clears accumulate.
 *
 * The floor is the literal 3 here, never the constant it guards: with `MIN_BATCH_KEEP_RECENT = 1` in
 * src/compaction/settings.ts a keep setting of 0-2 clears the third-newest result and the property fails
 * (mutation `min-batch-keep-recent-1` in scripts/mutation-check.mjs).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runCompactionTiers } from "../../src/compaction/index.js";
import type { MessageEntry } from "../../src/messages/index.js";
import { TimelineBuilder, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput, PUBLIC_API_CAPABILITIES } from "./compaction-input.js";

/** The guaranteed floor, as a literal: the independent oracle for MIN_BATCH_KEEP_RECENT. */
const GUARANTEED_VERBATIM = 3;

const TOOLS = ["Read", "Bash", "Grep", "Edit", "Agent"] as const;
const GAPS_MS = [0, 30_000, 4 * 60_000, 6 * 60_000, 2 * 60 * 60_000] as const;

/** The tool results of `messages` in order: id and content as sent. */
function sentResults(messages: readonly MessageEntry[]): Array<{ id: string; content: unknown }> {
  const results: Array<{ id: string; content: unknown }> = [];
  for (const entry of messages) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content)
      if (block.type === "tool_result") results.push({ id: block.tool_use_id, content: block.content });
  }
  return results;
}

describe("the most recent tool results stay verbatim (public path)", () => {
  it("no pass clears any of the last 3 results, over random sessions, gaps and keep settings", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            tool: fc.constantFrom(...TOOLS),
            chars: fc.integer({ min: 40, max: 24_000 }),
            gap: fc.constantFrom(...GAPS_MS),
          }),
          { minLength: 1, maxLength: 30 },
        ),
        fc.integer({ min: 0, max: 6 }),
        fc.constantFrom("5m" as const, "1h" as const),
        async (rounds, batchKeep, cacheTtl) => {
          const builder = new TimelineBuilder();
          builder.user("Start.");
          const original = new Map<string, unknown>();
          for (const [index, round] of rounds.entries()) {
            builder.advance(round.gap);
            const { use, result } = builder.round(round.tool, `${index}:`.padEnd(round.chars, "x"));
            const block = result.message.content[0];
            original.set(toolUseId(use), typeof block === "object" && block.type === "tool_result" && block.content);
            const output = await runCompactionTiers(
              compactionInput(builder.entries, builder.clock, {
                capabilities: PUBLIC_API_CAPABILITIES,
                cacheTtl,
                settings: { cacheEdits: "off", autocompact: false, batchKeepRecentToolResults: batchKeep },
              }),
            );
            builder.timeline.appendAll(output.records);
            const recent = sentResults(output.messages).slice(-GUARANTEED_VERBATIM);
            for (const sent of recent) expect(sent.content).toEqual(original.get(sent.id));
          }
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);

  it("clears something on a long enough session (the property above is not vacuous)", async () => {
    const builder = new TimelineBuilder();
    builder.user("Start.");
    let cleared = 0;
    for (let index = 0; index < 30; index++) {
      builder.round("Read", `${index}:`.padEnd(20_000, "x"));
      const output = await runCompactionTiers(
        compactionInput(builder.entries, builder.clock, {
          capabilities: PUBLIC_API_CAPABILITIES,
          settings: { cacheEdits: "off", autocompact: false },
        }),
      );
      builder.timeline.appendAll(output.records);
      cleared = sentResults(output.messages).filter((sent) => String(sent.content).startsWith("[Old tool")).length;
    }
    expect(cleared).toBeGreaterThan(0);
  });
});
