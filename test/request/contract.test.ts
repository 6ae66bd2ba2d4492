import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { validateRequest } from "../../src/emulator/validator/index.js";
import { assembleRequest, EmptyConversationError, emptyLatches } from "../../src/request/index.js";
import {
  buildTimeline,
  editsFrom,
  type SettingsChoice,
  SIGNATURE_SECRET,
  settingsChoice,
  settingsFrom,
  type TimelineOp,
  timelineOps,
} from "../../support/messy-timeline.js";

/** Violations for one generated case (an empty conversation is skipped: assembly refuses it by design). */
function violationsFor(ops: readonly TimelineOp[], choice: SettingsChoice): string[] {
  const builder = buildTimeline(ops);
  const settings = settingsFrom(choice);
  const { pins, newCacheEdits } = editsFrom(choice, builder.toolUseIds());
  try {
    const { request } = assembleRequest({
      messages: builder.entries,
      settings,
      latches: emptyLatches(),
      pins,
      newCacheEdits,
    });
    return validateRequest(JSON.parse(request.json), {
      signatureSecret: SIGNATURE_SECRET,
      cacheEditing: choice.cacheEditing,
      betas: request.betas,
    }).map((violation) => violation.message);
  } catch (error) {
    if (error instanceof EmptyConversationError) return [];
    throw error;
  }
}

describe("contract: every assembled request passes the emulator's validator", () => {
  it("holds for 10,000 messy timelines", () => {
    fc.assert(
      fc.property(timelineOps, settingsChoice, (ops, choice) => {
        expect(violationsFor(ops, choice)).toEqual([]);
      }),
      { numRuns: 10_000 },
    );
  });
});
