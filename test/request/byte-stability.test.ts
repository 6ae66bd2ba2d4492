import { validateRequest } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type AssembleOutput,
  assembleRequest,
  type CacheEditPin,
  emptyLatches,
  type LatchState,
  type RequestSettings,
} from "../../src/request/index.js";
import { MessyTimeline, SIGNATURE_SECRET, type TimelineOp, TOOLS } from "../../support/messy-timeline.js";

/** One round of a session that only grows: the person speaks, then the model works through tool calls. */
const round = fc.record({
  text: fc.constantFrom("please fix the bug", "and now the tests", "thanks, one more thing"),
  attachments: fc.nat(2),
  steps: fc.array(fc.record({ thinking: fc.nat(1), tools: fc.nat(2), reminder: fc.boolean(), text: fc.boolean() }), {
    minLength: 1,
    maxLength: 3,
  }),
  edits: fc.nat(2),
});

const settingsArbitrary = fc.record({
  snipTags: fc.boolean(),
  cacheEditing: fc.boolean(),
  thinking: fc.boolean(),
  ttl: fc.constantFrom("5m" as const, "1h" as const),
});

const MARKER = /,"cache_control":\{"type":"ephemeral"(,"ttl":"1h")?\}/g;
const strip = (json: string) => json.replace(MARKER, "");

/** Request N's bytes up to and including its message breakpoint block (markers removed). */
function prefixUpToBreakpoint(json: string): string {
  let last = -1;
  for (const match of json.matchAll(MARKER)) last = match.index;
  const messagesStart = json.indexOf('"messages":[');
  if (last < messagesStart) throw new Error("request has no message breakpoint");
  return strip(json.slice(0, last));
}

describe("byte stability", () => {
  it("request N+1 repeats request N's bytes up to N's message breakpoint, for a timeline that only grows", () => {
    fc.assert(
      fc.property(fc.array(round, { minLength: 1, maxLength: 5 }), settingsArbitrary, (rounds, choice) => {
        const settings: RequestSettings = {
          model: "claude-sonnet-4-5",
          systemPrompt: ["You are threadline.", "Environment: test"],
          tools: TOOLS,
          snipTags: choice.snipTags,
          cacheEditing: choice.cacheEditing,
          cacheTtl: choice.ttl,
        };
        if (choice.thinking) settings.thinking = { type: "enabled", budgetTokens: 2_000 };
        const builder = new MessyTimeline();
        let latches: LatchState = emptyLatches();
        const pins: CacheEditPin[] = [];
        let previous: AssembleOutput | undefined;
        let requests = 0;
        const send = (newEdits: number) => {
          const toolIds = builder.toolUseIds();
          const newCacheEdits = toolIds
            .slice(0, newEdits)
            .map((id) => ({ type: "delete" as const, cache_reference: id }));
          const output = assembleRequest({ messages: builder.entries, settings, latches, pins, newCacheEdits });
          const again = assembleRequest({ messages: builder.entries, settings, latches, pins, newCacheEdits });
          expect(again.request.json).toBe(output.request.json);
          expect(output.request.json).toBe(JSON.stringify(output.request.body));
          expect(
            validateRequest(output.request.body, {
              signatureSecret: SIGNATURE_SECRET,
              cacheEditing: choice.cacheEditing,
            }),
          ).toEqual([]);
          if (previous) {
            expect(strip(output.request.json).startsWith(prefixUpToBreakpoint(previous.request.json))).toBe(true);
            expect(output.request.body.messages.length).toBeGreaterThan(previous.request.body.messages.length);
            for (const beta of previous.request.betas) expect(output.request.betas).toContain(beta);
          }
          latches = output.latches;
          pins.push(...output.newPins);
          previous = output;
          requests++;
        };
        for (const { text, attachments, steps, edits } of rounds) {
          builder.apply({ kind: "user", text, meta: false });
          for (let index = 0; index < attachments; index++)
            builder.apply({ kind: "attachment", text: `note ${index}` });
          send(edits);
          for (const step of steps) {
            const response: TimelineOp = {
              kind: "response",
              thinking: choice.thinking ? step.thinking : 0,
              redacted: false,
              text: step.text || step.tools === 0 ? "working on it" : undefined,
              tools: step.tools,
              cutAfter: undefined,
            };
            builder.apply(response);
            if (step.tools === 0) break;
            builder.apply({
              kind: "results",
              answer: 0,
              shuffle: false,
              error: false,
              image: false,
              orphan: false,
              reminder: step.reminder,
            });
            send(edits);
          }
          // A round ends with the model's final answer, as a real loop does.
          if (steps[steps.length - 1]!.tools > 0) {
            builder.apply({
              kind: "response",
              thinking: 0,
              redacted: false,
              text: "done",
              tools: 0,
              cutAfter: undefined,
            });
          }
        }
        expect(requests).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});
