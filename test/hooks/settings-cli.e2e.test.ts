/**
 * Settings in the built CLI (issue 30): `env` (ANTHROPIC_BASE_URL from settings reaches the provider; tools see
 * the rest, never a secret), `permissions.defaultMode` and `model` under the flags, Stop hooks, hooks' scrubbed
 * environment, and broken settings files that never crash the CLI.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { trustFolder } from "../../src/trust/index.js";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli, TEST_MODEL } from "../cli/cli-process.js";

const harness = useCliHarness();

/** A key no real text contains, so finding it anywhere is a leak. */
const KEY = "sk-ant-test-HOOKS-ISSUE30-c0ffee";

async function project(steps: unknown[], settings: unknown, extraEnv: Record<string, string> = {}) {
  const emulator = await harness.startEmulator({ scenario: steps as never });
  const home = await harness.tempDir("threadline-i30s-home-");
  const cwd = await harness.tempDir("threadline-i30s-cwd-");
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(
    join(cwd, ".claude", "settings.json"),
    typeof settings === "string" ? settings : JSON.stringify(settings),
  );
  // These tests are about settings, not trust: the folder is trusted as a yes at the question would (docs/TRUST.md).
  trustFolder(cwd, home);
  return { emulator, home, cwd, env: cliEnv(emulator.url, home, { HOME: home, ...extraEnv }) };
}

function bodies(emulator: Emulator): Array<{ model: string; messages: Array<{ role: string; content: unknown }> }> {
  return emulator.requests.filter((record) => record.path === "/v1/messages").map((record) => record.body as never);
}

function lastToolResultText(emulator: Emulator): string {
  const last = bodies(emulator)
    .at(-1)
    ?.messages.filter((message) => message.role === "user")
    .at(-1);
  return JSON.stringify(last?.content ?? "");
}

describe("settings env, mode and model", () => {
  it("env from settings reaches the session (ANTHROPIC_BASE_URL) and tools, but secrets stay out of tools and hooks", async () => {
    const emulator = await harness.startEmulator({
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              name: "Bash",
              input: { command: 'echo "color=$PROJECT_COLOR key=$ANTHROPIC_API_KEY"' },
            },
          ],
        },
        "ok",
      ] as never,
    });
    const home = await harness.tempDir("threadline-i30s-home-");
    const cwd = await harness.tempDir("threadline-i30s-cwd-");
    await mkdir(join(cwd, ".claude"), { recursive: true });
    await writeFile(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        env: { ANTHROPIC_BASE_URL: emulator.url, ANTHROPIC_API_KEY: KEY, PROJECT_COLOR: "teal" },
        hooks: {
          SessionStart: [{ hooks: [{ type: "command", command: 'env > "$CLAUDE_PROJECT_DIR/hook-env.txt"' }] }],
        },
      }),
    );
    trustFolder(cwd, home);
    // The process's own base URL points nowhere: only the settings' one can work.
    const env = cliEnv("http://127.0.0.1:9", home, { HOME: home });
    const result = await runCli(["-p", "go", "--dangerously-skip-permissions"], { cwd, env });
    expect(result.code).toBe(0);
    expect(lastToolResultText(emulator)).toContain("color=teal key=");
    // Mutation caught: passing the settings env to tools unscrubbed puts the key in the tool result.
    expect(JSON.stringify(emulator.requests.map((record) => record.body))).not.toContain(KEY);
    const hookEnv = await readFile(join(cwd, "hook-env.txt"), "utf8");
    expect(hookEnv).toContain(`CLAUDE_PROJECT_DIR=${cwd}`);
    expect(hookEnv).toContain("PROJECT_COLOR=teal");
    expect(hookEnv).not.toContain(KEY);
  });

  it("permissions.defaultMode applies unless a flag says otherwise; model applies unless --model or ANTHROPIC_MODEL does", async () => {
    const write = {
      content: [{ type: "tool_use", name: "Write", input: { file_path: "out.txt", content: "made\n" } }],
    };
    const p = await project([write, "ok", write, "ok"], {
      permissions: { defaultMode: "bypassPermissions" },
      model: "claude-opus-4-1-20250805",
    });
    const { ANTHROPIC_MODEL: _model, ...withoutModel } = p.env;
    const first = await runCli(["-p", "write it"], { cwd: p.cwd, env: withoutModel });
    expect(first.code).toBe(0);
    expect(await readFile(join(p.cwd, "out.txt"), "utf8")).toBe("made\n");
    expect(bodies(p.emulator)[0]?.model).toBe("claude-opus-4-1-20250805");
    await writeFile(join(p.cwd, "out.txt"), "old\n");
    const second = await runCli(["-p", "write it", "--permission-mode", "default", "--model", TEST_MODEL], {
      cwd: p.cwd,
      env: p.env,
    });
    expect(second.code).toBe(0);
    // Mutation caught: letting the settings' defaultMode beat the flag writes the file again.
    expect(await readFile(join(p.cwd, "out.txt"), "utf8")).toBe("old\n");
    expect(bodies(p.emulator)[2]?.model).toBe(TEST_MODEL);
  });
});

