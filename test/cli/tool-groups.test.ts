import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { TurnRenderer } from "../../src/cli/modes/render/render.js";
import { expandGroup, type GroupedCall, groupSummary } from "../../src/cli/modes/render/tool-groups.js";
import { createStyle } from "../../src/cli/terminal/style.js";
import type { EngineEvent } from "../../src/loop/events.js";

function call(tool: string, line: string, outcome = "3 lines"): GroupedCall {
  return { tool, line, outcome };
}

describe("groupSummary", () => {
  // Mutation caught: counting calls instead of per tool ("Read 3 files" for two reads and a grep), or dropping
  // the plural, reads wrong.
  it("counts each tool in the order it first appears", () => {
    const calls = [call("Read", "Read(a)"), call("Grep", "Grep(x)"), call("Read", "Read(b)"), call("Glob", "Glob(*)")];
    expect(groupSummary(calls)).toBe("Read 2 files, searched 1 pattern, listed 1 pattern");
    expect(groupSummary([call("Read", "Read(a)")])).toBe("Read 1 file");
  });

  it("the counts in the summary add up to the calls, and expanding lists every call once", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("Read", "Glob", "Grep"), { minLength: 1, maxLength: 20 }), (tools) => {
        const calls = tools.map((tool, index) => call(tool, `${tool}(${index})`));
        const counted = [...groupSummary(calls).matchAll(/(\d+) /g)].reduce((sum, match) => sum + Number(match[1]), 0);
        expect(counted).toBe(tools.length);
        expect(expandGroup(calls)).toEqual(calls.map((c) => `${c.line} · 3 lines`));
      }),
    );
  });
});

/** Events of one finished tool call, as the loop emits them (only the fields the renderer reads). */
function toolCall(id: string, name: string, input: Record<string, unknown>, result: string, isError = false) {
  const block = { type: "tool_use", id, name, input } as const;
  const entry = {
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: result, is_error: isError }] },
  };
  return [
    { type: "tool_start", block },
    { type: "tool_end", block, entry, isError },
  ] as unknown as EngineEvent[];
}

function render(events: EngineEvent[]): { out: string; renderer: TurnRenderer } {
  let out = "";
  const renderer = new TurnRenderer(
    { write: (text: string) => (out += text), isTTY: false },
    {
      groupReads: true,
      style: createStyle(false),
    },
  );
  for (const event of events) renderer.handle(event);
  renderer.finish();
  return { out, renderer };
}

describe("TurnRenderer groupReads", () => {
  // Mutations caught: printing each grouped call's start line (no grouping); a failed read joining the group
  // (its error hidden behind a count); a lone read shown as "Read 1 file".
  it("shows consecutive reads as one line, a failure as one terse line, a lone read as usual", () => {
    const { out, renderer } = render([
      ...toolCall("1", "Read", { file_path: "/w/a.ts" }, "one\ntwo"),
      ...toolCall("2", "Read", { file_path: "/w/b.ts" }, "one"),
      ...toolCall("3", "Grep", { pattern: "needle" }, "a.ts"),
      ...toolCall("4", "Read", { file_path: "/w/missing.ts" }, "File does not exist.", true),
      ...toolCall("5", "Read", { file_path: "/w/c.ts" }, "x"),
    ]);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe("⏺ Read 2 files, searched 1 pattern (ctrl+o to expand)");
    expect(lines[1]).toMatch(/^✗ Read\(.*missing\.ts\) · File does not exist\.$/);
    expect(lines[2]).toMatch(/^⏺ Read\(.*c\.ts\)$/);
    expect(lines[3]).toMatch(/^ {2}⎿ ✓ /);
    expect(lines).toHaveLength(4);
    // Mutation caught: expanding the last call only, or the lone read replacing the last group.
    let expanded = "";
    const sink = { write: (text: string) => (expanded += text), isTTY: false };
    const again = new TurnRenderer(sink, { groupReads: true, style: createStyle(false) });
    for (const event of [
      ...toolCall("1", "Read", { file_path: "/w/a.ts" }, "one\ntwo"),
      ...toolCall("2", "Read", { file_path: "/w/b.ts" }, "one"),
      ...toolCall("5", "Read", { file_path: "/w/c.ts" }, "x", true),
    ])
      again.handle(event);
    expanded = "";
    expect(again.expandLastGroup()).toBe(true);
    expect(expanded.trimEnd().split("\n")).toHaveLength(2);
    expect(expanded).toMatch(/a\.ts\) · 2 lines/);
    expect(expanded).toMatch(/b\.ts\) · one$/m);
    expect(renderer.expandLastGroup()).toBe(true);
  });
});
