/**
 * The session's effort through the built CLI against the emulator: `--effort <level>` (Claude Code's flag) and the
 * settings' `effortLevel` (Claude Code's key; the flag wins) are sent as `output_config.effort` where the server
 * declares the level for the model (GET /v1/models/{id}); a level it does not declare is dropped with one line on
 * stderr; a level that is not one is a usage error. Oracles: the emulator's request log, literal lines.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

/** The output_config of each Messages request the CLI sent. */
function outputConfigs(server: Emulator): unknown[] {
  return server.requests
    .filter((request) => request.method === "POST" && request.path.startsWith("/v1/messages"))
    .filter((request) => !request.path.includes("count_tokens"))
    .map((request) => (request.body as { output_config?: unknown }).output_config);
}

describe("--effort and effortLevel", () => {
  // Mutation caught: cli-effort-flag-dropped (the flag never reaches the session).
  it("--effort sends output_config.effort on a model that declares the level", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: ["Done."] }, "threadline-effort-");
    const result = await runCli(["-p", "--model", "claude-sonnet-4-6", "--effort", "high", "hello"], { cwd, env });
    expect(result.code).toBe(0);
    expect(outputConfigs(emulator)).toEqual([{ effort: "high" }]);
  });

  // Mutation caught: cli-effort-setting-ignored (the settings' effortLevel is not read).
  it("the settings' effortLevel applies; --effort wins over it", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: ["One.", "Two."] }, "threadline-effort-");
    await mkdir(join(cwd, ".claude"), { recursive: true });
    await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify({ effortLevel: "medium" }));
    expect((await runCli(["-p", "--model", "claude-sonnet-4-6", "hello"], { cwd, env })).code).toBe(0);
    const flagged = await runCli(["-p", "--model", "claude-sonnet-4-6", "--effort", "low", "hello"], { cwd, env });
    expect(flagged.code).toBe(0);
    expect(outputConfigs(emulator)).toEqual([{ effort: "medium" }, { effort: "low" }]);
  });

  it("a level the model does not declare is dropped with one line; a level that is not one is a usage error", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: ["Done."] }, "threadline-effort-");
    const dropped = await runCli(["-p", "--model", "claude-sonnet-4-5", "--effort", "max", "hello"], { cwd, env });
    expect(dropped.code).toBe(0);
    expect(outputConfigs(emulator)).toEqual([undefined]);
    expect(dropped.stderr).toBe(
      'threadline: effort "max" was not sent: claude-sonnet-4-5 runs at its usual effort (the server declares no effort levels for it).\n',
    );
    const bad = await runCli(["-p", "--effort", "extreme", "hello"], { cwd, env });
    expect(bad.code).toBe(2);
    expect(bad.stderr.split("\n")[0]).toBe(
      'threadline: --effort must be one of low, medium, high, xhigh, max; got "extreme" (run `threadline --help` for usage)',
    );
  });
});
