import { describe, expect, it } from "vitest";
import { CLEARED_TOOL_RESULT_PREFIX, runCompactionTiers } from "../../src/compaction/index.js";
import type { CacheEditPinRecord } from "../../src/messages/index.js";
import type { CacheEditPin } from "../../src/request/index.js";
import { SESSION_ID, TimelineBuilder } from "../../support/timeline-builder.js";
import { assembleAndValidate } from "./assemble-and-validate.js";
import { compactionInput, EMULATOR_CAPABILITIES, NO_EXTRAS, PUBLIC_API_CAPABILITIES } from "./compaction-input.js";

/**
 * Tool output of `size` characters. Words, not one letter repeated: the validator counts with the server's
 * tokenizer (the Claude tokenizer: "word " is one token, 0.8x the client's characters / 4; a run of "w" measured
 * 1.8x, over the 200K window), and this file is about the contract of what compaction sends, not the window.
 */
function filler(size: number): string {
  return "word ".repeat(Math.ceil(size / 5)).slice(0, size);
}

function session(rounds: number, size: number, idleMs = 0): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Start.");
  for (let round = 0; round < rounds; round++) builder.round(round % 2 === 0 ? "Read" : "Bash", filler(size));
  builder.assistantText("Done.");
  builder.advance(idleMs);
  builder.user("Continue.");
  return builder;
}

function pinRecord(pin: CacheEditPin): CacheEditPinRecord {
  return { type: "cache-edit-pin", ...pin, timestamp: "2025-01-01T00:00:00.000Z", sessionId: SESSION_ID };
}

function pinsOf(entries: readonly { type: string }[]): CacheEditPin[] {
  return entries
    .filter((entry): entry is CacheEditPinRecord => entry.type === "cache-edit-pin")
    .map((record) => ({ messageIndex: record.messageIndex, block: record.block }));
}

describe("compaction output through request assembly and the API contract", () => {
  it("the time-based projected view passes validateRequest", async () => {
    const builder = session(9, 4_000, 2 * 3_600_000);
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, { capabilities: NO_EXTRAS }),
    );
    expect(output.records.some((record) => record.type === "system")).toBe(true);
    const { assembled, violations } = assembleAndValidate(output);
    expect(violations).toEqual([]);
    expect(assembled.request.json).toContain(CLEARED_TOOL_RESULT_PREFIX);
  });

  it("cached deletes are placed, pinned and re-sent at the same index on later turns", async () => {
    const builder = session(9, 48_000);
    // a new tool round gives the turn a delete budget (growth + 5 % of the prefix): one old result
    builder.round("Read", filler(48_000));
    const input = () => compactionInput(builder.entries, builder.clock, { capabilities: EMULATOR_CAPABILITIES });
    const first = await runCompactionTiers(input());
    expect(first.newCacheEdits).toHaveLength(1);
    const turn1 = assembleAndValidate(first, pinsOf(builder.entries));
    expect(turn1.violations).toEqual([]);
    expect(turn1.assembled.newPins).toHaveLength(1);
    builder.timeline.appendAll(first.records);
    for (const pin of turn1.assembled.newPins) builder.timeline.append(pinRecord(pin));

    builder.assistantText("Next step.");
    builder.user("Go on.");
    const second = await runCompactionTiers(input());
    expect(second.newCacheEdits).toEqual([]);
    const turn2 = assembleAndValidate(second, pinsOf(builder.entries));
    expect(turn2.violations).toEqual([]);
    const pinned = turn1.assembled.newPins[0]!;
    const body1 = turn1.assembled.request.body;
    const body2 = turn2.assembled.request.body;
    // The message holding the pinned block is byte-identical on both turns (but for the moving cache marker).
    const withoutMarker = (value: unknown) =>
      JSON.stringify(value, (key, inner: unknown) => (key === "cache_control" ? undefined : inner));
    expect(withoutMarker(body2.messages[pinned.messageIndex])).toBe(withoutMarker(body1.messages[pinned.messageIndex]));
    expect(withoutMarker(body2.messages[pinned.messageIndex])).toContain('"cache_edits"');
    expect(JSON.stringify(body2.messages.slice(0, pinned.messageIndex))).toBe(
      JSON.stringify(body1.messages.slice(0, pinned.messageIndex)),
    );
  });

  it("the public context_management edit passes validateRequest with its beta", async () => {
    const builder = session(3, 400);
    const output = await runCompactionTiers(
      compactionInput(builder.entries, builder.clock, {
        capabilities: PUBLIC_API_CAPABILITIES,
        settings: { serverClearToolUses: true },
      }),
    );
    const { assembled, violations } = assembleAndValidate(output);
    expect(violations).toEqual([]);
    expect(assembled.request.body.context_management?.edits[0]?.type).toBe("clear_tool_uses_20250919");
  });
});
