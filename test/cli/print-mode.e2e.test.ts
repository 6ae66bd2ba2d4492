import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator, EmulatorOptions } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli, startCli, waitFor } from "./cli-process.js";

const harness = useCliHarness();

function setup(options: EmulatorOptions) {
  return harness.setup(options, "cli");
}

/** Main-loop request bodies (those that carry tools), in order. */
function mainRequests(server: Emulator): Array<{ messages: Array<{ role: string; content: unknown }> }> {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => request.body as { messages: Array<{ role: string; content: unknown }>; tools?: unknown[] })
    .filter((body) => Array.isArray(body.tools) && body.tools.length > 0);
}

const TOOL_SESSION = [
  { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "echo hello-from-bash" } }] },
  "Bash printed hello-from-bash.",
];

describe("threadline -p", () => {
  it("completes a tool session and prints the final text", async () => {
    const { cwd, env, emulator: server } = await setup({ scenario: TOOL_SESSION });
    const result = await runCli(["-p", "run echo", "--allowedTools", "Bash"], { cwd, env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Bash printed hello-from-bash.\n");
    const requests = mainRequests(server);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.messages)).toContain("hello-from-bash");
  });

  // Mutations caught: the -v log rendering the streamed text shows the answer twice in a terminal (stdout and
  // stderr); numbering requests from iteration + 1 calls the first request "request 2".
  it("--verbose logs requests and tools on stderr, numbered from 1, and the answer once (stdout)", async () => {
    const { cwd, env } = await setup({ scenario: TOOL_SESSION });
    const result = await runCli(["-p", "run echo", "--allowedTools", "Bash", "--verbose"], { cwd, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Bash printed hello-from-bash.\n");
    expect(result.stderr).not.toContain("Bash printed hello-from-bash.");
    expect(result.stderr).toMatch(/^→ request 1 \(\d+ bytes\)$/m);
    expect(result.stderr).toMatch(/^→ request 2 \(\d+ bytes\)$/m);
    expect(result.stderr).not.toMatch(/→ request 3/);
    expect(result.stderr).toContain("⏺ Bash(echo hello-from-bash)");
  });

  // Mutations caught: the -v log dropping all streamed text (text: false) hides the model's words between tool
  // calls; showing the held text at turn end prints the answer on stderr as well as stdout.
  it("--verbose shows the text before a tool call on stderr, and the answer only on stdout", async () => {
    const { cwd, env } = await setup({
      scenario: [
        {
          content: [
            { type: "text" as const, text: "First I will list the folder." },
            { type: "tool_use" as const, name: "Bash", input: { command: "echo step-one" } },
          ],
        },
        "All listed.",
      ],
    });
    const result = await runCli(["-p", "list it", "--allowedTools", "Bash", "--verbose"], { cwd, env });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("All listed.\n");
    const stderrLines = result.stderr.split("\n");
    const said = stderrLines.indexOf("First I will list the folder.");
    expect(said).toBeGreaterThanOrEqual(0);
    expect(stderrLines[said + 1]).toBe("⏺ Bash(echo step-one)");
    expect(result.stderr).not.toContain("All listed.");
  });

  it("prints one JSON result object with --output-format json", async () => {
    const { cwd, env } = await setup({ scenario: TOOL_SESSION });
    const sessionId = randomUUID();
    const result = await runCli(
      ["-p", "run echo", "--allowedTools", "Bash", "--output-format", "json", "--session-id", sessionId],
      { cwd, env },
    );
    expect(result.code).toBe(0);
    const parsed = JSON.parse(result.stdout) as Record<string, unknown>;
    expect(parsed).toMatchObject({
      type: "result",
      is_error: false,
      session_id: sessionId,
      num_turns: 2,
      result: "Bash printed hello-from-bash.",
    });
    expect(typeof parsed.total_cost_usd).toBe("number");
    expect(parsed.usage).toHaveProperty("output_tokens");
  });

  it("prints one JSON event a line with --output-format stream-json", async () => {
    const { cwd, env } = await setup({ scenario: TOOL_SESSION });
    const result = await runCli(["-p", "run echo", "--allowedTools", "Bash", "--output-format", "stream-json"], {
      cwd,
      env,
    });
    expect(result.code).toBe(0);
    const events = result.stdout
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { type: string; subtype?: string });
    expect(events[0]).toMatchObject({ type: "system", subtype: "init" });
    expect(events.at(-1)).toMatchObject({ type: "result", is_error: false });
    expect(events.some((event) => event.type === "assistant")).toBe(true);
    expect(events.some((event) => event.type === "user")).toBe(true);
  });

  it("reads the prompt from piped stdin", async () => {
    const { cwd, env, emulator: server } = await setup({});
    const result = await runCli(["-p"], { cwd, env, input: "piped question\n" });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("piped question");
    expect(JSON.stringify(server.requests.at(-1)?.body)).toContain("piped question");
  });

  it("--resume and --continue send the earlier turns again", async () => {
    const {
      cwd,
      env,
      emulator: server,
    } = await setup({ scenario: [...TOOL_SESSION, "second answer", "third answer"] });
    const sessionId = randomUUID();
    const first = await runCli(["-p", "first prompt", "--allowedTools", "Bash", "--session-id", sessionId], {
      cwd,
      env,
    });
    expect(first.code).toBe(0);
    const resumed = await runCli(["-p", "second prompt", "--resume", sessionId], { cwd, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("second answer\n");
    let body = JSON.stringify(mainRequests(server).at(-1)?.messages);
    for (const text of ["first prompt", "hello-from-bash", "Bash printed", "second prompt"])
      expect(body).toContain(text);
    const continued = await runCli(["-p", "third prompt", "--continue", "--output-format", "json"], { cwd, env });
    expect(JSON.parse(continued.stdout)).toMatchObject({ session_id: sessionId, result: "third answer" });
    body = JSON.stringify(mainRequests(server).at(-1)?.messages);
    for (const text of ["first prompt", "second answer", "third prompt"]) expect(body).toContain(text);
  });

  it("rejects a bad flag with one line, the usage, and exit code 2", async () => {
    const { cwd, env, emulator: server } = await setup({});
    const result = await runCli(["-p", "hi", "--no-such-flag"], { cwd, env });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^threadline: unknown option --no-such-flag .*threadline --help.*\n$/);
    const badValue = await runCli(["-p", "hi", "--output-format", "xml"], { cwd, env });
    expect(badValue.code).toBe(2);
    expect(badValue.stderr).toContain("--output-format must be one of text, json, stream-json");
    expect(server.requests).toHaveLength(0);
  });

  it("fails with one line and no key in the output when the key is missing or wrong", async () => {
    const { cwd, env } = await setup({ apiKey: "the-right-key" });
    const missing = await runCli(["-p", "hi"], { cwd, env: { ...env, ANTHROPIC_API_KEY: "" } });
    expect(missing.code).toBe(1);
    expect(missing.stderr.trim().split("\n")).toHaveLength(1);
    // A loopback server needs no key by default; this one wants one, and the line says so.
    expect(missing.stderr).toContain("ANTHROPIC_API_KEY is not set and http://127.0.0.1:");
    const secret = "sk-ant-api03-wrongwrongwrong";
    const wrong = await runCli(["-p", "hi"], { cwd, env: { ...env, ANTHROPIC_API_KEY: secret } });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr + wrong.stdout).not.toContain(secret);
    expect(wrong.stderr).not.toMatch(/\n\s+at /);
  });

  it("Ctrl-C mid-turn leaves a transcript that resumes", async () => {
    const slow = { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "sleep 30" } }] };
    const { cwd, env, home, emulator: server } = await setup({ scenario: [slow, "after resume"] });
    const sessionId = randomUUID();
    const run = startCli(
      ["-p", "start slow work", "--allowedTools", "Bash", "--session-id", sessionId, "--output-format", "stream-json"],
      { cwd, env },
    );
    // The tool_use has arrived when the assistant line is out; the Bash tool is now sleeping.
    await waitFor(() => run.stdout().includes('"type":"assistant"'));
    run.child.kill("SIGINT");
    const interrupted = await run.done;
    expect(interrupted.code).toBe(130);
    expect(JSON.parse(interrupted.stdout.trimEnd().split("\n").at(-1) ?? "{}")).toMatchObject({
      is_error: true,
      terminal_reason: "aborted_streaming",
    });
    const transcript = join(home, "projects", cwd.replace(/[^a-zA-Z0-9]/g, "-"), `${sessionId}.jsonl`);
    for (const line of (await readFile(transcript, "utf8")).trimEnd().split("\n"))
      expect(() => JSON.parse(line)).not.toThrow();
    const resumed = await runCli(["-p", "carry on", "--resume", sessionId], { cwd, env });
    expect(resumed.stderr).toBe("");
    expect(resumed.stdout).toBe("after resume\n");
    const body = JSON.stringify(mainRequests(server).at(-1)?.messages);
    expect(body).toContain("start slow work");
    expect(body).toContain("sleep 30");
    expect(body).toContain("carry on");
  });
});
