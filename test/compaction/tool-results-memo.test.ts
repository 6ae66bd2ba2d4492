/**
 * collectToolResults continues last turn's scan when the view only grew, and keeps the shared part when a view
 * shares only a prefix with the last one. The memo must be invisible: whatever sequence of views arrives, each
 * answer equals a cold scan of a structured clone of that view (new objects, so nothing is remembered).
 *
 * Mutations applied once to see this fail:
 * - dropping the tool_use index rebuild after a shorter shared prefix (`scan.uses = new Map()` and its loop):
 *   a result in the new tail is then named after a tool_use that only the dropped entries held;
 * - `scan.results.length = scan.resultsBefore[shared]!` removed: the dropped results stay in the answer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { collectToolResults } from "../../src/compaction/results/compactable-results.js";
import {
  createAssistantEntry,
  createToolResultEntry,
  createUserEntry,
  type MessageEntry,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";

type Step = { kind: "prompt" } | { kind: "use"; id: number; name: string } | { kind: "result"; id: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: "prompt" }),
  fc.record({
    kind: fc.constant("use" as const),
    id: fc.integer({ min: 0, max: 4 }),
    name: fc.constantFrom("Read", "Bash", "Grep"),
  }),
  fc.record({ kind: fc.constant("result" as const), id: fc.integer({ min: 0, max: 4 }) }),
);

let counter = 0;
function entryOf(step: Step, variant: string): MessageEntry {
  const uuid = `00000000-0000-4000-8000-${(counter++).toString(16).padStart(12, "0")}`;
  const at = { sessionId: "memo", parentUuid: null, uuid, now: new Date(1_700_000_000_000 + counter * 1000) };
  switch (step.kind) {
    case "prompt":
      return createUserEntry(at, `prompt ${variant}`);
    case "use":
      return createAssistantEntry(at, toolUseBlock(`toolu_${step.id}`, step.name, { path: variant }), {
        messageId: `msg_${uuid}`,
        model: "claude-sonnet-4-5-20250929",
        stopReason: "tool_use",
      });
    case "result":
      return createToolResultEntry(
        at,
        [toolResultBlock(`toolu_${step.id}`, `output ${variant} `.repeat(step.id + 1))],
        uuid,
      );
    default: {
      const never: never = step;
      return never;
    }
  }
}

/** The fields a caller reads, as plain data. */
function plain(view: readonly MessageEntry[]) {
  return collectToolResults(view).map((result) => ({
    toolUseId: result.toolUseId,
    toolName: result.toolName,
    entryUuid: result.entryUuid,
    viewIndex: result.viewIndex,
    tokens: result.tokens,
    clearedTokens: result.clearedTokens,
  }));
}

describe("collectToolResults across turns", () => {
  it("answers every view of a growing, forking session as a cold scan of it would", () => {
    fc.assert(
      fc.property(
        fc.array(stepArb, { minLength: 1, maxLength: 30 }),
        fc.array(
          fc.record({ keep: fc.nat(), tail: fc.array(stepArb, { maxLength: 8 }), variant: fc.constantFrom("a", "b") }),
          { minLength: 1, maxLength: 6 },
        ),
        (start, turns) => {
          let view = start.map((step) => entryOf(step, "start"));
          expect(plain(view)).toEqual(plain(structuredClone(view)));
          for (const turn of turns) {
            // Keep a prefix (the first entry always, so the same memo answers), then a new tail.
            const keep = 1 + (turn.keep % view.length);
            view = [...view.slice(0, keep), ...turn.tail.map((step) => entryOf(step, turn.variant))];
            expect(plain(view)).toEqual(plain(structuredClone(view)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it("a result whose tool_use was only in the dropped entries is not named after it", () => {
    const prompt = entryOf({ kind: "prompt" }, "x");
    const use = entryOf({ kind: "use", id: 1, name: "Read" }, "x");
    const first = entryOf({ kind: "result", id: 1 }, "x");
    expect(collectToolResults([prompt, use, first]).map((result) => result.toolName)).toEqual(["Read"]);
    const orphan = entryOf({ kind: "result", id: 1 }, "y");
    // Literal oracle: without its tool_use in view, a result has no tool name.
    expect(collectToolResults([prompt, orphan]).map((result) => [result.toolName, result.viewIndex])).toEqual([
      [undefined, 1],
    ]);
  });
});
