/**
 * Scheduled prompts through the built CLI against the emulator: in print mode CronCreate tells the model the job
 * will not fire (nothing fires there); in the interactive loop (stdin a pipe: the line reader) it does not, since
 * that loop fires due jobs while it waits for input (test/tools/scheduled-prompts.test.ts moves the clock for the
 * firing itself).
 */
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

const SCENARIO = [
  { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:CronCreate" } }] },
  { content: [{ type: "tool_use" as const, name: "CronCreate", input: { cron: "7 * * * *", prompt: "check" } }] },
  "Scheduled.",
];

/** The last tool result the model saw, as JSON text. */
function lastRequest(server: Emulator): string {
  const bodies = server.requests.filter((request) => request.path === "/v1/messages").map((r) => r.body);
  return JSON.stringify((bodies.at(-1) as { messages: unknown[] }).messages.at(-1));
}

const NOT_FIRING = "This session is not interactive (print mode), so scheduled prompts will not fire in it";

describe("scheduled prompts in the CLI", () => {
  // Mutation caught (print-mode-silent): print mode's CronCreate result no longer says so.
  it("print mode: CronCreate says the job will not fire", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: SCENARIO }, "cron-print");
    const result = await runCli(["-p", "schedule a check"], { cwd, env });
    expect(result.code).toBe(0);
    const last = lastRequest(emulator);
    expect(last).toMatch(/Scheduled recurring job [0-9a-f]{8} \(7 \* \* \* \*\)/);
    expect(last).toContain(NOT_FIRING);
  });

  // Mutation caught (repl-not-firing): the interactive loop never marks its session's schedule as firing.
  it("interactive loop: CronCreate's job will fire while idle, so no such words", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: SCENARIO }, "cron-repl");
    const result = await runCli([], { cwd, env, input: "schedule a check\n" });
    expect(result.code).toBe(0);
    const last = lastRequest(emulator);
    expect(last).toMatch(/Scheduled recurring job [0-9a-f]{8} \(7 \* \* \* \*\)/);
    expect(last).not.toContain(NOT_FIRING);
  });
});
