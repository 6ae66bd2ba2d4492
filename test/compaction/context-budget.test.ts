/**
 * The session's ContextBudget (docs/CONTEXT-BUDGET.md) with literal oracles: what it learns from a server's
 * count, what it ignores, what a resume reads back, and the guards around it (side-request room, a summary far
 * too short, the current prompt kept by the drop step).
 */
import { describe, expect, it } from "vitest";
import {
  budgetLimits,
  ContextBudget,
  currentPrompt,
  keptPromptSection,
  summaryTooShort,
} from "../../src/compaction/index.js";
import { sideRequestRoom } from "../../src/engine/forked-agent.js";
import type { ForkParent } from "../../src/loop/query-context.js";
import { createUserEntry, type MessageEntry, textBlock, toolResultBlock } from "../../src/messages/index.js";

const MODEL = "claude-sonnet-4-6";
const CONTEXT = { sessionId: "s", parentUuid: null } as const;

describe("ContextBudget", () => {
  it("learns up at once, down halfway, ignores zero reports and tiny requests", () => {
    const budget = new ContextBudget();
    expect(budget.observe(0, 10_000).changed).toBe(false); // a proxy that counts nothing
    expect(budget.ratio).toBe(1);
    expect(budget.observe(40_000, 100).changed).toBe(false); // too small to teach
    expect(budget.observe(40_000, 10_000).changed).toBe(true);
    expect(budget.ratio).toBe(4);
    budget.observe(20_000, 10_000);
    expect(budget.ratio).toBe(3);
    budget.observe(5_000, 10_000); // a server counting less than the estimate is taken as 1
    expect(budget.ratio).toBe(2);
  });

  it("works the window out in one place: the table, the server's window, the ratio", () => {
    expect(budgetLimits(MODEL, { contextWindow: 120_000 }, undefined).estimateWindow).toBe(120_000);
    const budget = new ContextBudget();
    budget.observe(40_000, 10_000);
    expect(budget.limits(MODEL, { contextWindow: 120_000 }).estimateWindow).toBe(30_000);
    expect(budget.limits(MODEL, { contextWindow: 120_000 }).serverWindow).toBe(120_000);
    expect(budget.learnWindow(32_768)).toBe(true);
    expect(budget.learnWindow(65_536)).toBe(false); // a larger window never replaces a smaller one
    expect(budget.limits(MODEL, { contextWindow: 120_000 }).estimateWindow).toBe(8_192);
    expect(budget.serverWindow(MODEL, { contextWindow: 120_000 })).toBe(32_768);
  });

  it("a compaction's next count over its target is reported once", () => {
    const budget = new ContextBudget();
    budget.pendingTarget = 35_280;
    expect(budget.observe(44_312, 11_078).missedTarget).toEqual({ reported: 44_312, target: 35_280 });
    expect(budget.observe(44_312, 11_078).missedTarget).toBeUndefined();
  });

  it("a resume reads the last record back", () => {
    const budget = new ContextBudget();
    budget.observe(30_000, 10_000);
    budget.learnWindow(12_288);
    const record = budget.record("s", new Date(0));
    expect(record).toMatchObject({ type: "context-budget", ratio: 3, learnedWindow: 12_288, reported: 30_000 });
    const resumed = ContextBudget.fromEntries([record]);
    expect(resumed.ratio).toBe(3);
    expect(resumed.learnedWindow).toBe(12_288);
    expect(ContextBudget.fromEntries([]).ratio).toBe(1);
  });
});

describe("guards around the budget", () => {
  // 12,288 window, 2,000 estimated at ×4 = 8,000 by the server's count: 4,288 left for the answer.
  it("a side request's max_tokens fits what is left of the server's window", () => {
    const budget = new ContextBudget();
    budget.observe(40_000, 10_000);
    const parent = {
      settings: { model: MODEL, modelOverrides: { contextWindow: 12_288 } },
      budget,
    } as unknown as ForkParent;
    expect(sideRequestRoom(parent, 2_000)).toBe(4_288);
    expect(sideRequestRoom(parent, 5_000)).toBe(256);
  });

  it("a summary far too short for what it replaces is refused; a real one is not", () => {
    expect(summaryTooShort(70, 10_387)).toBe(true);
    expect(summaryTooShort(400, 10_387)).toBe(false);
    expect(summaryTooShort(70, 5_000)).toBe(false); // short for short: not noise
  });

  it("the current prompt is the latest typed user text, not a tool result or a meta message", () => {
    const entries: MessageEntry[] = [
      createUserEntry({ ...CONTEXT, uuid: "u1" }, "Fix the checksum in mod-0.ts."),
      createUserEntry({ ...CONTEXT, uuid: "u2" }, [toolResultBlock("toolu_1", "file text")]),
      createUserEntry({ ...CONTEXT, uuid: "u3" }, [textBlock("continue")], { isMeta: true }),
    ];
    expect(currentPrompt(entries)).toBe("Fix the checksum in mod-0.ts.");
  });

  // A second drop step must find the prompt the first one carried in its marker (16K counted ×10 dropped rounds
  // 25 times in a session; from the second drop on, no request held the task).
  // Mutation caught: `prompt-lost-on-second-drop` (a compact summary entry skipped like any meta message).
  it("the current prompt is also the one an earlier drop marker carries", () => {
    const marker =
      "[3 earlier rounds of this conversation (~217 tokens) were dropped to fit the context window, without a summary. They included: Read mod-26.ts. Read a file again if you need what it said.]" +
      "\n\nThe request being worked on, kept as the person wrote it:\nFix the checksum in mod-24.ts.\nThen run the tests.";
    const entries: MessageEntry[] = [
      createUserEntry({ ...CONTEXT, uuid: "u1" }, [textBlock(marker)], { isCompactSummary: true, isMeta: true }),
      createUserEntry({ ...CONTEXT, uuid: "u2" }, [toolResultBlock("toolu_1", "file text")]),
    ];
    expect(currentPrompt(entries)).toBe("Fix the checksum in mod-24.ts.\nThen run the tests.");
    // A summary compaction's entry carries no prompt of its own: the search goes on past it.
    const summary = createUserEntry({ ...CONTEXT, uuid: "u0" }, [textBlock("This session is being continued…")], {
      isCompactSummary: true,
      isMeta: true,
    });
    expect(currentPrompt([summary, entries[1]!])).toBeUndefined();
  });

  it("a kept prompt too long for its room keeps its beginning and end and says how much is out", () => {
    const prompt = `${"a".repeat(5_000)}${"b".repeat(5_000)}`;
    const label = "The request being worked on, kept as the person wrote it:\n";
    expect(keptPromptSection("Fix it.", 100)).toBe(`${label}Fix it.`);
    const section = keptPromptSection(prompt, 500); // 500 tokens: about 2,000 characters
    expect(section.startsWith(`${label}aaaa`)).toBe(true);
    expect(section.endsWith("bbbb")).toBe(true);
    expect(section.length).toBeLessThanOrEqual(2_000);
    const out = Number(/\[… ([\d,]+) characters of the request left out/.exec(section)![1]!.replace(/,/g, ""));
    const kept = (text: string) => (text.match(/a{2,}|b{2,}/g) ?? []).join("").length;
    expect(out + kept(section)).toBe(10_000);
    // Never below 400 characters, however small the room: the task matters more than the target.
    expect(kept(keptPromptSection(prompt, 1))).toBe(400);
  });
});
