import { validateRequest } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
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

/**
 * Violations for one generated case, or "empty" when assembly refused it as an empty conversation (by design:
 * nothing the API accepts is left). Empty cases are counted apart, never as "no violations".
 */
function violationsFor(ops: readonly TimelineOp[], choice: SettingsChoice): string[] | "empty" {
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
    if (error instanceof EmptyConversationError) return "empty";
    throw error;
  }
}

describe("contract: every assembled request passes the emulator's validator", () => {
  it("holds for 10,000 messy timelines, and at least 9,000 of them are requests (not refused as empty)", () => {
    const RUNS = 10_000;
    let checked = 0;
    let empty = 0;
    fc.assert(
      fc.property(timelineOps, settingsChoice, (ops, choice) => {
        const violations = violationsFor(ops, choice);
        if (violations === "empty") {
          empty++;
          return;
        }
        checked++;
        expect(violations).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    // fast-check may shrink after a failure; without one every run is counted exactly once.
    expect(checked + empty).toBe(RUNS);
    // An empty conversation is refused, not validated: it may not stand in for a checked request. The
    // generator makes about 6 % of them (115 in 2,000 when issue 45 counted); far more would mean the
    // property checks little.
    expect(checked).toBeGreaterThanOrEqual(9_000);
  });
});
