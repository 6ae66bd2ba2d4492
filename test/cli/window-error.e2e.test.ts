/**
 * Print mode when the server's window cannot hold the prompt (docs/CONTEXT-BUDGET.md "The task is never
 * dropped"): the run ends as an error — non-zero exit, `is_error`, one line naming the window — never with a
 * summary or a reply to a marker as its answer. The emulator counts ×10 and its window is 3,000 tokens.
 */
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

describe("threadline -p against a window that cannot hold the prompt", () => {
  it("exits non-zero with one line naming the window; the json result is an error", async () => {
    const { cwd, env } = await harness.setup({ contextWindow: 3_000, tokenRatio: 10, scenario: ["never"] }, "cli");
    const text = await runCli(["-p", "Summarise the project."], { cwd, env });
    expect(text.code).not.toBe(0);
    expect(text.stdout).toBe("");
    const lines = text.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("3,000");
    const json = await runCli(["-p", "Summarise the project.", "--output-format", "json"], { cwd, env });
    expect(json.code).not.toBe(0);
    const result = JSON.parse(json.stdout) as { is_error: boolean; subtype: string; result: string };
    expect(result.is_error).toBe(true);
    expect(result.subtype).not.toBe("success");
    expect(result.result).toContain("3,000");
  }, 60_000);
});
