/**
 * A hook's decision as threadline reads it (src/hooks/hook-output.ts, hook-condition.ts, docs/HOOKS.md), unit by
 * unit, as Stryker mutates them (docs/MUTATION-TESTING.md). Oracles of their own: the JSON a hook prints and the
 * fields Claude Code's protocol gives them, written here as literals; tool calls and rules as literal paths.
 */
import { describe, expect, it } from "vitest";
import { hookConditionMatches } from "../../src/hooks/hook-condition.js";
import { parseHookJson } from "../../src/hooks/hook-output.js";

/** The problem line for a bad field, with zod's message in the middle left open. */
function badField(where: string): RegExp {
  return new RegExp(`^its JSON output has a bad "${where.replaceAll(".", "\\.")}" \\(.+\\); ignored$`);
}

describe("a hook's JSON output", () => {
  it("plain text, and text that only starts with a brace, are not JSON output", () => {
    expect(parseHookJson("all good\n")).toEqual({});
    expect(parseHookJson("{not json at all")).toEqual({});
    expect(parseHookJson("")).toEqual({});
    expect(parseHookJson('["continue", false]')).toEqual({});
  });

  it("every field of the protocol is read, with blank lines around it and unknown keys kept", () => {
    const printed = {
      continue: false,
      stopReason: "stop here",
      suppressOutput: true,
      systemMessage: "note",
      decision: "block",
      reason: "not allowed",
      extra: 1,
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "guarded",
        updatedInput: { command: "ls" },
        additionalContext: "context",
        decision: { behavior: "allow", message: "ok", more: true },
        other: "kept",
      },
    };
    expect(parseHookJson(`\n  ${JSON.stringify(printed)}\n\n`)).toEqual({ output: printed });
  });

  it("each decision word the protocol has is accepted", () => {
    for (const decision of ["block", "approve"])
      expect(parseHookJson(JSON.stringify({ decision })).output?.decision).toBe(decision);
    for (const permissionDecision of ["allow", "deny", "ask"])
      expect(
        parseHookJson(JSON.stringify({ hookSpecificOutput: { permissionDecision } })).output?.hookSpecificOutput
          ?.permissionDecision,
      ).toBe(permissionDecision);
    for (const behavior of ["allow", "deny"])
      expect(
        parseHookJson(JSON.stringify({ hookSpecificOutput: { decision: { behavior } } })).output?.hookSpecificOutput
          ?.decision?.behavior,
      ).toBe(behavior);
  });

  it("a field of the wrong type or an unknown decision word is one problem line naming the field, and nothing is used", () => {
    const cases: Array<[unknown, string]> = [
      [{ continue: "no" }, "continue"],
      [{ stopReason: 1 }, "stopReason"],
      [{ suppressOutput: "yes" }, "suppressOutput"],
      [{ systemMessage: 2 }, "systemMessage"],
      [{ decision: "allow" }, "decision"],
      [{ reason: false }, "reason"],
      [{ hookSpecificOutput: "deny" }, "hookSpecificOutput"],
      [{ hookSpecificOutput: { hookEventName: 3 } }, "hookSpecificOutput.hookEventName"],
      [{ hookSpecificOutput: { permissionDecision: "maybe" } }, "hookSpecificOutput.permissionDecision"],
      [{ hookSpecificOutput: { permissionDecisionReason: 4 } }, "hookSpecificOutput.permissionDecisionReason"],
      [{ hookSpecificOutput: { updatedInput: "ls" } }, "hookSpecificOutput.updatedInput"],
      [{ hookSpecificOutput: { additionalContext: 5 } }, "hookSpecificOutput.additionalContext"],
      [{ hookSpecificOutput: { decision: { behavior: "ask" } } }, "hookSpecificOutput.decision.behavior"],
      [{ hookSpecificOutput: { decision: { behavior: "deny", message: 6 } } }, "hookSpecificOutput.decision.message"],
      [{ hookSpecificOutput: { decision: "allow" } }, "hookSpecificOutput.decision"],
    ];
    // zod's own words for the first one, so the line carries the reason and not a stand-in.
    expect(parseHookJson('{"continue":"no"}').problem).toBe(
      'its JSON output has a bad "continue" (Invalid input: expected boolean, received string); ignored',
    );
    for (const [printed, where] of cases) {
      const result = parseHookJson(JSON.stringify(printed));
      expect(result.output, where).toBeUndefined();
      expect(result.problem, where).toMatch(badField(where));
    }
  });
});

describe("a hook's `if` condition", () => {
  const scope = { cwd: "/p/work", home: "/h" };

  it("a Bash rule matches any part of a chained command, and not a command it does not name", () => {
    const rule = "Bash(git push:*)";
    expect(
      hookConditionMatches(rule, { tool_name: "Bash", tool_input: { command: "ls && git push origin" } }, scope),
    ).toBe(true);
    expect(hookConditionMatches(rule, { tool_name: "Bash", tool_input: { command: "git status" } }, scope)).toBe(false);
    expect(hookConditionMatches(rule, { tool_name: "Read", tool_input: { file_path: "git push" } }, scope)).toBe(false);
  });

  it("path rules are placed from the working directory (`/path` too) and the home folder", () => {
    const write = (file_path: string) => ({ tool_name: "Write", tool_input: { file_path } });
    expect(hookConditionMatches("Edit(./src/**)", write("src/a.ts"), scope)).toBe(true);
    expect(hookConditionMatches("Edit(./src/**)", write("lib/a.ts"), scope)).toBe(false);
    expect(hookConditionMatches("Edit(/src/**)", write("/p/work/src/a.ts"), scope)).toBe(true);
    expect(hookConditionMatches("Edit(/src/**)", write("/h/src/a.ts"), scope)).toBe(false);
    expect(
      hookConditionMatches("Read(~/.ssh/**)", { tool_name: "Read", tool_input: { file_path: "/h/.ssh/id" } }, scope),
    ).toBe(true);
  });

  it("a call without a tool name, or a condition that is not a rule, runs nothing", () => {
    expect(hookConditionMatches("Bash", { tool_name: 5, tool_input: { command: "ls" } }, scope)).toBe(false);
    expect(hookConditionMatches("Bash", { tool_input: { command: "ls" } }, scope)).toBe(false);
    expect(hookConditionMatches("Bash(", { tool_name: "Bash", tool_input: { command: "ls" } }, scope)).toBe(false);
    expect(hookConditionMatches("Bash", { tool_name: "Bash", tool_input: { command: "ls" } }, scope)).toBe(true);
  });
});
