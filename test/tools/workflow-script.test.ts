/**
 * A Workflow script on its own (no engine): the meta line is a pure literal or the script is refused in one line,
 * the body sees only the host's names, and pipeline() moves each item through its stages independently.
 * Oracles: literal error lines, and the order of start/end events a fake host records.
 */
import { describe, expect, it } from "vitest";
import { parseWorkflowScript, runWorkflowScript } from "../../src/tools/agents/workflow-script.js";

const parse = (source: string) => parseWorkflowScript(source);

describe("parseWorkflowScript", () => {
  it("reads a pure meta literal and strips its export", () => {
    const parsed = parse(
      "export const meta = { name: 'r', description: 'd', phases: [{ title: 'A', detail: '{x}' }] } // c\nreturn meta.name\n",
    );
    expect(parsed).toEqual({
      meta: { name: "r", description: "d", phases: [{ title: "A", detail: "{x}" }] },
      body: "const meta = { name: 'r', description: 'd', phases: [{ title: 'A', detail: '{x}' }] } // c\nreturn meta.name\n",
    });
  });

  it("refuses a meta that is not a pure literal, or lacks its fields, in one line each", () => {
    expect(parse("const meta = { name: 'x', description: 'd' }")).toEqual({
      error: "a workflow script must begin with `export const meta = { name, description, phases }`",
    });
    expect(parse("export const meta = { name: NAME, description: 'd' }")).toEqual({
      error:
        "the workflow's meta must be a pure literal (no variables, calls or interpolation): ReferenceError: NAME is not defined",
    });
    const interpolated = "export const meta = { name: `n$" + "{1}`, description: 'd' }";
    expect(parse(interpolated)).toEqual({
      error:
        "the workflow's meta must be a pure literal (no variables, calls or interpolation): it interpolates a template string",
    });
    expect(parse("export const meta = { name: 'n', description: 'd'")).toEqual({
      error: "the workflow's meta literal is never closed",
    });
    expect(parse("export const meta = { description: 'd' }")).toEqual({
      error: "the workflow's meta needs a `name` (a non-empty string)",
    });
    expect(parse("export const meta = { name: 'n', description: 'd', phases: ['A'] }")).toEqual({
      error: "the workflow's meta `phases` must be a list of { title, detail? }",
    });
  });
});

describe("runWorkflowScript", () => {
  it("gives the body args, its host's functions and nothing of Node", async () => {
    const host = { agent: async (prompt: unknown) => `<${String(prompt)}>`, phase: () => {}, log: () => {} };
    const value = await runWorkflowScript(
      "const a = await agent(args.q)\nreturn [a, typeof require, typeof process, typeof fetch, JSON.stringify({ n: Math.max(1, 2) })]",
      { q: "hi" },
      host,
    );
    expect(value).toEqual(["<hi>", "undefined", "undefined", "undefined", '{"n":2}']);
  });

  // Mutation caught: workflow-pipeline-barrier (every item finishes a stage before any item starts the next).
  it("pipeline() runs each item through the stages on its own: item 1's second stage does not wait for item 2", async () => {
    const events: string[] = [];
    const delays: Record<string, number> = { "s1-1": 10, "s1-2": 300, "s2-1": 10, "s2-2": 10 };
    const host = {
      agent: async (prompt: unknown) => {
        const name = String(prompt);
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, delays[name]));
        events.push(`end ${name}`);
        return name;
      },
      phase: () => {},
      log: () => {},
    };
    const value = await runWorkflowScript(
      "return await pipeline([1, 2], n => agent('s1-' + n), (previous, index) => agent('s2-' + (index + 1)))",
      null,
      host,
    );
    expect(value).toEqual(["s2-1", "s2-2"]);
    expect(events).toEqual([
      "start s1-1",
      "start s1-2",
      "end s1-1",
      "start s2-1",
      "end s2-1",
      "end s1-2",
      "start s2-2",
      "end s2-2",
    ]);
  });
});
