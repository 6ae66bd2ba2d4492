/**
 * A token is withheld by its value, whatever its variable is called (issue 53 item 3): `threadline -p` with
 * GH_PAT=ghp_… and a random key under a harmless name, and a scripted model that runs `printenv`. Oracles: the
 * emulator's logged tool result (a real child process's output) holds a plain variable set beside them, and
 * neither the names nor the values (nor their base64) of the tokens.
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const harness = useCliHarness();

const TOKENS: Record<string, string> = {
  GH_PAT: "ghp_Q1w2E3r4T5y6U7i8O9p0A1s2D3f4G5h6J7k8",
  BUILD_NOTE: "q8Zr2LmV0xT5nB7wK1cYp4HdJ6sEa3Uf9GiR",
};

describe("secrets by value (CLI)", () => {
  it("printenv in a tool process shows neither the names nor the values of token-shaped variables", async () => {
    const emulator = await harness.startEmulator({
      scenario: [
        { content: [{ type: "tool_use", name: "Bash", input: { command: "printenv; echo printenv-done" } }] },
        "Done.",
      ] as never,
    });
    const base = await harness.tempDir("threadline-secret-values-");
    const home = join(base, "home");
    const cwd = join(base, "project");
    await mkdir(home, { recursive: true });
    await mkdir(cwd, { recursive: true });
    const env = cliEnv(emulator.url, home, { ...TOKENS, HOME: home, PLAIN_SETTING: "plain-value-kept" });
    const result = await runCli(["-p", "show the environment", "--permission-mode", "bypassPermissions"], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    const bodies = JSON.stringify(emulator.requests.map((request) => request.body));
    expect(bodies.includes("printenv-done")).toBe(true);
    expect(bodies.includes("PLAIN_SETTING=plain-value-kept")).toBe(true);
    const leaked = Object.entries(TOKENS).flatMap(([name, value]) =>
      [`${name}=`, value, Buffer.from(value).toString("base64").slice(0, 24)].filter((form) => bodies.includes(form)),
    );
    expect(leaked).toEqual([]);
  });
});
