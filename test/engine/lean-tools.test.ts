/**
 * A window the tools block would crowd out (docs/CONTEXT-BUDGET.md "The fixed prefix"): a llama-server-like
 * server (the emulator's compatible mode) with a 16,384-token window whose tokenizer counts 4.1× the estimate,
 * the window not given to the client (it learns it from the server's first overflow error, as from a real
 * llama-server). The full tools block alone is ~11,000 of those 16,384 tokens; before lean definitions the session
 * stopped "Context is full" at its seventh request. The model calls Bash every turn (`seq`) for 40 turns.
 *
 * Oracles: the emulator's request log (the tools blocks actually sent, the server's own counts) and the
 * transcript on disk for the resume — never the constants or functions under test.
 * Mutation caught (`lean-tools-never`): `considerLeanTools` never switching — the turn ends with an error.
 */
import type { RequestLogEntry, ScenarioStep } from "@threadline/emulator";
import { startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { collect } from "../../support/collect.js";
import { type Harness, resumeSavedEngine, saveSession, startHarness, turnEnd } from "../../support/engine-harness.js";

const WINDOW = 16_384;
const RATIO = 4.1;
const TURNS = 40;

interface Tool {
  name: string;
  description: string;
  input_schema: { properties?: Record<string, { type?: unknown }>; required?: string[] };
}

function toolsOf(record: RequestLogEntry): Tool[] {
  return ((record.body as { tools?: Tool[] }).tools ?? []) as Tool[];
}

/** Each tool's name, property names and types, and required fields: what a call, a rule or a hook relies on. */
function shape(tools: readonly Tool[]) {
  return tools.map((tool) => ({
    name: tool.name,
    properties: Object.fromEntries(
      Object.entries(tool.input_schema.properties ?? {}).map(([key, value]) => [key, value.type]),
    ),
    required: tool.input_schema.required ?? [],
  }));
}

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

describe("lean tool definitions where the tools block would crowd out the window", () => {
  it("a 40-turn tool session finishes on a 16K server counting 4.1×, lean from the first overflow on", async () => {
    const steps: ScenarioStep[] = Array.from({ length: TURNS }, (_, turn) => ({
      content: [
        { type: "tool_use", name: "Bash", input: { command: `seq 1 ${100 + turn * 7}`, description: "count" } },
      ],
    }));
    steps.push("All done: 40 counts.");
    harness = await startHarness(
      { scenario: steps, contextWindow: WINDOW, mode: "compatible", tokenRatio: RATIO },
      { transcript: false },
    );
    const end = turnEnd(await collect(harness.engine.submitMessage("Count things, 40 times.")));
    expect(end.reason).toBe("completed");
    expect(harness.emulator.stats()).toMatchObject({ stepsRemaining: 0 });

    const main = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
    const blocks = [...new Set(main.map((record) => JSON.stringify(toolsOf(record))))];
    // Two blocks: the full one, then the lean one for every later request (never back).
    expect(blocks).toHaveLength(2);
    const [full, lean] = blocks.map((block) => JSON.parse(block) as Tool[]);
    const firstLean = main.findIndex((record) => JSON.stringify(toolsOf(record)) === blocks[1]);
    expect(main.slice(firstLean).every((record) => JSON.stringify(toolsOf(record)) === blocks[1])).toBe(true);
    // Same names, property names and types, required fields; under 40 % of the full block's characters.
    expect(shape(lean!)).toEqual(shape(full!));
    expect(blocks[1]!.length).toBeLessThan(blocks[0]!.length * 0.4);
    // Each lean description is the start of the full one.
    for (const [index, tool] of lean!.entries())
      expect(full![index]!.description.startsWith(tool.description.replace(/…$/, ""))).toBe(true);
    // At most the one rejection that named the window; every answered request within the window by the server's count.
    expect(main.filter((record) => record.status !== 200).length).toBeLessThanOrEqual(1);
    // Autocompact stays on. The lean prefix is more than 40 % of the threshold here, so a compaction is judged
    // against the bound above the prefix and what no compaction removes (the summary, the round in flight), not
    // 40 % of the threshold: before, the third compaction "failed" and autocompact was off for the session.
    // Mutation caught: `breaker-judges-plain-target`.
    const judged = harness.engine.timeline.entries.filter(
      (entry) => entry.type === "system" && /over its target|is off for this session/.test(String(entry.content)),
    );
    expect(judged.map((entry) => (entry.type === "system" ? entry.content : ""))).toEqual([]);

    // A resumed session sends the lean block from its first request (the record holds the switch).
    const saved = await saveSession("lean", harness.engine.timeline.entries);
    const emulator = await startEmulator({
      scenario: ["Resumed."],
      contextWindow: WINDOW,
      mode: "compatible",
      tokenRatio: RATIO,
    });
    try {
      const resumed = await resumeSavedEngine(saved, emulator);
      try {
        const again = turnEnd(await collect(resumed.submitMessage("And now?")));
        expect(again.reason).toBe("completed");
        const first = emulator.requests.find((record) => record.path === "/v1/messages");
        expect(JSON.stringify(toolsOf(first!))).toBe(blocks[1]);
      } finally {
        await resumed.close();
      }
    } finally {
      await emulator.close();
    }
  });

  it("a session whose tools block is a small share of the window keeps the full definitions", async () => {
    harness = await startHarness({ scenario: ["Hello.", "Again."], mode: "compatible", tokenRatio: RATIO }, {});
    await collect(harness.engine.submitMessage("Hi"));
    await collect(harness.engine.submitMessage("Hi again"));
    const main = harness.emulator.requests.filter((record) => record.path === "/v1/messages");
    expect(main).toHaveLength(2);
    expect(JSON.stringify(toolsOf(main[1]!))).toBe(JSON.stringify(toolsOf(main[0]!)));
    // The full block: Bash's description runs well past its first sentence.
    expect(toolsOf(main[0]!).find((tool) => tool.name === "Bash")!.description.length).toBeGreaterThan(300);
  });
});
