import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  CONTEXT_EFFICIENCY_ATTACHMENT,
  contextGrowth,
  createSnipTool,
  runCompactionTiers,
} from "../../src/compaction/index.js";
import type { AttachmentEntry, TimelineEntry } from "../../src/messages/index.js";
import { createAttachmentEntry, createSystemEntry, shortId } from "../../src/messages/index.js";
import { SESSION_ID, TimelineBuilder, toolContext, toolUseId } from "../../support/timeline-builder.js";
import { compactionInput } from "./compaction-input.js";

/** Runs a pass and appends its records, as the loop does; returns the nudges it made. */
async function pass(builder: TimelineBuilder): Promise<AttachmentEntry[]> {
  const output = await runCompactionTiers(
    compactionInput(builder.entries, builder.clock, { settings: { snip: true } }),
  );
  builder.timeline.appendAll(output.records);
  return output.records.filter(
    (record: TimelineEntry): record is AttachmentEntry =>
      record.type === "attachment" && record.attachment.type === CONTEXT_EFFICIENCY_ATTACHMENT,
  );
}

/** One round adding about 2,000 tokens (8,000 characters of tool output). */
function grow(builder: TimelineBuilder) {
  return builder.round("Read", "z".repeat(8_000), "Reading.");
}

describe("context_efficiency nudge", () => {
  it("fires once per ~10K tokens of growth", async () => {
    const builder = new TimelineBuilder();
    builder.user("Start.");
    const firedAt: number[] = [];
    for (let round = 1; round <= 12; round++) {
      grow(builder);
      if ((await pass(builder)).length > 0) firedAt.push(round);
    }
    // Each round adds a little over 2,000 tokens, so a nudge every fifth round.
    expect(firedAt).toEqual([5, 10]);
  });

  it("puts the nudge in this pass's messages, chained after the current leaf", async () => {
    const builder = new TimelineBuilder();
    builder.user("Start.");
    for (let round = 0; round < 5; round++) grow(builder);
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { settings: { snip: true } }),
    );
    const nudge = output.records[0] as AttachmentEntry;
    expect(nudge.attachment.type).toBe(CONTEXT_EFFICIENCY_ATTACHMENT);
    expect(nudge.attachment.content).toMatch(/Snip tool/);
    expect(nudge.parentUuid).toBe(builder.timeline.lastMessage?.uuid);
    expect(output.messages.at(-1)).toBe(nudge);
  });

  it("is reset by a snip", async () => {
    const builder = new TimelineBuilder();
    builder.user("Start.");
    const small = builder.round("Bash", "ok");
    for (let round = 0; round < 4; round++) grow(builder);
    expect(await pass(builder)).toEqual([]);
    builder.assistantText("Tidying.", "msg_tidy");
    const call = builder.toolUse("Snip", { ids: [] }, "msg_tidy");
    const output = await createSnipTool().call(
      { ids: [shortId(small.result.uuid)] },
      toolContext(builder.timeline, toolUseId(call)),
    );
    expect(output.isError).toBeUndefined();
    builder.toolResults([call], ["Snipped."]);
    // Five growth rounds since the start (over 10K), but only one since the snip.
    grow(builder);
    expect(await pass(builder)).toEqual([]);
  });

  it("is reset by a compaction boundary", async () => {
    const builder = new TimelineBuilder();
    builder.user("Start.");
    for (let round = 0; round < 6; round++) grow(builder);
    expect(await pass(builder)).toHaveLength(1);
    builder.timeline.append(
      createSystemEntry(
        { sessionId: SESSION_ID, parentUuid: builder.timeline.lastMessage!.uuid, now: builder.clock },
        "compact_boundary",
        "Compacted",
        { compactMetadata: { trigger: "auto", preTokens: 12_000, postTokens: 10 } },
      ),
    );
    builder.user("Summary of earlier work.");
    for (let round = 0; round < 4; round++) grow(builder);
    expect(await pass(builder)).toEqual([]);
    // The view after the boundary reaches 10K: measured from the compaction, not from the older, larger nudge.
    grow(builder);
    expect(await pass(builder)).toHaveLength(1);
  });
});

describe("context growth, measured incrementally", () => {
  it("equals the measure of a fresh copy (no memo can apply) at every step, snips and nudges included", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("round", "user", "snip", "nudge", "compact"), { minLength: 1, maxLength: 25 }),
        (steps) => {
          const builder = new TimelineBuilder();
          builder.user("Start.");
          steps.forEach((step, index) => {
            const context = { sessionId: SESSION_ID, parentUuid: null, now: builder.clock, uuid: `${index}-record` };
            if (step === "round") builder.round("Read", "y".repeat(400 * (index + 1)), "Reading.");
            else if (step === "user") builder.user(`More ${index}.`);
            else if (step === "snip") {
              const victim = builder.entries.find((entry) => entry.type === "user");
              builder.timeline.append(
                createSystemEntry(context, "snip_boundary", "snip", {
                  snipMetadata: { removedUuids: victim && "uuid" in victim ? [victim.uuid] : [] },
                }),
              );
            } else if (step === "nudge") {
              builder.timeline.append(createAttachmentEntry(context, CONTEXT_EFFICIENCY_ATTACHMENT, "nudge"));
            } else
              builder.timeline.append(
                createSystemEntry(context, "compact_boundary", "c", {
                  compactMetadata: { trigger: "auto", preTokens: 1, postTokens: 1 },
                }),
              );
            expect(contextGrowth(builder.entries)).toEqual(contextGrowth(structuredClone(builder.entries)));
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});
