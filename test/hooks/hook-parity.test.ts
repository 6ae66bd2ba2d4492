/**
 * Hook parity with Claude Code (issue 40 item 5), through the library over HTTP against the emulator, with real
 * hook scripts written to disk: `if` gates a hook to matching calls (chains included), `async` hooks never hold
 * the turn and their context reaches the next prompt, the Stop loop ends after 8 blocks with a line saying so
 * (CLAUDE_CODE_STOP_HOOK_BLOCK_CAP overrides), Stop stdin has `last_assistant_message` and `prompt_id`,
 * PostToolUseFailure hears failed calls, and PermissionRequest answers the question for the person.
 * Mutations (scripts/mutation-check.mjs): hook-if-ignored, hook-async-waited, stop-cap-old-three,
 * stop-cap-silent, post-tool-failure-never-fired, permission-request-allow-ignored.
 */
import { existsSync } from "node:fs";
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { HooksSettings } from "../../src/settings/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { makeTempDir } from "../../support/temp-dir.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** Writes an executable script and returns the command that runs it. */
async function script(dir: string, name: string, text: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, text);
  await chmod(path, 0o755);
  return name.endsWith(".mjs") ? `node ${path}` : `bash ${path}`;
}

/** A node hook that appends its stdin as one line to `log` and prints `output` (JSON) when given. */
function loggingHook(log: string, output?: unknown): string {
  return `import { appendFileSync, readFileSync } from "node:fs";
const input = readFileSync(0, "utf8");
appendFileSync(${JSON.stringify(log)}, JSON.stringify(JSON.parse(input)) + "\\n");
${output === undefined ? "" : `process.stdout.write(${JSON.stringify(JSON.stringify(output))});`}
`;
}

async function lines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function requestBodies(h: Harness): string[] {
  return h.emulator.requests.filter((record) => record.path === "/v1/messages").map((r) => JSON.stringify(r.body));
}

const bash = (command: string) => ({ content: [{ type: "tool_use" as const, name: "Bash", input: { command } }] });

