/**
 * Withheld hooks fail closed (issue 56, item 4): a project whose PreToolUse hook blocks `rm -rf`, cloned fresh
 * (untrusted), run in print mode with --dangerously-skip-permissions. Without a flag saying how, the run stops
 * before the first request with one line naming the hook and both flags; with --without-project-code it goes on,
 * and the call the withheld hook would have checked is refused, not run; with --trust-folder the hook itself runs
 * and blocks. Oracle: the `build/` folder still on disk, the emulator's logged requests and tool results.
 * Mutations: print-untrusted-hooks-go-on, withheld-guard-dropped.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

const GUARD = `#!/bin/sh
if grep -q 'rm -rf' ; then echo "blocked by the project's guard" >&2; exit 2; fi
exit 0
`;

async function guardedClone() {
  const emulator = await harness.startEmulator({
    scenario: [
      { content: [{ type: "tool_use", name: "Bash", input: { command: "rm -rf build/" } }] },
      "Done.",
    ] as never,
  });
  const home = await harness.tempDir("threadline-guard-home-");
  const cwd = await harness.tempDir("threadline-guard-cwd-");
  await mkdir(join(cwd, ".claude", "hooks"), { recursive: true });
  await writeFile(join(cwd, ".claude", "hooks", "no-rm.sh"), GUARD, { mode: 0o755 });
  await writeFile(
    join(cwd, ".claude", "settings.json"),
    JSON.stringify({
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./.claude/hooks/no-rm.sh" }] }] },
    }),
  );
  await mkdir(join(cwd, "build"));
  await writeFile(join(cwd, "build", "out.js"), "built\n");
  return { emulator, cwd, env: cliEnv(emulator.url, home, { HOME: home }) };
}

function messagesRequests(emulator: Emulator) {
  return emulator.requests.filter((record) => record.path === "/v1/messages");
}

function lastToolResult(emulator: Emulator): string {
  const body = messagesRequests(emulator).at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> };
  const last = (body?.messages ?? []).filter((message) => message.role === "user").at(-1);
  const blocks = (Array.isArray(last?.content) ? last.content : []) as Array<{ type: string; content?: unknown }>;
  return JSON.stringify(blocks.find((block) => block.type === "tool_result") ?? "");
}

describe("a withheld PreToolUse guard fails closed (CLI)", () => {
  it("print mode in an untrusted folder with project hooks stops before the first request, naming how to go on", async () => {
    const p = await guardedClone();
    const result = await runCli(["-p", "clean up", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).not.toBe(0);
    expect(existsSync(join(p.cwd, "build", "out.js"))).toBe(true);
    expect(messagesRequests(p.emulator)).toHaveLength(0);
    expect(result.stderr.trim()).toBe(
      `threadline: folder ${p.cwd} is not trusted: withheld project hooks (PreToolUse: ./.claude/hooks/no-rm.sh). Stopped before the first request: run with --trust-folder to run them, or --without-project-code to go on without them`,
    );
  });

  it("--without-project-code goes on, and rm -rf build/ is refused because its guard is withheld", async () => {
    const p = await guardedClone();
    const result = await runCli(["-p", "clean up", "--dangerously-skip-permissions", "--without-project-code"], {
      cwd: p.cwd,
      env: p.env,
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "build", "out.js"))).toBe(true);
    expect(lastToolResult(p.emulator)).toContain("it is withheld because this folder is not trusted");
    expect(result.stderr).toContain("is not trusted: withheld project hooks (PreToolUse: ./.claude/hooks/no-rm.sh)");
  });

  it("--trust-folder runs the project's own guard, which blocks", async () => {
    const p = await guardedClone();
    const result = await runCli(["-p", "clean up", "--dangerously-skip-permissions", "--trust-folder"], {
      cwd: p.cwd,
      env: p.env,
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "build", "out.js"))).toBe(true);
    expect(lastToolResult(p.emulator)).toContain("blocked by the project's guard");
  });
});
