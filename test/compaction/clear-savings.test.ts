/**
 * A clear's recorded `tokensSaved` is what the request loses: the cleared results' tokens minus the
 * placeholders that replace them, measured on the assembled request with the emulator's token count.
 */

import type { EmulatorRequest } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { estimateEntryTokens } from "../../src/compaction/budget/entry-tokens.js";
import { runCompactionTiers } from "../../src/compaction/index.js";
import {
  applyClearedToolResults,
  clearSavings,
  collectToolResults,
} from "../../src/compaction/results/compactable-results.js";
import type { MessageEntry, SystemEntry } from "../../src/messages/index.js";
import { estimateRequestTokens } from "../../src/messages/index.js";
import { TimelineBuilder } from "../../support/timeline-builder.js";
import { assembleAndValidate } from "./assemble-and-validate.js";
import { compactionInput } from "./compaction-input.js";

const HOUR = 3_600_000;

function requestTokens(messages: readonly MessageEntry[]): number {
  const { assembled, violations } = assembleAndValidate({
    messages: [...messages],
    newCacheEdits: [],
    cacheEditing: false,
    snipTags: false,
  });
  expect(violations).toEqual([]);
  return estimateRequestTokens(JSON.parse(assembled.request.json) as EmulatorRequest);
}

/** A session of Reads, Bash runs and Greps with real-looking inputs, then an hour idle. */
function idleSession(sizes: readonly number[]) {
  const builder = new TimelineBuilder();
  builder.user("Survey the code.");
  sizes.forEach((size, index) => {
    const messageId = builder.nextMessageId();
    builder.assistantText("Looking.", messageId);
    const kind = index % 3;
    const use =
      kind === 0
        ? builder.toolUse("Read", { file_path: `/work/src/module-${index}.ts` }, messageId)
        : kind === 1
          ? builder.toolUse("Bash", { command: `npm test -- module-${index}` }, messageId)
          : builder.toolUse("Grep", { pattern: `value_${index}`, path: "/work/src" }, messageId);
    builder.toolResults([use], [`line ${index} of the output `.repeat(size)]);
  });
  builder.assistantText("Here is the survey.");
  builder.advance(HOUR);
  builder.user("Continue please.");
  return builder;
}

describe("tokensSaved of a clear", () => {
  it("equals the drop in the assembled request's token count (time-based clear)", async () => {
    const builder = idleSession([40, 120, 15, 300, 60, 90, 25, 200]);
    const cleared = await runCompactionTiers(compactionInput(builder.entries, builder.clock));
    const kept = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { settings: { microcompact: false } }),
    );
    const boundary = cleared.records.find(
      (record): record is SystemEntry => record.type === "system" && record.subtype === "microcompact_boundary",
    );
    expect(boundary?.microcompactMetadata?.compactedToolIds.length).toBeGreaterThan(0);
    const measured = requestTokens(kept.messages) - requestTokens(cleared.messages);
    expect(boundary?.microcompactMetadata?.tokensSaved).toBe(measured);
  });

  it("clearSavings of any result is the drop in the view's tokens when that result alone is cleared", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 9 }),
        fc.nat(),
        (sizes, pick) => {
          const view = idleSession(sizes).entries.filter(
            (entry): entry is MessageEntry => entry.type === "user" || entry.type === "assistant",
          );
          const results = collectToolResults(view);
          const result = results[pick % results.length]!;
          const before = view.reduce((sum, entry) => sum + estimateEntryTokens(entry), 0);
          const after = applyClearedToolResults(view, new Set([result.toolUseId])).reduce(
            (sum, entry) => sum + estimateEntryTokens(entry),
            0,
          );
          // Never negative: a result smaller than its placeholder saves nothing (and is not worth clearing).
          expect(clearSavings(result)).toBe(Math.max(0, before - after));
        },
      ),
      { numRuns: 60 },
    );
  });
});
