import { readdir } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const harness = useCliHarness();

/** Every transcript (.jsonl) below a home directory. */
async function transcriptsUnder(home: string): Promise<string[]> {
  const entries = await readdir(home, { recursive: true });
  return entries.filter((name) => name.endsWith(".jsonl"));
}

async function dirs() {
  const home = await harness.tempDir("fail-home");
  const cwd = await harness.tempDir("fail-cwd");
  return { home, cwd };
}

function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = env;
  return rest;
}

describe("print mode failures", () => {
  it("an unreachable base URL fails with one line naming it (well before the old minutes of back-off)", async () => {
    const { home, cwd } = await dirs();
    const started = performance.now();
    const result = await runCli(["-p", "hi"], { cwd, env: withoutKey(cliEnv("http://127.0.0.1:9", home)) });
    // Time is reported for the closing note, never asserted; the vitest timeout below is the generous bound.
    console.log(`unreachable base URL: exit after ${Math.round(performance.now() - started)} ms`);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("Cannot reach http://127.0.0.1:9");
    // Mutation caught: keeping the transcript of a run no server answered (dropUnansweredSession returning
    // early) leaves a session of one prompt and no response behind; the line must say none was kept.
    expect(lines[0]).toContain("no session kept");
    expect(await transcriptsUnder(home)).toEqual([]);
  }, 60_000);

  it("a session a server answered is kept", async () => {
    const emulator = await harness.startEmulator({ scenario: ["kept answer"] });
    const { home, cwd } = await dirs();
    const result = await runCli(["-p", "hi"], { cwd, env: cliEnv(emulator.url, home) });
    expect(result.code).toBe(0);
    expect(await transcriptsUnder(home)).toHaveLength(1);
  }, 60_000);

  it("a retryable HTTP error shows a retry line on stderr, then the answer", async () => {
    const emulator = await harness.startEmulator({
      scenario: ["after the retry"],
      faults: [{ onRequest: 1, kind: "overloaded" }],
    });
    const { home, cwd } = await dirs();
    const result = await runCli(["-p", "hi"], { cwd, env: cliEnv(emulator.url, home) });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("after the retry\n");
    expect(result.stderr).toMatch(/^threadline: 529 .*retrying in \d+s \(attempt 1\)\n$/);
  }, 60_000);

  it("no key is needed for a non-Anthropic server: the emulator answers", async () => {
    const emulator = await harness.startEmulator({ scenario: ["hello without a key"] });
    const { home, cwd } = await dirs();
    const result = await runCli(["-p", "hi"], { cwd, env: withoutKey(cliEnv(emulator.url, home)) });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("hello without a key\n");
    expect(result.code).toBe(0);
  }, 60_000);

  it("Anthropic's own endpoint still asks for a key, in one line", async () => {
    const { home, cwd } = await dirs();
    const env = withoutKey(cliEnv("https://api.anthropic.com", home));
    const result = await runCli(["-p", "hi"], { cwd, env });
    expect(result.code).toBe(1);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(result.stderr).toContain("ANTHROPIC_API_KEY is not set");
  }, 60_000);
});

describe("the command line", () => {
  it.each([["emulator"], ["demo"], ["inspect"]])(
    "`threadline %s --help` prints its usage and exits 0",
    async (name) => {
      const { home, cwd } = await dirs();
      const result = await runCli([name, "--help"], { cwd, env: cliEnv("http://127.0.0.1:9", home) });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^usage: threadline ${name}`, "i"));
      expect(result.stderr).toBe("");
    },
    60_000,
  );

  it("a typo'd subcommand gets one line with the suggestion, and never reaches a server", async () => {
    const { home, cwd } = await dirs();
    const result = await runCli(["inpsect", "x.jsonl"], { cwd, env: cliEnv("http://127.0.0.1:9", home) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^threadline: unknown command "inpsect"; did you mean `inspect`\?.*\n$/);
  }, 60_000);
});
