/**
 * `-p --output-format json|stream-json` in Claude Code's shapes (issue 56 item 3), and Claude Code invocations
 * from real scripts run unchanged (item 5): the built CLI against the emulator. The oracle for field names and
 * types is the fixture written from the Agent SDK's message types (fixtures/claude-code-json-output.ts); values
 * are literals (`end_turn`, `success`, the model's name as the modelUsage key).
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli, TEST_MODEL } from "./cli-process.js";
import {
  INIT_FIELDS,
  KNOWN_STREAM_TYPES,
  MODEL_USAGE_FIELDS,
  RESULT_FIELDS,
  shapeProblems,
  USAGE_FIELDS,
} from "./fixtures/claude-code-json-output.js";

const harness = useCliHarness();

describe("Claude Code's -p JSON output", () => {
  // Guards: every field of the SDK's result and init types is there with its type, and the values scripts test
  // read as Claude Code's. Mutation caught: `json-result-stop-reason-terminal` (stop_reason from threadline's reason).
  it("--output-format json: the SDK result's fields and types, stop_reason end_turn, modelUsage by model", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["All good."] }, "ccout-json");
    const run = await runCli(["-p", "say ok", "--output-format", "json"], { cwd, env });
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(shapeProblems(result, RESULT_FIELDS)).toEqual([]);
    expect(shapeProblems(result.usage as Record<string, unknown>, USAGE_FIELDS)).toEqual([]);
    expect(Object.keys(result.modelUsage as object)).toEqual([TEST_MODEL]);
    const modelUsage = (result.modelUsage as Record<string, Record<string, unknown>>)[TEST_MODEL] ?? {};
    expect(shapeProblems(modelUsage, MODEL_USAGE_FIELDS)).toEqual([]);
    expect(result).toMatchObject({
      type: "result",
      subtype: "success",
      is_error: false,
      result: "All good.",
      stop_reason: "end_turn",
      terminal_reason: "completed",
      permission_denials: [],
    });
    expect(modelUsage.outputTokens).toBe((result.usage as { output_tokens: number }).output_tokens);
  });

  it("--output-format stream-json: the SDK init fields first, only types Claude Code prints, a denied call listed", async () => {
    const { cwd, env } = await harness.setup(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Bash", input: { command: "rm -rf build" } }] },
          "Could not remove it.",
        ],
      },
      "ccout-stream",
    );
    const run = await runCli(
      ["-p", "clean up", "--output-format", "stream-json", "--verbose", "--disallowedTools", "Bash(rm:*)"],
      { cwd, env },
    );
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const init = lines[0] ?? {};
    expect(shapeProblems(init, INIT_FIELDS)).toEqual([]);
    expect(init).toMatchObject({ type: "system", subtype: "init", output_style: "default", permissionMode: "default" });
    for (const line of lines) {
      const kind = line.subtype !== undefined && line.type === "system" ? `system/${String(line.subtype)}` : line.type;
      if (kind === "system/notice" || kind === "system/entry" || kind === "system/tool_progress") continue;
      expect(KNOWN_STREAM_TYPES).toContain(kind);
    }
    expect(lines.some((line) => line.subtype === "request_start")).toBe(false);
    const result = lines.at(-1) ?? {};
    expect(shapeProblems(result, RESULT_FIELDS)).toEqual([]);
    expect(result.permission_denials).toEqual([
      { tool_name: "Bash", tool_use_id: expect.any(String), tool_input: { command: "rm -rf build" } },
    ]);
  });
});

describe("Claude Code invocations from real scripts", () => {
  // Each is a command line as published (CI jobs, the Agent SDK's examples, plugins' docs), run with the same
  // exit code as Claude Code and output that parses.
  it.each([
    { argv: ["-p", "Review the diff", "--output-format", "json", "--max-turns", "5"], json: true },
    { argv: ["-p", "Fix lint", "--permission-mode", "acceptEdits", "--allowedTools", "Edit,Read"], json: false },
    { argv: ["-p", "Summarize", "--output-format", "json", "--no-session-persistence"], json: true },
    {
      argv: ["-p", "Triage", "--append-system-prompt", "Be terse.", "--add-dir", "/tmp", "--tools", "Read,Grep"],
      json: false,
    },
    {
      argv: ["--print", "Label it", "--output-format", "stream-json", "--verbose", "--permission-mode", "dontAsk"],
      json: true,
    },
    {
      argv: ["-p", "Check", "--output-format", "json", "--max-budget-usd", "5", "--setting-sources", "project"],
      json: true,
    },
  ])("$argv.0 $argv.1 … runs, exit 0, parseable", async ({ argv, json }) => {
    const { cwd, env } = await harness.setup({ scenario: ["Done."] }, "ccscripts");
    const run = await runCli(argv, { cwd, env });
    expect(run.stderr).not.toContain("unknown option");
    expect(run.code).toBe(0);
    if (json) for (const line of run.stdout.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    else expect(run.stdout).toBe("Done.\n");
  });

  it("--input-format stream-json: user messages on stdin, replayed with --replay-user-messages", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["Read them."] }, "ccscripts-in");
    const message = { type: "user", message: { role: "user", content: [{ type: "text", text: "what is 2+2?" }] } };
    await writeFile(join(cwd, "in.jsonl"), `${JSON.stringify(message)}\n`);
    const { startCli } = await import("./cli-process.js");
    const run = startCli(
      ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose", "--replay-user-messages"],
      { cwd, env, input: `${JSON.stringify(message)}\n` },
    );
    const done = await run.done;
    expect(done.code).toBe(0);
    const lines = done.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[1]).toMatchObject({ ...message, isReplay: true });
    const sent = JSON.stringify(harness.emulator?.requests.at(-1)?.body);
    expect(sent).toContain("what is 2+2?");
    expect(lines.at(-1)).toMatchObject({ type: "result", result: "Read them." });
  });
});
