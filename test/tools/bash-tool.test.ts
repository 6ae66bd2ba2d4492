import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { INTERRUPTED_MESSAGE, runTool } from "../../src/tools/run-tool.js";
import { bashTool } from "../../src/tools/shell/bash-tool.js";
import {
  BYPASS,
  isProcessAlive,
  makeContext,
  makeTempDirectory,
  outputText,
  removeDirectory,
} from "./tool-test-context.js";

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory();
});
afterEach(() => removeDirectory(workspace));

const bash = (input: Record<string, unknown>, signal?: AbortSignal) =>
  runTool(bashTool, input, makeContext(workspace, signal ? { signal } : {}), BYPASS);

async function readPid(name: string): Promise<number> {
  return Number((await readFile(path.join(workspace, name), "utf8")).trim());
}

/** Starts a shell that backgrounds a long sleep and records both pids. */
const SLEEPER = "sleep 30 & echo $! > child.pid; echo $$ > shell.pid; echo started; wait";

describe("Bash", () => {
  it("runs in the workspace and returns the output", async () => {
    const output = await bash({ command: "pwd && echo hi" });
    expect(output.isError).toBeUndefined();
    expect(output.content).toBe(`${workspace}\nhi`);
  });

  it("interleaves stdout and stderr in arrival order", async () => {
    const output = await bash({ command: "echo out1; sleep 0.2; echo err1 >&2; sleep 0.2; echo out2" });
    expect(output.content).toBe("out1\nerr1\nout2");
  });

  it("reports a non-zero exit as an error containing the output and the code", async () => {
    const output = await bash({ command: "echo oops; echo bad >&2; exit 3" });
    expect(output.isError).toBe(true);
    expect(output.content).toBe("oops\nbad\n\nExit code 3");
  });

  it("keeps the head and tail of huge output and says how much was cut", async () => {
    const output = await bash({ command: "echo START; seq 1 200000; echo END" });
    const text = outputText(output.content);
    expect(text.length).toBeLessThanOrEqual(30_000);
    expect(text.startsWith("START\n1\n2\n")).toBe(true);
    expect(text.endsWith("199999\n200000\nEND")).toBe(true);
    expect(text).toMatch(
      /\.\.\. \[\d+ characters truncated from the middle of \d+; showing the first \d+ and the last \d+\] \.\.\./,
    );
  });

  it("times out, kills the whole process group and says so", { timeout: 20_000 }, async () => {
    const output = await bash({ command: SLEEPER, timeout: 500 });
    expect(output.isError).toBe(true);
    const text = outputText(output.content);
    expect(text).toContain("started");
    expect(text).toContain("Command timed out after 500 ms and was killed with its whole process group");
    const [shell, child] = [await readPid("shell.pid"), await readPid("child.pid")];
    await vi.waitFor(async () => {
      expect(await isProcessAlive(shell)).toBe(false);
      expect(await isProcessAlive(child)).toBe(false);
    });
  });

  it("on abort returns an interrupted result and kills the process group", { timeout: 20_000 }, async () => {
    const controller = new AbortController();
    const pending = bash({ command: SLEEPER }, controller.signal);
    const child = await vi.waitFor(() => readPid("child.pid"), { timeout: 10_000 });
    const shell = await vi.waitFor(() => readPid("shell.pid"), { timeout: 10_000 });
    expect(await isProcessAlive(child)).toBe(true);
    controller.abort();
    const output = await pending;
    expect(output).toEqual({ content: INTERRUPTED_MESSAGE, isError: true });
    await vi.waitFor(async () => {
      expect(await isProcessAlive(shell)).toBe(false);
      expect(await isProcessAlive(child)).toBe(false);
    });
  });

  it("called directly with an aborting signal, reports the interruption itself", { timeout: 20_000 }, async () => {
    const controller = new AbortController();
    const pending = bashTool.call(
      { command: "echo begun; sleep 30" },
      makeContext(workspace, { signal: controller.signal }),
    );
    setTimeout(() => controller.abort(), 300);
    const output = await pending;
    expect(output.isError).toBe(true);
    expect(output.content).toContain("Command interrupted by the user; its process group was killed.");
  });

  it("returns when the shell exits even if a background process holds the output open", {
    timeout: 20_000,
  }, async () => {
    const output = await bash({ command: "sleep 30 & echo bg=$!" });
    const text = outputText(output.content);
    const pid = Number(/bg=(\d+)/.exec(text)?.[1]);
    try {
      expect(output.isError).toBeUndefined();
      expect(text).toContain("processes it started in the background are still running");
      expect(await isProcessAlive(pid)).toBe(true);
    } finally {
      process.kill(pid, "SIGKILL");
    }
  });

  it("clamps the timeout to the maximum and reports progress with the description", async () => {
    const progress: string[] = [];
    const output = await runTool(
      bashTool,
      { command: "true", timeout: 9_000_000, description: "Do nothing" },
      makeContext(workspace, { onProgress: (message) => progress.push(message) }),
      BYPASS,
    );
    expect(output.content).toBe("(no output)");
    expect(progress).toEqual(["Do nothing"]);
  });
});
