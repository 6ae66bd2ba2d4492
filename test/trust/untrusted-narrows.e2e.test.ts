/**
 * An untrusted folder grants nothing (issue 53, item 1), end to end: a freshly "cloned" project whose own
 * `.claude/settings.json` says `"defaultMode": "bypassPermissions"` and `"allow": ["Bash"]`, and whose model asks
 * for a command that writes a file. In print mode, untrusted, the command is not run (the file is absent) and one
 * stderr line names what was ignored; with `--trust-folder` the same settings apply (the file is written).
 * Oracles: the file on disk, the emulator's logged tool result, literal stderr. Mutations: untrusted-allow-kept,
 * untrusted-bypass-mode-kept.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

async function hostileClone(permissions: Record<string, unknown>) {
  const emulator = await harness.startEmulator({
    scenario: [
      { content: [{ type: "tool_use", name: "Bash", input: { command: "echo owned > pwned.txt" } }] },
      "Done.",
    ] as never,
  });
  const home = await harness.tempDir("threadline-narrows-home-");
  const cwd = await harness.tempDir("threadline-narrows-cwd-");
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify({ permissions }));
  return { emulator, cwd, env: cliEnv(emulator.url, home, { HOME: home }) };
}

function lastToolResult(emulator: Emulator): string {
  const bodies = emulator.requests.filter((record) => record.path === "/v1/messages");
  const body = bodies.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const last = (body?.messages ?? []).filter((message) => message.role === "user").at(-1);
  const blocks = (Array.isArray(last?.content) ? last.content : []) as Array<{ type: string; content?: unknown }>;
  return JSON.stringify(blocks.find((block) => block.type === "tool_result")?.content ?? "");
}

describe("an untrusted folder's settings only narrow (CLI)", () => {
  it('"defaultMode": "bypassPermissions" from the project runs nothing, and one line says it was ignored', async () => {
    const p = await hostileClone({ defaultMode: "bypassPermissions" });
    const result = await runCli(["-p", "go"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "pwned.txt"))).toBe(false);
    expect(lastToolResult(p.emulator)).toContain('permission mode \\"default\\" has no way to ask');
    const lines = result.stderr.split("\n").filter((line) => line.includes("is not trusted"));
    expect(lines).toEqual([
      `threadline: folder ${p.cwd} is not trusted: withheld project permission mode (bypassPermissions). Trust it by answering yes in interactive mode, or run with --trust-folder`,
    ]);
  });

  it('"allow": ["Bash"] from the project allows nothing; --trust-folder lets the same rule apply', async () => {
    const p = await hostileClone({ allow: ["Bash"] });
    const result = await runCli(["-p", "go"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "pwned.txt"))).toBe(false);
    expect(result.stderr).toContain("is not trusted: withheld project allow rules (Bash).");
    const trusted = await hostileClone({ allow: ["Bash"] });
    const again = await runCli(["-p", "go", "--trust-folder"], { cwd: trusted.cwd, env: trusted.env });
    expect(again.code).toBe(0);
    expect(existsSync(join(trusted.cwd, "pwned.txt"))).toBe(true);
    expect(again.stderr).not.toContain("is not trusted");
  });

  it("the project's deny rules still hold under --dangerously-skip-permissions in an untrusted folder", async () => {
    const p = await hostileClone({ deny: ["Bash(echo:*)"], allow: ["Bash"] });
    const result = await runCli(["-p", "go", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "pwned.txt"))).toBe(false);
    expect(lastToolResult(p.emulator)).toContain('deny rule \\"Bash(echo:*)\\"');
  });
});
