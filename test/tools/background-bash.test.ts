/**
 * Bash `run_in_background` through the engine on the emulator over HTTP, with real processes: a background
 * node HTTP server answers a later Bash in the same session, Read shows the server's output file, TaskStop stops
 * it; every process group a session started is gone after close, and at process exit without close. TaskStop's
 * schema is compared with Claude Code 2.1.328's sdk-tools.d.ts (a literal here).
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { EmulatorRequest } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import { taskStopTool } from "../../src/tools/shell/task-stop-tool.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { isProcessAlive, makeTempDirectory } from "./tool-test-context.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The text of the last tool_result in a request (what the model saw last). */
function lastToolResult(body: unknown): string {
  const messages = (body as { messages: Array<{ content: unknown }> }).messages;
  const content = messages.at(-1)?.content;
  const blocks = Array.isArray(content) ? (content as Array<{ type: string; content?: unknown }>) : [];
  const result = blocks.findLast((block) => block.type === "tool_result");
  const inner = result?.content;
  if (typeof inner === "string") return inner;
  return JSON.stringify(inner ?? "");
}

/** Gone: `kill -0` fails, or only a zombie waiting to be reaped is left. */
async function gone(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return true;
  }
  return !(await isProcessAlive(pid));
}

/** Live (not zombie) processes of this machine whose process group is `group`, from /proc. */
async function groupMembers(group: number): Promise<number[]> {
  const members: number[] = [];
  for (const name of await readdir("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const stat = await readFile(`/proc/${name}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (fields[0] !== "Z" && Number(fields[2]) === group) members.push(Number(name));
  }
  return members;
}

async function eventually(check: () => Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

const SERVER = `node -e "
const http = require('http');
const server = http.createServer((q, r) => { console.log('hit ' + q.url); r.end('pong from background'); });
server.listen(0, '127.0.0.1', () => {
  require('fs').writeFileSync('port.txt', String(server.address().port));
  console.log('listening');
});"`;
const CLIENT = `for i in $(seq 100); do [ -s port.txt ] && break; sleep 0.1; done; node -e "
fetch('http://127.0.0.1:' + require('fs').readFileSync('port.txt', 'utf8') + '/ping').then((r) => r.text()).then(console.log)"`;

describe("Bash run_in_background", () => {
  // Mutation caught: without a process group of its own, TaskStop's group kill fails and the server stays.
  it("a background server answers a later Bash; Read shows its output; TaskStop stops its group", async () => {
    let taskId = "";
    let outputFile = "";
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "Bash", input: { command: SERVER, run_in_background: true } }] },
      (request: EmulatorRequest) => {
        const text = lastToolResult(request);
        taskId = /with ID: (\S+)\./.exec(text)?.[1] ?? "";
        outputFile = /written to: (\S+)/.exec(text)?.[1] ?? "";
        return { content: [{ type: "tool_use" as const, name: "Bash", input: { command: CLIENT } }] };
      },
      () => ({ content: [{ type: "tool_use" as const, name: "Read", input: { file_path: outputFile } }] }),
      { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:TaskStop" } }] },
      () => ({ content: [{ type: "tool_use" as const, name: "TaskStop", input: { task_id: taskId } }] }),
      "Stopped.",
    ];
    // Unsandboxed: each sandboxed command has its own network namespace (docs/TOOLS.md "Background work").
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    const started = Date.now();
    expect(turnEnd(await collect(harness.engine.submitMessage("start the server"))).reason).toBe("completed");
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(taskId).toBe("bash_1");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    // The later foreground Bash reached the server started in the background.
    expect(lastToolResult(posts[2]?.body)).toContain("pong from background");
    // Read of the task's output file (outside the workspace) shows what the server printed.
    const read = lastToolResult(posts[3]?.body);
    expect(read).toContain("listening");
    expect(read).toContain("hit /ping");
    expect(lastToolResult(posts[5]?.body)).toContain("Successfully stopped task: bash_1");
    const port = Number(await readFile(path.join(harness.workspace, "port.txt"), "utf8"));
    const after = await fetch(`http://127.0.0.1:${port}/`).then(
      () => "answered",
      () => "refused",
    );
    expect(after).toBe("refused");
  });

  // Mutation caught: engine.close() not stopping background tasks leaves the sleep running.
  it("every process a background command started is gone after the session closes", async () => {
    const command = "echo $$ > group.pid; sleep 300 & echo $! > sleep.pid; wait";
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "Bash", input: { command, run_in_background: true } }] },
      "Started.",
    ];
    // Unsandboxed, so the pids the command records are this machine's (bwrap gives it its own pid namespace).
    harness = await startHarness({ scenario }, { sandbox: false });
    expect(turnEnd(await collect(harness.engine.submitMessage("sleep"))).reason).toBe("completed");
    const pidFile = (name: string) => path.join(harness?.workspace ?? "", name);
    expect(await eventually(async () => (await readFile(pidFile("sleep.pid"), "utf8").catch(() => "")) !== "")).toBe(
      true,
    );
    const shell = Number(await readFile(pidFile("group.pid"), "utf8"));
    const sleeper = Number(await readFile(pidFile("sleep.pid"), "utf8"));
    // Still running after the turn ended: it is detached from the turn.
    expect(await isProcessAlive(sleeper)).toBe(true);
    await harness.close();
    harness = undefined;
    expect(await eventually(() => gone(sleeper))).toBe(true);
    expect(await eventually(() => gone(shell))).toBe(true);
  });

  it("with the session's default sandbox too, no process of the task's group is left after close", async () => {
    const scenario = [
      {
        content: [
          {
            type: "tool_use" as const,
            name: "Bash",
            input: { command: "sleep 300 & sleep 301; wait", run_in_background: true },
          },
        ],
      },
      "Started.",
    ];
    harness = await startHarness({ scenario });
    await collect(harness.engine.submitMessage("sleep"));
    const first = harness.engine.toolRuntime.background?.list()[0];
    const group = first?.kind === "command" ? first.pid : 0;
    expect(await eventually(async () => (await groupMembers(group)).length >= 2)).toBe(true);
    await harness.close();
    harness = undefined;
    expect(await eventually(async () => (await groupMembers(group)).length === 0)).toBe(true);
  });

  // Mutation caught: no exit listener leaves the sleep orphaned when the process exits without close().
  it("a process that exits without closing the session takes its background groups with it", async () => {
    const directory = await makeTempDirectory("bg-exit");
    const script = path.join(directory, "child.mts");
    const module = path.resolve("src/tools/shell/background-tasks.ts");
    await writeFile(
      script,
      `import { BackgroundTasks } from ${JSON.stringify(module)};
const tasks = new BackgroundTasks();
tasks.start({ command: "sleep 300 & echo $! > sleep.pid; wait", cwd: ${JSON.stringify(directory)}, env: { PATH: process.env.PATH ?? "" }, timeoutMs: 600000 });
setTimeout(() => process.exit(0), 500);
`,
    );
    const child = spawn(process.execPath, ["--import", "tsx", script], { stdio: "ignore" });
    await new Promise((resolve) => child.on("exit", resolve));
    const sleeper = Number(await readFile(path.join(directory, "sleep.pid"), "utf8"));
    expect(sleeper).toBeGreaterThan(0);
    expect(await eventually(() => gone(sleeper))).toBe(true);
  });

  it("TaskStop on an unknown id is one line and stops nothing", async () => {
    const scenario = [
      { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:TaskStop" } }] },
      { content: [{ type: "tool_use" as const, name: "TaskStop", input: { task_id: "bash_9" } }] },
      "Nothing.",
    ];
    harness = await startHarness({ scenario }, { deferredTools: true });
    await collect(harness.engine.submitMessage("stop it"));
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    expect(lastToolResult(posts[2]?.body)).toBe(
      "No background task with ID bash_9; nothing was stopped. This session has no background tasks.",
    );
  });

  it("Bash's fields are Claude Code 2.1.328's, from the recorded fixture (dangerouslyDisableSandbox aside)", () => {
    const fixture = JSON.parse(readFileSync("test/fixtures/claude-code-tools.json", "utf8")) as {
      tools: Array<{ name: string; input_schema: { properties: Record<string, { type: string }> } }>;
    };
    const theirs = fixture.tools.find((tool) => tool.name === "Bash")?.input_schema.properties ?? {};
    const ours = (z.toJSONSchema(bashTool.inputSchema) as { properties: Record<string, { type: string }> }).properties;
    const types = (fields: Record<string, { type: string }>) =>
      Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, field.type]));
    const { dangerouslyDisableSandbox: _sandboxOverride, ...expected } = types(theirs);
    expect(types(ours)).toEqual(expected);
  });

  // Mutation caught: finished tasks never drained into the loop, the model is not told (no notification sent).
  it("a background command that ends is told to the model at its next request, once, as Claude Code words it", async () => {
    const bash = (command: string, description: string) => ({
      content: [{ type: "tool_use" as const, name: "Bash", input: { command, description, run_in_background: true } }],
    });
    const scenario = [
      bash("echo finished-output", "print a word"),
      bash("exit 3", "fail on purpose"),
      { content: [{ type: "tool_use" as const, name: "Bash", input: { command: "sleep 1" } }] },
      "Both ended.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false });
    expect(turnEnd(await collect(harness.engine.submitMessage("run two"))).reason).toBe("completed");
    const posts = harness.emulator.requests.filter((entry) => entry.path === "/v1/messages");
    const last = JSON.stringify((posts.at(-1)?.body as { messages?: unknown[] } | undefined)?.messages);
    const count = (text: string) => last.split(text).length - 1;
    expect(count("<task-id>bash_1</task-id>")).toBe(1);
    expect(count("<task-id>bash_2</task-id>")).toBe(1);
    expect(last).toContain('<summary>Background command \\"print a word\\" completed (exit code 0)</summary>');
    expect(last).toContain("<status>failed</status>");
    expect(last).toContain('<summary>Background command \\"fail on purpose\\" failed with exit code 3</summary>');
    expect(last).toContain("Read the output file to retrieve the result: ");
    // Told at a request, never before the command ended: the first request (before any command) has none.
    expect(JSON.stringify(posts[0]?.body)).not.toContain("task-notification");
  });

  it("TaskStop has Claude Code 2.1.328's fields (sdk-tools.d.ts TaskStopInput)", () => {
    const schema = z.toJSONSchema(taskStopTool.inputSchema) as {
      properties: Record<string, { type: string }>;
      required?: string[];
    };
    expect(Object.fromEntries(Object.entries(schema.properties).map(([name, field]) => [name, field.type]))).toEqual({
      task_id: "string",
      shell_id: "string",
    });
    expect(schema.required ?? []).toEqual([]);
  });
});
