/**
 * Claude Code's options (issue 56, cli/claude-code-flags.ts): every one a script uses means what it means in
 * Claude Code 2.1.337 or is refused in one line naming it and why — never "unknown option". The list of names is
 * Claude Code's CLI reference (code.claude.com/docs/en/cli-reference), written here as literals.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";

function parse(argv: string[], cwd = "/work/repo") {
  return parseCliArgs(argv, {}, cwd);
}

function refusal(argv: string[]): string {
  try {
    parse(argv);
  } catch (error) {
    if (error instanceof UsageError) return error.message;
    throw error;
  }
  throw new Error(`accepted: ${argv.join(" ")}`);
}

/** Every option of Claude Code's `--help` a script may pass (with a value where it takes one). */
const CLAUDE_CODE_FLAGS: string[][] = [
  ["--add-dir", "../lib"],
  ["--agents", '{"reviewer":{"description":"Reviews code","prompt":"You review code."}}'],
  ["--allowedTools", "Read"],
  ["--allow-dangerously-skip-permissions"],
  ["--append-system-prompt", "x"],
  ["--betas", "interleaved-thinking"],
  ["--continue"],
  ["--dangerously-skip-permissions"],
  ["--debug"],
  ["-d", "api,hooks"],
  ["--disallowedTools", "Bash"],
  ["--disable-slash-commands"],
  ["--effort", "high"],
  ["--exclude-dynamic-system-prompt-sections"],
  ["--fallback-model", "claude-haiku-4-5"],
  ["--fork-session", "--continue"],
  ["--autocompact"],
  ["--include-partial-messages"],
  ["--input-format", "text"],
  ["--max-budget-usd", "0.5"],
  ["--max-turns", "3"],
  ["--mcp-config", "{}"],
  ["--model", "sonnet"],
  ["--name", "auth-refactor"],
  ["--no-session-persistence"],
  ["--output-format", "json"],
  ["--permission-mode", "dontAsk"],
  ["--permission-mode", "manual"],
  ["--plugin-dir", "x"],
  ["--resume", "abc"],
  ["--session-id", "0b9d1c8e-0000-4000-8000-000000000001"],
  ["--setting-sources", "user,project"],
  ["--settings", "{}"],
  ["--strict-mcp-config"],
  ["--system-prompt", "x"],
  ["--tools", "Bash,Read"],
  ["--verbose"],
];

describe("Claude Code's options", () => {
  it.each(CLAUDE_CODE_FLAGS)("accepts %s as Claude Code does", (...argv) => {
    expect(() => parse(["-p", "hi", ...argv])).not.toThrow();
  });

  // Guards: a real Claude Code option threadline does not do is refused by name with its reason, never as unknown.
  it.each([
    [["--json-schema", "{}"], /^--json-schema is not supported: structured output/],
    [["-w"], /^--worktree is not supported: threadline does not create a git worktree/],
    [["--worktree"], /^--worktree is not supported/],
    [["--include-hook-events"], /^--include-hook-events is not supported/],
    [["--permission-mode", "auto"], /^--permission-mode auto is not supported: threadline has no classifier/],
    [["--agent", "reviewer"], /^--agent is not supported/],
  ])("refuses %s in one line naming it", (argv, pattern) => {
    const message = refusal(["-p", "hi", ...argv]);
    expect(message).toMatch(pattern);
    expect(message).not.toContain("unknown option");
    expect(message).not.toContain("\n");
  });

  it("maps each to the option threadline runs with", () => {
    const directory = mkdtempSync(join(tmpdir(), "threadline-flags-"));
    writeFileSync(join(directory, "system.md"), "You are terse.\n");
    const cli = parse(
      [
        "-p",
        "hi",
        "--add-dir",
        "../lib",
        "/abs",
        "--tools",
        "Bash,Read",
        "--system-prompt-file",
        "system.md",
        "--setting-sources",
        "user,local",
        "--max-budget-usd",
        "0.25",
        "--no-session-persistence",
        "--permission-mode",
        "dontAsk",
        "-d",
        "api,hooks",
        "--agents",
        '{"reviewer":{"description":"Reviews code","prompt":"You review.","tools":["Read"],"model":"haiku"}}',
      ],
      directory,
    );
    expect(cli.prompt).toBe("hi"); // the debug filter is not part of the prompt
    expect(cli.addDirs).toEqual([join(directory, "..", "lib"), "/abs"]);
    expect(cli.tools).toEqual(["Bash", "Read"]);
    expect(cli.systemPrompt).toBe("You are terse.\n");
    expect(cli.settingSources).toEqual(["user", "local"]);
    expect(cli.maxBudgetUsd).toBe(0.25);
    expect(cli.noSessionPersistence).toBe(true);
    expect(cli.permissionMode).toBe("default");
    expect(cli.dontAsk).toBe(true);
    expect(cli.verbose).toBe(true);
    expect(cli.agents).toEqual([
      { name: "reviewer", description: "Reviews code", prompt: "You review.", tools: ["Read"], model: "haiku" },
    ]);
    expect(parse(["-p", "hi", "--tools", ""]).tools).toEqual([]);
    expect(parse(["-p", "hi", "--tools", "default"]).tools).toBeUndefined();
  });

  it("says what is wrong with a value, and the combinations Claude Code refuses", () => {
    expect(refusal(["-p", "x", "--max-budget-usd", "lots"])).toBe(
      '--max-budget-usd must be a positive number of dollars, got "lots"',
    );
    expect(refusal(["-p", "x", "--setting-sources", "user,team"])).toContain('got "team"');
    expect(refusal(["-p", "x", "--agents", '{"a":{"prompt":"p"}}'])).toBe(
      '--agents: agent "a" needs a "description" and a "prompt" (strings)',
    );
    expect(refusal(["-p", "--input-format", "stream-json"])).toContain("needs --output-format stream-json");
    expect(refusal(["-p", "x", "--output-format", "stream-json", "--replay-user-messages"])).toContain(
      "needs --input-format stream-json",
    );
    expect(refusal(["--no-session-persistence"])).toBe("--no-session-persistence only works with --print");
    expect(refusal(["-p", "x", "--system-prompt-file", "/no/such/file"])).toBe(
      "--system-prompt-file /no/such/file: cannot be read (ENOENT)",
    );
  });
});
