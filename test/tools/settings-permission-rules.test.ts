/**
 * Permission rules as settings files write them (issue 30): deny beats every allow rule, mode and hook decision;
 * ask rules ask where the mode or an allow rule would let a call run; Read/Edit path patterns (gitignore-style,
 * `//abs`, `~/`, `/` from the settings file's project, `./` from the working directory); MCP server rules.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { editTool } from "../../src/tools/files/edit-tool.js";
import { globTool } from "../../src/tools/files/glob-tool.js";
import { grepTool } from "../../src/tools/files/grep-tool.js";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import {
  checkPermission,
  type PermissionMode,
  type PermissionPolicy,
  type PermissionRuleEntry,
} from "../../src/tools/permissions/permissions.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import type { AnyTool } from "../../src/tools/types.js";

const CWD = "/work/project";
const HOME = "/home/alice";

/** An MCP tool as the MCP loader names them: an ordinary tool called `mcp__<server>__<tool>`. */
const mcpTool: AnyTool = {
  name: "mcp__github__create_issue",
  description: "Create an issue.",
  inputSchema: z.object({ title: z.string() }),
  isReadOnly: () => false,
  call: async () => ({ content: "created" }),
} as unknown as AnyTool;

const policy = (overrides: Partial<PermissionPolicy> = {}): PermissionPolicy => ({
  mode: "default",
  allow: [],
  deny: [],
  home: HOME,
  ...overrides,
});

const yes = async () => true;

async function decide(tool: AnyTool, input: unknown, overrides: Partial<PermissionPolicy>): Promise<string> {
  return (await checkPermission(tool, input, policy(overrides), { cwd: CWD, additionalDirectories: [] })).behavior;
}

/** A call and a deny rule written (by hand, per tool) to cover it: the oracle is the rule text itself. */
const deniedCalls: Array<{ tool: AnyTool; input: unknown; deny: string }> = [
  { tool: bashTool, input: { command: "rm -rf build" }, deny: "Bash(rm:*)" },
  { tool: bashTool, input: { command: "npm test && rm -rf /" }, deny: "Bash(rm -rf:*)" },
  { tool: bashTool, input: { command: "git push origin main" }, deny: "Bash(git push *)" },
  { tool: readTool, input: { file_path: "secrets/deep/key.pem" }, deny: "Read(./secrets/**)" },
  { tool: grepTool, input: { pattern: "x", path: "secrets" }, deny: "Read(./secrets/**)" },
  { tool: grepTool, input: { pattern: "x" }, deny: "Read(./secrets/**)" },
  { tool: globTool, input: { pattern: "*.pem", path: "secrets/deep" }, deny: "Read(./secrets/**)" },
  { tool: writeTool, input: { file_path: "src/a.ts", content: "x" }, deny: "Edit(/src/**)" },
  { tool: editTool, input: { file_path: "/etc/hosts", old_string: "a", new_string: "b" }, deny: "Edit(//etc/**)" },
  { tool: readTool, input: { file_path: `${HOME}/.ssh/id_rsa` }, deny: "Read(~/.ssh/**)" },
  { tool: readTool, input: { file_path: "config/prod.env" }, deny: "Read(*.env)" },
  { tool: mcpTool, input: { title: "x" }, deny: "mcp__github" },
  { tool: mcpTool, input: { title: "x" }, deny: "mcp__github__create_issue" },
  { tool: globTool, input: { pattern: "**" }, deny: "Glob" },
];

const MODES: PermissionMode[] = ["default", "acceptEdits", "bypassPermissions"];
const ALLOW_POOL = [
  "Bash",
  "Read",
  "Edit",
  "Write",
  "Grep",
  "Glob",
  "mcp__github",
  "Bash(rm:*)",
  "Read(./**)",
  "Edit(/**)",
];