describe("hook parity with Claude Code", () => {
  it("`if: Bash(git commit:*)` runs the hook for a chain holding git commit, never for ls", async () => {
    const dir = await makeTempDir("hooks");
    const log = join(dir, "if.log");
    const command = await script(dir, "log.mjs", loggingHook(log));
    const hooks: HooksSettings = {
      PreToolUse: [{ matcher: "Bash", hooks: [{ command, source: "test", if: "Bash(git commit:*)" }] }],
    };
    harness = await startHarness(
      { scenario: [bash("ls"), bash("echo start && git commit -m msg"), "done"] },
      { hooks },
    );
    await collect(harness.engine.submitMessage("commit it"));
    const seen = (await lines(log)).map((line) => (line.tool_input as { command: string }).command);
    // Mutation caught (hook-if-ignored): dropping the `if` check logs "ls" too.
    expect(seen).toEqual(["echo start && git commit -m msg"]);
  });

  it("an async PostToolUse hook does not hold the turn; what it adds reaches the next prompt's request", async () => {
    const dir = await makeTempDir("hooks");
    const gate = join(dir, "gate");
    const done = join(dir, "done");
    // Waits (up to 20 s) for a file only the test creates after the turn ends: a hook the turn waited for
    // would time out first (5 s) and add nothing.
    const command = await script(
      dir,
      "slow.sh",
      `cat > /dev/null
for i in $(seq 1 200); do [ -e ${gate} ] && break; sleep 0.1; done
echo '{"hookSpecificOutput": {"hookEventName": "PostToolUse", "additionalContext": "formatted by the async hook"}}'
touch ${done}
`,
    );
    const hooks: HooksSettings = {
      PostToolUse: [{ matcher: "Bash", hooks: [{ command, source: "test", async: true, timeoutSeconds: 5 }] }],
    };
    harness = await startHarness({ scenario: [bash("echo hi"), "first done", "second done"] }, { hooks });
    const first = await collect(harness.engine.submitMessage("run it"));
    expect(turnEnd(first).reason).toBe("completed");
    // Run in line, the hook would have timed out within the turn, with a notice.
    expect(first.filter((event) => event.type === "notice")).toEqual([]);
    expect(existsSync(done)).toBe(false);
    await writeFile(gate, "");
    for (let attempt = 0; attempt < 200 && !existsSync(done); attempt++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    await new Promise((resolve) => setTimeout(resolve, 200)); // the process's exit after its last line
    await collect(harness.engine.submitMessage("again"));
    const bodies = requestBodies(harness);
    // Mutation caught (hook-async-waited): running it in line times it out in the first turn; nothing arrives.
    expect(bodies.slice(0, 2).some((body) => body.includes("formatted by the async hook"))).toBe(false);
    expect(bodies.at(-1)).toContain("PostToolUse hook additional context: formatted by the async hook");
  });

  it("a Stop hook that always blocks is honoured 8 times, then the turn ends with a line saying so", async () => {
    const dir = await makeTempDir("hooks");
    const log = join(dir, "stop.log");
    const command = await script(
      dir,
      "stop.mjs",
      loggingHook(log, { decision: "block", reason: "iteration not finished" }),
    );
    const replies = Array.from({ length: 12 }, (_, index) => `reply ${index + 1}`);
    harness = await startHarness(
      { scenario: replies },
      { hooks: { Stop: [{ matcher: "", hooks: [{ command, source: "test" }] }] } },
    );
    const events = await collect(harness.engine.submitMessage("loop"));
    expect(turnEnd(events).reason).toBe("completed");
    const calls = await lines(log);
    // Mutations caught: the old cap of 3 (stop-cap-old-three) gives 4 calls and 4 requests; no warning
    // (stop-cap-silent) leaves the notice out.
    expect(calls).toHaveLength(9);
    expect(requestBodies(harness)).toHaveLength(9);
    const notices = events.flatMap((event) => (event.type === "notice" ? [event.message] : []));
    expect(notices.filter((message) => message.startsWith("Stop hook blocked 8 times in a row"))).toHaveLength(1);
    expect(calls.map((call) => call.last_assistant_message)).toEqual(replies.slice(0, 9));
    expect(calls.map((call) => call.stop_hook_active)).toEqual([false, ...Array(8).fill(true)]);
    // One prompt, one prompt_id, a UUID.
    expect(new Set(calls.map((call) => call.prompt_id)).size).toBe(1);
    expect(String(calls[0]?.prompt_id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP=2 ends the loop after two blocks", async () => {
    const dir = await makeTempDir("hooks");
    const log = join(dir, "stop.log");
    const command = await script(dir, "stop.mjs", loggingHook(log, { decision: "block", reason: "more" }));
    harness = await startHarness(
      { scenario: ["a", "b", "c", "d", "e"] },
      {
        env: { ...process.env, CLAUDE_CODE_STOP_HOOK_BLOCK_CAP: "2" },
        hooks: { Stop: [{ matcher: "", hooks: [{ command, source: "test" }] }] },
      },
    );
    await collect(harness.engine.submitMessage("loop"));
    expect(requestBodies(harness)).toHaveLength(3);
  });

  it("PostToolUseFailure hears a failed call with its error; PostToolUse gets Bash's tool_response shape", async () => {
    const dir = await makeTempDir("hooks");
    const log = join(dir, "post.log");
    const failure = await script(
      dir,
      "failure.mjs",
      loggingHook(log, {
        hookSpecificOutput: { hookEventName: "PostToolUseFailure", additionalContext: "check the exit code" },
      }),
    );
    const success = await script(dir, "success.mjs", loggingHook(log));
    const hooks: HooksSettings = {
      PostToolUse: [{ matcher: "Bash", hooks: [{ command: success, source: "test" }] }],
      PostToolUseFailure: [{ matcher: "Bash", hooks: [{ command: failure, source: "test" }] }],
    };
    harness = await startHarness({ scenario: [bash("echo hi"), bash("exit 3"), "done"] }, { hooks });
    await collect(harness.engine.submitMessage("run both"));
    const calls = await lines(log);
    // Mutation caught (post-tool-failure-never-fired): the failed call goes to PostToolUse instead.
    expect(calls.map((call) => call.hook_event_name)).toEqual(["PostToolUse", "PostToolUseFailure"]);
    expect(calls[0]?.tool_response).toEqual({ stdout: "hi", stderr: "", interrupted: false, isImage: false });
    expect(calls[1]).toMatchObject({ tool_name: "Bash", tool_input: { command: "exit 3" }, is_interrupt: false });
    expect(String(calls[1]?.error)).toContain("Exit code 3");
    expect(requestBodies(harness).at(-1)).toContain("PostToolUseFailure hook additional context: check the exit code");
  });

  it("PermissionRequest answers for the person: allow runs the call, deny sends its message to the model", async () => {
    const dir = await makeTempDir("hooks");
    const command = await script(
      dir,
      "permission.mjs",
      `import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const allow = input.tool_input.command.includes("allowed");
process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest",
  decision: allow ? { behavior: "allow" } : { behavior: "deny", message: "not in this repository" } } }));
`,
    );
    let asked = 0;
    harness = await startHarness(
      { scenario: [bash("touch allowed.txt"), bash("touch denied.txt"), "done"] },
      {
        permission: {
          mode: "default",
          ask: async () => {
            asked++;
            return true;
          },
        },
        hooks: { PermissionRequest: [{ matcher: "Bash", hooks: [{ command, source: "test" }] }] },
      },
    );
    await collect(harness.engine.submitMessage("make files"));
    // Mutation caught (permission-request-allow-ignored): the person is asked, and says yes to both.
    expect(asked).toBe(0);
    expect(existsSync(join(harness.workspace, "allowed.txt"))).toBe(true);
    expect(existsSync(join(harness.workspace, "denied.txt"))).toBe(false);
    expect(requestBodies(harness).at(-1)).toContain("not in this repository");
  });
});
