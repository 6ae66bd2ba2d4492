/**
 * `threadline --provider openai-compatible --base-url … -p …` against the emulator's chat endpoint, as a user runs
 * it: the default suite's end-to-end cover of the OpenAI protocol (the real llama-server one may skip). Oracles: the
 * emulator's logged requests and the JSON result.
 */
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();

const TOOL_SESSION = [
  { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo hello-from-bash" } }] },
  { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo again" } }] },
  "Bash printed twice.",
];

describe("threadline --provider openai-compatible", () => {
  it("runs a tool session over /v1/chat/completions and reports num_turns as answered requests", async () => {
    const { cwd, env, emulator } = await harness.setup({ scenario: TOOL_SESSION }, "openai-cli");
    const { ANTHROPIC_BASE_URL: _url, ANTHROPIC_API_KEY: _key, ...rest } = env;
    const result = await runCli(
      [
        ...["--provider", "openai-compatible", "--base-url", `${emulator.url}/v1`],
        ...["-p", "run echo", "--allowedTools", "Bash", "--output-format", "json"],
      ],
      { cwd, env: { ...rest, OPENAI_API_KEY: "sk-openai-test-not-secret" } },
    );
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({ type: "result", is_error: false, num_turns: 3, result: "Bash printed twice." });
    const paths = emulator.requests.map((request) => request.path);
    expect(paths.filter((path) => path === "/v1/chat/completions")).toHaveLength(3);
    expect(paths.filter((path) => path.startsWith("/v1/messages"))).toEqual([]);
    expect(result.stderr).not.toContain("sk-openai-test-not-secret");
  });

  it("without a server to talk to says so in one line", async () => {
    const { cwd, env } = await harness.setup({ scenario: ["never"] }, "openai-cli");
    const { OPENAI_BASE_URL: _base, ...rest } = env;
    const result = await runCli(["--provider", "openai-compatible", "-p", "hi"], { cwd, env: rest });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      "threadline: --provider openai-compatible needs a server: pass --base-url URL (or set OPENAI_BASE_URL).",
    );
  });
});
