/**
 * Resuming through the built CLI: the recap, the carried cost, short ids, a Claude Code transcript's
 * problems in one line, and /compact on an empty session.
 */
import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "./build-once.js";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

async function setup(turns: string[]) {
  const { cwd, env } = await harness.setup({ scenario: turns }, "resume");
  return { cwd, env };
}

describe("resuming a session", () => {
  it("shows a recap, carries the cost into /cost, and accepts a short id", async () => {
    const { cwd, env } = await setup(["The capital is Paris.", "unused"]);
    const first = await runCli(["-p", "what is the capital of France?", "--output-format", "json"], { cwd, env });
    const result = JSON.parse(first.stdout) as { session_id: string; total_cost_usd: number };
    expect(result.total_cost_usd).toBeGreaterThan(0);
    const shortId = result.session_id.slice(0, 8);
    const resumed = await runCli(["--resume", shortId], { cwd, env, input: "/cost\n/compact\n" });
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain("› what is the capital of France?\n  The capital is Paris.\n");
    const cost = /Total cost: +\$(\d+\.\d+)/.exec(resumed.stdout);
    expect(Number(cost?.[1])).toBeCloseTo(result.total_cost_usd, 4);
    expect(resumed.stdout).toMatch(/Model requests: +1 /);
  });

  it("a Claude Code transcript resumes with one line about what was skipped", async () => {
    const { cwd, env } = await setup(["unused"]);
    const path = join(cwd, "claude-code.jsonl");
    await copyFile(join(ROOT, "test", "fixtures", "claude-code", "session-basic.jsonl"), path);
    const resumed = await runCli(["--resume", path], { cwd, env, input: "/exit\n" });
    expect(resumed.code).toBe(0);
    const warnings = resumed.stdout.split("\n").filter((line) => line.startsWith("! transcript:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/\d+ lines were skipped or converted/);
    expect(resumed.stdout).toContain("Where this session left off:");
  });

  it("/compact on an empty session says there is nothing to compact", async () => {
    const { cwd, env } = await setup(["unused"]);
    const result = await runCli([], { cwd, env, input: "/compact\n" });
    expect(result.stdout).toContain("Nothing to compact yet");
    expect(result.stdout).not.toContain("Compacted");
    expect(harness.emulator?.requests ?? []).toHaveLength(0);
  });
});
