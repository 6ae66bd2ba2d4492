import { describe, expect, it } from "vitest";
import { z } from "zod";
import { grepTool } from "../../src/tools/files/grep-tool.js";
import { readTool } from "../../src/tools/files/read-tool.js";
import { writeTool } from "../../src/tools/files/write-tool.js";
import { INTERRUPTED_MESSAGE, runTool } from "../../src/tools/run-tool.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import type { Tool } from "../../src/tools/types.js";
import { BYPASS, makeContext } from "./tool-test-context.js";

const context = makeContext("/nonexistent-workspace");

function fakeTool(call: Tool<{ value: string }>["call"]): Tool<{ value: string }> {
  return {
    name: "Fake",
    description: "test tool",
    inputSchema: z.strictObject({ value: z.string() }),
    isReadOnly: () => true,
    compactable: false,
    call,
  };
}

describe("runTool input validation", () => {
  it("names a wrongly typed field in words the model can act on", async () => {
    expect(await runTool(readTool, { file_path: 42 }, context, BYPASS)).toEqual({
      content:
        "InputValidationError: file_path: expected string, received number. Fix the Read input and call it again.",
      isError: true,
    });
  });

  it("reports missing fields, unexpected fields, bad enums and bad numbers together", async () => {
    const missing = await runTool(writeTool, { file_path: "a" }, context, BYPASS);
    expect(missing.content).toBe(
      "InputValidationError: content: required field is missing (expected string). Fix the Write input and call it again.",
    );
    const extra = await runTool(readTool, { file_path: "a", path: "b" }, context, BYPASS);
    expect(extra.content).toBe(
      'InputValidationError: (input): unexpected field "path" (accepted fields: file_path, offset, limit, pages). Fix the Read input and call it again.',
    );
    const several = await runTool(grepTool, { pattern: "x", output_mode: "lines", head_limit: -2 }, context, BYPASS);
    expect(several.content).toContain(
      'output_mode: Invalid option: expected one of "content"|"files_with_matches"|"count"',
    );
    expect(several.content).toContain("head_limit: Too small: expected number to be >0");
    const notObject = await runTool(bashTool, "ls", context, BYPASS);
    expect(notObject.content).toContain("(input): expected object, received string");
  });
});

describe("runTool execution", () => {
  it("turns a thrown error into an is_error result", async () => {
    const output = await runTool(
      fakeTool(async () => {
        throw new TypeError("boom");
      }),
      { value: "x" },
      context,
      BYPASS,
    );
    expect(output).toEqual({ content: "TypeError: boom", isError: true });
  });

  it("reduces an error result with blocks to non-empty text", async () => {
    const blocks = await runTool(
      fakeTool(async () => ({ content: [{ type: "text", text: "bad thing" }], isError: true })),
      { value: "x" },
      context,
      BYPASS,
    );
    expect(blocks).toEqual({ content: "bad thing", isError: true });
    const empty = await runTool(
      fakeTool(async () => ({ content: "", isError: true })),
      { value: "x" },
      context,
      BYPASS,
    );
    expect(empty).toEqual({ content: "The tool failed without a message.", isError: true });
  });

  it("returns the permission denial as the result without calling the tool", async () => {
    let called = false;
    const tool = fakeTool(async () => {
      called = true;
      return { content: "ran" };
    });
    const output = await runTool(tool, { value: "x" }, context, {
      mode: "bypassPermissions",
      allow: [],
      deny: ["Fake"],
    });
    expect(output.isError).toBe(true);
    expect(output.content).toContain('blocked by the deny rule "Fake"');
    expect(called).toBe(false);
  });

  it("returns an interrupted result when already aborted, or aborted while a tool ignores its signal", async () => {
    const aborted = new AbortController();
    aborted.abort();
    const never = fakeTool(() => new Promise(() => {}));
    expect(await runTool(never, { value: "x" }, makeContext("/x", { signal: aborted.signal }), BYPASS)).toEqual({
      content: INTERRUPTED_MESSAGE,
      isError: true,
    });
    const later = new AbortController();
    const pending = runTool(never, { value: "x" }, makeContext("/x", { signal: later.signal }), BYPASS);
    later.abort();
    expect(await pending).toEqual({ content: INTERRUPTED_MESSAGE, isError: true });
  });

  it("returns an interrupted result when aborted while waiting for permission", async () => {
    const controller = new AbortController();
    const pending = runTool(
      writeTool,
      { file_path: "a", content: "b" },
      makeContext("/x", { signal: controller.signal }),
      { mode: "default", allow: [], deny: [], ask: () => new Promise(() => {}) },
    );
    controller.abort();
    expect(await pending).toEqual({ content: INTERRUPTED_MESSAGE, isError: true });
  });
});