describe("deny rules from settings", () => {
  it("no allow rule, ask rule, mode or hook decision lets a denied call through (fast-check)", async () => {
    // Mutation caught: checking bypass mode or a hook's "allow" before deny rules lets these run.
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...deniedCalls),
        fc.subarray(ALLOW_POOL),
        fc.subarray(ALLOW_POOL),
        fc.constantFrom(...MODES),
        fc.constantFrom(undefined, "allow" as const, "ask" as const),
        fc.boolean(),
        async (call, allow, ask, mode, hookDecision, scoped) => {
          const deny: PermissionRuleEntry[] = [
            scoped ? { rule: call.deny, root: CWD, source: "settings.json" } : call.deny,
          ];
          const decision = await decide(call.tool, call.input, {
            mode,
            allow: [...allow, call.deny],
            deny,
            askRules: ask,
            ask: yes,
            ...(hookDecision !== undefined ? { hookDecision } : {}),
          });
          expect({ call: call.deny, decision }).toEqual({ call: call.deny, decision: "deny" });
        },
      ),
      { numRuns: 300 },
    );
  });

  it("path rules cover only what they name", async () => {
    const cases: Array<[AnyTool, unknown, string, string]> = [
      [readTool, { file_path: "secretsx/key" }, "Read(./secrets/**)", "allow"],
      [readTool, { file_path: "public/readme.md" }, "Read(./secrets/**)", "allow"],
      [writeTool, { file_path: "lib/a.ts", content: "x" }, "Edit(/src/**)", "allow"],
      [readTool, { file_path: "config/prod.env.example" }, "Read(*.env)", "allow"],
      [bashTool, { command: "rmx x" }, "Bash(rm x:*)", "allow"],
      [grepTool, { pattern: "x", path: "src" }, "Read(./secrets/**)", "allow"],
      [{ ...mcpTool, name: "mcp__githubx__list" } as AnyTool, { title: "x" }, "mcp__github", "allow"],
    ];
    for (const [tool, input, deny, expected] of cases)
      expect({ deny, input, decision: await decide(tool, input, { mode: "bypassPermissions", deny: [deny] }) }).toEqual(
        {
          deny,
          input,
          decision: expected,
        },
      );
  });

  it("`/path` patterns start at the settings file's project, not the working directory", async () => {
    const rule = { rule: "Edit(/generated/**)", root: "/work", source: "/work/.claude/settings.json" };
    expect(
      await decide(
        writeTool,
        { file_path: "/work/generated/x.ts", content: "" },
        { mode: "bypassPermissions", deny: [rule] },
      ),
    ).toBe("deny");
    expect(
      await decide(
        writeTool,
        { file_path: "generated/x.ts", content: "" },
        { mode: "bypassPermissions", deny: [rule] },
      ),
    ).toBe("allow");
  });
});

describe("ask rules", () => {
  it("ask even in bypass mode and where an allow rule matches, and deny when nobody can answer", async () => {
    const asked: string[] = [];
    const answer = async (request: { summary: string }) => {
      asked.push(request.summary);
      return false;
    };
    const input = { command: "git push origin main" };
    // Mutation caught: checking allow rules or bypass before ask rules runs the push without asking.
    expect(
      await decide(bashTool, input, {
        mode: "bypassPermissions",
        allow: ["Bash"],
        askRules: ["Bash(git push:*)"],
        ask: answer,
      }),
    ).toBe("deny");
    expect(asked).toEqual(["Bash(git push origin main)"]);
    expect(await decide(bashTool, input, { mode: "bypassPermissions", askRules: ["Bash(git push:*)"] })).toBe("deny");
    expect(
      await decide(bashTool, { command: "git status" }, { mode: "bypassPermissions", askRules: ["Bash(git push:*)"] }),
    ).toBe("allow");
  });

  it("a PreToolUse hook's allow skips the question, and its ask asks even for a read-only call", async () => {
    expect(await decide(writeTool, { file_path: "a.txt", content: "" }, { hookDecision: "allow" })).toBe("allow");
    expect(await decide(readTool, { file_path: "a.txt" }, { hookDecision: "ask" })).toBe("deny");
    expect(await decide(readTool, { file_path: "a.txt" }, { hookDecision: "ask", ask: yes })).toBe("allow");
  });
});