describe("Stop hooks", () => {
  it("a Stop hook that blocks sends its reason to the model once; stop_hook_active lets it end the turn", async () => {
    const script =
      'input=$(cat); echo "$input" >> "$CLAUDE_PROJECT_DIR/stop.log"; ' +
      'case "$input" in *\'"stop_hook_active":true\'*) exit 0 ;; esac; echo "Run the tests before stopping." >&2; exit 2';
    const p = await project(["First answer.", "Tests run; done."], {
      hooks: { Stop: [{ hooks: [{ type: "command", command: script }] }] },
    });
    const result = await runCli(["-p", "do it"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Tests run; done.");
    const requests = bodies(p.emulator);
    expect(requests).toHaveLength(2);
    expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain("Run the tests before stopping.");
    const inputs = (await readFile(join(p.cwd, "stop.log"), "utf8"))
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { hook_event_name: string; stop_hook_active: boolean });
    expect(inputs.map((input) => [input.hook_event_name, input.stop_hook_active])).toEqual([
      ["Stop", false],
      ["Stop", true],
    ]);
  });
});

describe("broken settings files", () => {
  it("never crash the CLI: each problem is one line on stderr and the answer still comes (fast-check)", async () => {
    // Mutation caught: a reader that throws on an unexpected shape turns these into a crash (exit 1, stack).
    const files = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
      fc
        .record({
          permissions: fc.oneof(
            fc.jsonValue({ maxDepth: 2 }),
            fc.record({ allow: fc.jsonValue(), deny: fc.jsonValue() }),
          ),
          hooks: fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.record({ Stop: fc.jsonValue({ maxDepth: 3 }) })),
          env: fc.jsonValue({ maxDepth: 2 }),
          model: fc.jsonValue({ maxDepth: 1 }),
        })
        .map((value) => JSON.stringify(value)),
    );
    const samples = fc.sample(files, { numRuns: 6, seed: 30 });
    for (const text of samples) {
      const p = await project(["Still here."], text);
      const result = await runCli(["-p", "hello"], { cwd: p.cwd, env: p.env });
      // A deny rule that cannot be read stops the run with one line (docs/TRUST.md "Fail closed"); else it answers.
      const stopped = /threadline stops rather than/.test(result.stderr);
      expect({ text, code: result.code, stdout: result.stdout }).toEqual(
        stopped ? { text, code: 1, stdout: "" } : { text, code: 0, stdout: "Still here.\n" },
      );
      if (stopped) expect(result.stderr.trim().split("\n")).toHaveLength(1);
      for (const line of result.stderr.split("\n").filter((line) => line !== ""))
        expect({ text, line }).toEqual({ text, line: expect.stringMatching(/^threadline: settings: \/.+: /) });
      await p.emulator.close();
    }
  });
});
