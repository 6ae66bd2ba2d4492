/**
 * The API views are extended from last call's result while the timeline only grows. Property: at every
 * length, for the engine's own (growing, mutated) array and for fresh copies, the views equal a plain
 * filter written from the definition; records that reach back (snip, superseded, compact) included.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { MessageEntry, TimelineEntry } from "../../src/messages/index.js";
import {
  createApiErrorEntry,
  createAssistantEntry,
  createAttachmentEntry,
  createProgressEntry,
  createSystemEntry,
  createUserEntry,
  isMessageEntry,
  textBlock,
} from "../../src/messages/index.js";
import { apiView, apiViewWithErrors, isApiVisible, Timeline } from "../../src/timeline/index.js";

/** The views as DESIGN defines them, with no memo: the oracle. */
function referenceView(entries: readonly TimelineEntry[], keepErrors: boolean): string[] {
  const removed = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "system") continue;
    if (entry.subtype === "snip_boundary") for (const uuid of entry.snipMetadata?.removedUuids ?? []) removed.add(uuid);
    if (entry.subtype === "stream_superseded") for (const uuid of entry.supersededUuids ?? []) removed.add(uuid);
  }
  let start = 0;
  entries.forEach((entry, index) => {
    if (entry.type === "system" && entry.subtype === "compact_boundary" && !entry.isSidechain) start = index + 1;
  });
  const kept: string[] = [];
  for (const entry of entries.slice(start)) {
    if (!isMessageEntry(entry) || removed.has(entry.uuid)) continue;
    const message: MessageEntry = entry;
    const isError = message.type === "assistant" && message.isApiErrorMessage === true;
    if (isError) {
      if (keepErrors && !message.isVirtual && !message.isSidechain) kept.push(message.uuid);
      continue;
    }
    if (isApiVisible(message)) kept.push(message.uuid);
  }
  return kept;
}

type Op =
  | { kind: "user" | "assistant" | "error" | "attachment" | "progress" | "sidechain" | "virtual" | "local" }
  | { kind: "snip" | "supersede"; picks: number[] }
  | { kind: "compact" | "sidechain-compact" | "latches" };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      kind: fc.constantFrom(
        "user" as const,
        "assistant" as const,
        "error" as const,
        "attachment" as const,
        "progress" as const,
        "sidechain" as const,
        "virtual" as const,
        "local" as const,
      ),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("snip" as const, "supersede" as const),
      picks: fc.array(fc.nat(40), { maxLength: 3 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constantFrom("compact" as const, "sidechain-compact" as const, "latches" as const),
    }),
  },
);

function entryFor(step: Op, index: number, made: readonly TimelineEntry[]): TimelineEntry {
  const context = (extra: { isSidechain?: boolean } = {}) => ({
    sessionId: "s",
    parentUuid: null,
    uuid: `u${index}`,
    now: new Date(index * 1000),
    ...extra,
  });
  // Picks may name entries not made yet (a record naming a later uuid still removes it).
  const named = (picks: number[]) => picks.map((pick) => (made[pick] as { uuid?: string })?.uuid ?? `u${pick}`);
  switch (step.kind) {
    case "user":
      return createUserEntry(context(), `q${index}`);
    case "assistant":
      return createAssistantEntry(context(), textBlock(`a${index}`), { messageId: `m${index}`, model: "x" });
    case "error":
      return createApiErrorEntry(context(), "Prompt is too long");
    case "attachment":
      return createAttachmentEntry(context(), "file", "contents");
    case "progress":
      return createProgressEntry(context(), "toolu_1", "working");
    case "sidechain":
      return createUserEntry(context({ isSidechain: true }), "sub");
    case "virtual":
      return createUserEntry(context(), "repl", { isVirtual: true });
    case "local":
      return createSystemEntry(context(), "local_command", "<local-command-stdout>ok</local-command-stdout>");
    case "snip":
      return createSystemEntry(context(), "snip_boundary", "snip", {
        snipMetadata: { removedUuids: named(step.picks) },
      });
    case "supersede":
      return createSystemEntry(context(), "stream_superseded", "retry", { supersededUuids: named(step.picks) });
    case "compact":
    case "sidechain-compact":
      return createSystemEntry(context(step.kind === "compact" ? {} : { isSidechain: true }), "compact_boundary", "c", {
        compactMetadata: { trigger: "auto", preTokens: 1, postTokens: 1 },
      });
    case "latches":
      return { type: "latches", betas: ["b"], timestamp: "t", sessionId: "s" };
  }
}

describe("incremental API views", () => {
  it("equal the definition at every length, for a growing timeline and for copies of it", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 40 }), fc.nat(5), (ops, shorterBy) => {
        const timeline = new Timeline();
        const made: TimelineEntry[] = [];
        ops.forEach((step, index) => {
          const entry = entryFor(step, index, made);
          made.push(entry);
          timeline.append(entry);
          const live = timeline.entries;
          expect(apiView(live).map((entry) => entry.uuid)).toEqual(referenceView(live, false));
          expect(apiViewWithErrors(live).map((entry) => entry.uuid)).toEqual(referenceView(live, true));
          // An earlier state of the same timeline (as the snip nudge asks for) and a copy both still agree.
          const earlier = live.slice(0, Math.max(1, live.length - shorterBy));
          expect(apiView(earlier).map((entry) => entry.uuid)).toEqual(referenceView(earlier, false));
          expect(apiViewWithErrors([...live]).map((entry) => entry.uuid)).toEqual(referenceView(live, true));
        });
      }),
      { numRuns: 500 },
    );
  });

  it("returns a new array each call, so callers may change it", () => {
    const entries = [createUserEntry({ sessionId: "s", parentUuid: null, now: new Date(0) }, "q")];
    const first = apiView(entries);
    first.pop();
    expect(apiView(entries)).toHaveLength(1);
  });
});
