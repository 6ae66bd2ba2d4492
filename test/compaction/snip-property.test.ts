import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createSnipTool } from "../../src/compaction/index.js";
import type { AssistantEntry, MessageEntry } from "../../src/messages/index.js";
import { createAttachmentEntry, shortId } from "../../src/messages/index.js";
import { apiView } from "../../src/timeline/index.js";
import { SESSION_ID, TimelineBuilder, toolContext, toolUseId } from "../../support/timeline-builder.js";
import { assembleAndValidate } from "./assemble-and-validate.js";

/** One step of a generated conversation. */
type Step =
  | { kind: "tools"; names: string[]; combined: boolean; withText: boolean }
  | { kind: "reply"; thenMeta: boolean; thenAttachment: boolean };

const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant("tools" as const),
    names: fc.array(fc.constantFrom("Read", "Bash", "Grep", "Agent", "Snip"), { minLength: 1, maxLength: 3 }),
    combined: fc.boolean(),
    withText: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("reply" as const), thenMeta: fc.boolean(), thenAttachment: fc.boolean() }),
);

function build(steps: readonly Step[]): TimelineBuilder {
  const builder = new TimelineBuilder();
  builder.user("Start.");
  for (const step of steps) {
    if (step.kind === "tools") {
      const messageId = builder.nextMessageId();
      if (step.withText) builder.assistantText("Let me check.", messageId);
      const uses = step.names.map((name) => builder.toolUse(name, { name }, messageId));
      if (step.combined)
        builder.toolResults(
          uses,
          uses.map((_, index) => `result ${index}`),
        );
      else for (const use of uses) builder.toolResults([use], ["result"]);
    } else {
      builder.assistantText("Here you go.");
      if (step.thenMeta) builder.user("<system-reminder>meta</system-reminder>", true);
      if (step.thenAttachment) {
        builder.timeline.append(
          createAttachmentEntry(
            { sessionId: SESSION_ID, parentUuid: builder.timeline.lastMessage?.uuid ?? null, now: builder.clock },
            "file",
            "attached",
          ),
        );
      }
      builder.user("Next.");
    }
  }
  return builder;
}

/** tool_use ids without a result and results without a tool_use in the view, ignoring `pending`. */
function unpaired(view: readonly MessageEntry[], pending: string): string[] {
  const uses = new Set<string>();
  const results = new Set<string>();
  for (const entry of view) {
    if (entry.type === "assistant" && entry.message.content[0].type === "tool_use")
      uses.add(entry.message.content[0].id);
    if (entry.type === "user" && typeof entry.message.content !== "string") {
      for (const block of entry.message.content) if (block.type === "tool_result") results.add(block.tool_use_id);
    }
  }
  uses.delete(pending);
  return [...[...uses].filter((id) => !results.has(id)), ...[...results].filter((id) => !uses.has(id))];
}

describe("snip keeps the API view well formed (property)", () => {
  it("never leaves a tool_use without its tool_result (or vice versa); the request stays valid", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArbitrary, { minLength: 1, maxLength: 12 }),
        fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 4 }),
        async (steps, snipRounds) => {
          const builder = build(steps);
          builder.assistantText("Tidying up.", "msg_final");
          const call: AssistantEntry = builder.toolUse("Snip", { ids: [] }, "msg_final");
          const context = toolContext(builder.timeline, toolUseId(call));
          const tool = createSnipTool({ now: () => builder.clock });
          for (const picks of snipRounds) {
            const candidates = apiView(builder.entries).filter((entry) => entry.type === "user" && !entry.isMeta);
            if (candidates.length === 0) break;
            const ids = picks.map((pick) => shortId(candidates[pick % candidates.length]!.uuid));
            const before = builder.entries.length;
            const output = await tool.call({ ids }, context);
            // A refused snip changes nothing; an accepted one appends exactly one boundary.
            expect(builder.entries.length).toBe(output.isError ? before : before + 1);
            const view = apiView(builder.entries);
            expect(unpaired(view, toolUseId(call))).toEqual([]);
            expect(view.some((entry) => entry.uuid === call.uuid)).toBe(true);
          }
          // With the pending Snip call answered, the assembled request passes the API contract.
          builder.toolResults([call], ["done"]);
          const { violations } = assembleAndValidate({
            messages: apiView(builder.entries),
            newCacheEdits: [],
            cacheEditing: false,
            snipTags: true,
          });
          expect(violations).toEqual([]);
        },
      ),
      { numRuns: 300 },
    );
  });
});
