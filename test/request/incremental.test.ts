import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  assembleRequest,
  emptyLatches,
  NormalizeMemo,
  normalizeIncrementally,
  normalizeMessagesForAPI,
} from "../../src/request/index.js";
import {
  buildTimeline,
  editsFrom,
  settingsChoice,
  settingsFrom,
  type TimelineOp,
  timelineOps,
} from "../../support/messy-timeline.js";

/** Ops that close a turn now and then, so the memo has closed turns to reuse. */
const closing: fc.Arbitrary<TimelineOp> = fc.constant({
  kind: "response",
  thinking: 0,
  redacted: false,
  text: "Done with that part.",
  tools: 0,
  cutAfter: undefined,
});
const sessionOps = fc.array(
  fc.oneof({ weight: 4, arbitrary: timelineOps }, { weight: 1, arbitrary: closing.map((op) => [op]) }),
  {
    minLength: 1,
    maxLength: 8,
  },
);

describe("incremental normalization", () => {
  it("a session memo never changes a byte: every turn equals assembly from scratch", () => {
    let reusedTurns = 0;
    fc.assert(
      fc.property(sessionOps, settingsChoice, (chunks, choice) => {
        const ops = chunks.flat();
        const builder = buildTimeline(ops);
        const full = builder.entries;
        const settings = settingsFrom(choice);
        // Pins and this turn's edits name real (and stale) tool ids, so cache references are checked too.
        const { pins, newCacheEdits } = editsFrom(choice, builder.toolUseIds());
        const memo = new NormalizeMemo();
        for (let length = 1; length <= full.length; length++) {
          const messages = full.slice(0, length);
          // The oracle assembles fresh entry objects, so no memo keyed by a message's identity (the references
          // and serialized prefixes) can be shared with the session; block-level memos are pure and may be.
          const fresh = (() => {
            try {
              const copy = messages.map((entry) => ({ ...entry }));
              return assembleRequest({ messages: copy, settings, latches: emptyLatches(), pins, newCacheEdits }).request
                .json;
            } catch (error) {
              return `threw ${(error as Error).name}`;
            }
          })();
          const before = memo.entries.length;
          const incremental = (() => {
            try {
              return assembleRequest({ messages, settings, latches: emptyLatches(), pins, newCacheEdits, memo }).request
                .json;
            } catch (error) {
              return `threw ${(error as Error).name}`;
            }
          })();
          if (before > 0 && memo.entries.length >= before) reusedTurns++;
          expect(incremental).toBe(fresh);
        }
      }),
      { numRuns: 400 },
    );
    // the memo must actually have been used, or this property proves nothing
    expect(reusedTurns).toBeGreaterThan(200);
  });

  it("past the media limit (here 3) every turn still equals normalization from scratch", () => {
    fc.assert(
      fc.property(sessionOps, fc.boolean(), (chunks, snipTags) => {
        const full = buildTimeline(chunks.flat()).entries;
        const options = { snipTags, maxMediaBlocks: 3 };
        const memo = new NormalizeMemo();
        for (let length = 1; length <= full.length; length++) {
          const messages = full.slice(0, length);
          const fresh = normalizeMessagesForAPI(
            messages.map((entry) => ({ ...entry })),
            options,
          );
          expect(JSON.stringify(normalizeIncrementally(messages, options, memo))).toBe(JSON.stringify(fresh));
        }
      }),
      { numRuns: 200 },
    );
  });
});
