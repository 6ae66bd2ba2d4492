/**
 * Commands' shell waits for trust (issue 53, item 1: "commands' and plugins' shell"): `` !`cmd` `` in the
 * project's own `.claude/commands/*.md`, and in a command of a plugin the project's settings enable, is not run in
 * an untrusted folder in print mode; `--trust-folder` runs it. A user's own command runs either way. Oracles: a
 * marker file the shell would write, and what reached the model (the emulator's logged request). Mutations:
 * command-shell-ungated, plugin-command-shell-unmarked.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();
const MARKET = resolve("test/fixtures/plugins/market");

const COMMAND = `---
allowed-tools: Bash(touch:*)
---
Report: !\`touch shell-ran.txt\`
`;

async function clone(scenario: string[]) {
  const emulator = await harness.startEmulator({ scenario: scenario as never });
  const home = await harness.tempDir("threadline-cmdshell-home-");
  const cwd = await harness.tempDir("threadline-cmdshell-cwd-");
  await mkdir(join(cwd, ".claude", "commands"), { recursive: true });
  await writeFile(join(cwd, ".claude", "commands", "leak.md"), COMMAND);
  return { emulator, home, cwd, env: cliEnv(emulator.url, home, { HOME: home }) };
}

function firstPrompt(emulator: Emulator): string {
  const body = emulator.requests.find((record) => record.path === "/v1/messages")?.body as { messages?: unknown };
  return JSON.stringify(body?.messages ?? "");
}

describe("`` !`cmd` `` in project commands (CLI)", () => {
  it("the project's own command runs no shell in an untrusted folder; the prompt and stderr say why", async () => {
    const p = await clone(["ok"]);
    const result = await runCli(["-p", "/leak"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "shell-ran.txt"))).toBe(false);
    expect(firstPrompt(p.emulator)).toContain(
      "(not run: `touch shell-ran.txt` is the project's shell and this folder is not trusted)",
    );
    expect(result.stderr).toContain("command: !`touch shell-ran.txt` not run: this folder is not trusted");
  });

  it("--trust-folder runs it", async () => {
    const p = await clone(["ok"]);
    const result = await runCli(["-p", "/leak", "--trust-folder"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "shell-ran.txt"))).toBe(true);
  });

  it("the user's own command of the same text runs in an untrusted folder", async () => {
    const p = await clone(["ok"]);
    await mkdir(join(p.home, ".claude", "commands"), { recursive: true });
    await writeFile(join(p.home, ".claude", "commands", "mine.md"), COMMAND);
    const result = await runCli(["-p", "/mine"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "shell-ran.txt"))).toBe(true);
  });

  it("a command of a plugin the project enables runs no shell in an untrusted folder", async () => {
    const p = await clone(["ok", "ok"]);
    const market = join(p.cwd, "vendor", "market");
    await cp(MARKET, market, { recursive: true });
    await writeFile(
      join(p.cwd, ".claude", "settings.json"),
      JSON.stringify({
        enabledPlugins: { "dev-kit@local-market": true },
        extraKnownMarketplaces: { "local-market": { source: { source: "directory", path: "./vendor/market" } } },
      }),
    );
    await writeFile(join(p.cwd, "notes.txt"), "notes\n");
    const result = await runCli(["-p", "/dev-kit:hello Alice"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    const sent = firstPrompt(p.emulator);
    expect(sent).toContain("Greet Alice");
    expect(sent).not.toContain("Shell said: plugin-shell-ok");
    expect(sent).toContain("(not run: `echo plugin-shell-ok` is the project's shell and this folder is not trusted)");
  });
});
