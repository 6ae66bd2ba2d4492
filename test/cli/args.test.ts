import { describe, expect, it } from "vitest";
import { CONTEXT_WINDOW_ENV, parseCliArgs, SANDBOX_ENV, splitToolLists, UsageError } from "../../src/cli/args.js";

describe("parseCliArgs", () => {
  it("has Claude Code's defaults", () => {
    const options = parseCliArgs([]);
    expect(options).toMatchObject({
      print: false,
      prompt: "",
      continue: false,
      outputFormat: "text",
      permissionMode: "default",
    });
    expect(options.allowedTools).toEqual([]);
  });

  it("reads print mode, prompt and every valued flag", () => {
    const options = parseCliArgs([
      "-p",
      "fix",
      "the bug",
      "--model",
      "claude-opus-4-1",
      "--fallback-model",
      "claude-sonnet-4",
      "--max-turns",
      "7",
      "--output-format",
      "stream-json",
      "--permission-mode",
      "acceptEdits",
      "--system-prompt",
      "be terse",
      "--append-system-prompt",
      "and kind",
      "--context-window",
      "50000",
      "--verbose",
    ]);
    expect(options).toMatchObject({
      print: true,
      prompt: "fix the bug",
      model: "claude-opus-4-1",
      fallbackModel: "claude-sonnet-4",
      maxTurns: 7,
      outputFormat: "stream-json",
      permissionMode: "acceptEdits",
      systemPrompt: "be terse",
      appendSystemPrompt: "and kind",
      contextWindow: 50_000,
      verbose: true,
    });
  });

  it("reads --sandbox, --no-sandbox, --sandbox-network and THREADLINE_SANDBOX (flags win)", () => {
    expect(parseCliArgs([]).sandbox).toBeUndefined();
    expect(parseCliArgs([]).sandboxNetwork).toBe(false);
    expect(parseCliArgs(["--sandbox", "--sandbox-network"])).toMatchObject({ sandbox: true, sandboxNetwork: true });
    expect(parseCliArgs(["--no-sandbox"]).sandbox).toBe(false);
    expect(parseCliArgs([], { [SANDBOX_ENV]: "0" }).sandbox).toBe(false);
    expect(parseCliArgs([], { [SANDBOX_ENV]: "1" }).sandbox).toBe(true);
    expect(parseCliArgs(["--sandbox"], { [SANDBOX_ENV]: "0" }).sandbox).toBe(true);
    expect(() => parseCliArgs(["--sandbox", "--no-sandbox"])).toThrow(/cannot be combined/);
    expect(() => parseCliArgs([], { [SANDBOX_ENV]: "maybe" })).toThrow(UsageError);
  });

  it("--dangerously-skip-permissions means bypassPermissions", () => {
    expect(parseCliArgs(["--dangerously-skip-permissions"]).permissionMode).toBe("bypassPermissions");
  });

  it("takes the context window from the environment unless the flag is given", () => {
    expect(parseCliArgs([], { [CONTEXT_WINDOW_ENV]: "64000" }).contextWindow).toBe(64_000);
    expect(parseCliArgs(["--context-window", "32000"], { [CONTEXT_WINDOW_ENV]: "64000" }).contextWindow).toBe(32_000);
    expect(() => parseCliArgs([], { [CONTEXT_WINDOW_ENV]: "lots" })).toThrow(
      /THREADLINE_CONTEXT_WINDOW must be a positive integer/,
    );
  });

  it("accepts --resume, --continue and --session-id (lower-cased)", () => {
    expect(parseCliArgs(["--resume", "abc"]).resume).toBe("abc");
    expect(parseCliArgs(["-c"]).continue).toBe(true);
    const id = "0F8FAD5B-D9CB-469F-A165-70867728950E";
    expect(parseCliArgs(["--session-id", id]).sessionId).toBe(id.toLowerCase());
  });

  it.each([
    [["--bogus"], /^unknown option --bogus$/],
    [["--modle", "x"], /^unknown option --modle; did you mean --model\?$/],
    [["--alowedTools", "Read"], /did you mean --allowedTools\?/],
    [["-x"], /^unknown option -x$/],
    [["--verbose=1"], /^--verbose takes no value$/],
    [["--output-format", "xml", "-p"], /--output-format must be one of text, json, stream-json; got "xml"/],
    [["--permission-mode", "yolo"], /--permission-mode must be one of default, acceptEdits, bypassPermissions, plan/],
    [["--max-turns", "0"], /--max-turns must be a positive integer/],
    [["--max-turns", "2.5"], /--max-turns must be a positive integer/],
    [["--session-id", "not-a-uuid"], /--session-id must be a UUID/],
    [["--resume", "a", "--continue"], /cannot be combined/],
    [["--session-id", "0f8fad5b-d9cb-469f-a165-70867728950e", "-c"], /cannot be combined/],
    [["--fork-session"], /--fork-session branches a saved session: use it with --resume or --continue/],
    [["--output-format", "json"], /only works with --print/],
    [["--model"], /^--model needs a value$/],
  ])("rejects %j with a one-line UsageError", (argv, message) => {
    let caught: unknown;
    try {
      parseCliArgs(argv);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as Error).message).toMatch(message);
    expect((caught as Error).message).not.toContain("\n");
  });
});

describe("splitToolLists", () => {
  it("splits on commas and spaces but not inside parentheses", () => {
    expect(splitToolLists(["Read,Grep", "Bash(git log:*) Edit", " Write "])).toEqual([
      "Read",
      "Grep",
      "Bash(git log:*)",
      "Edit",
      "Write",
    ]);
  });

  it("merges --allowedTools and --allowed-tools", () => {
    expect(parseCliArgs(["--allowedTools", "Read", "--allowed-tools", "Bash(npm test:*)"]).allowedTools).toEqual([
      "Read",
      "Bash(npm test:*)",
    ]);
    expect(parseCliArgs(["--disallowedTools", "Bash,Write"]).disallowedTools).toEqual(["Bash", "Write"]);
  });
});
