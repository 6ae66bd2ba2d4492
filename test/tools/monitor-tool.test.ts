/**
 * Monitor through the engine on the emulator over HTTP, with real processes: its stdout lines reach the model
 * as `<task-notification>` events in a later request (the emulator's request log is the oracle), its end is told
 * once after them, TaskStop stops it, its timeout stops it with one notice, and closing the session leaves no
 * process of it. Claude Code 2.1.328's words are literals here, from the recording in
 * test/fixtures/claude-code-schedule-tools.json's session.
 */
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { BackgroundCommand } from "../../src/tools/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const use = (name: string, input: Record<string, unknown>) => ({
  content: [{ type: "tool_use" as const, name, input }],
});
const load = use("ToolSearch", { query: "select:Monitor,TaskStop" });

/** Every request's messages as JSON text, in order. */
function requestTexts(h: Harness): string[] {
  return h.emulator.requests
    .filter((entry) => entry.path === "/v1/messages")
    .map((entry) => JSON.stringify((entry.body as { messages?: unknown[] }).messages ?? []));
}

/** The `<event>` bodies of a monitor's notifications in the last request, in order. */
function events(text: string, taskId: string): string[] {
  const pattern = new RegExp(
    `<task-id>${taskId}</task-id>\\\\n<summary>Monitor event: [^<]*</summary>\\\\n<event>([^<]*)</event>`,
    "g",
  );
  return [...text.matchAll(pattern)].map((match) => (match[1] ?? "").replaceAll("\\n", "\n"));
}

/** A background command of the session (a monitor is one), not a job. */
function commandTask(h: Harness, id: string): BackgroundCommand | undefined {
  const task = h.engine.toolRuntime.background?.get(id);
  return task?.kind === "command" ? task : undefined;
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

async function eventually(check: () => boolean | Promise<boolean>, ms = 5000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

describe("Monitor", () => {
  // Mutation caught (monitor-events-not-drained): the lines never reach a request.
  it("each stdout line reaches a later request as an event; the end is told once, after the lines", async () => {
    const scenario = [
      load,
      use("Monitor", {
        description: "ticks from a loop",
        timeout_ms: 20000,
        command: "echo one; echo two; sleep 0.3; echo three; echo oops >&2; printf four; exit 3",
      }),
      use("Bash", { command: "sleep 1.5" }),
      "Seen.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("watch it"))).reason).toBe("completed");
    const texts = requestTexts(harness);
    expect(texts[2]).toContain("Monitor started (task monitor_1, expires in 20s");
    const last = texts.at(-1) ?? "";
    // Every stdout line once (the unfinished last one too, once the command is gone); stderr is not an event.
    expect(events(last, "monitor_1").join("\n").split("\n")).toEqual(["one", "two", "three", "four"]);
    expect(last).not.toContain("<event>oops");
    const end = '<summary>Monitor \\"ticks from a loop\\" script failed (exit 3)</summary>';
    expect(last.split(end).length - 1).toBe(1);
    expect(last.indexOf(end)).toBeGreaterThan(last.lastIndexOf("<event>"));
    expect(last).toContain("<status>failed</status>");
    // The output file holds stdout and stderr both, for Read.
    const file = commandTask(harness, "monitor_1")?.outputFile ?? "";
    const output = await readFile(file, "utf8");
    expect(output).toContain("three");
    expect(output).toContain("oops");
    // Before the command started, no request carried a notification.
    expect(texts[1]).not.toContain("task-notification");
  });

  it("TaskStop stops a monitor's whole group; a stopped monitor gets no end notice", async () => {
    const scenario = [
      load,
      use("Monitor", {
        description: "ticker",
        timeout_ms: 60000,
        command: "while true; do echo tick; sleep 0.1; done",
      }),
      use("Bash", { command: "sleep 0.6" }),
      use("TaskStop", { task_id: "monitor_1" }),
      "Stopped.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    await collect(harness.engine.submitMessage("tick"));
    const pid = commandTask(harness, "monitor_1")?.pid ?? 0;
    expect(pid).toBeGreaterThan(0);
    expect(gone(pid)).toBe(true);
    const texts = requestTexts(harness);
    expect(texts[4]).toContain("Successfully stopped task: monitor_1");
    expect(events(texts[3] ?? "", "monitor_1").join("\n")).toContain("tick");
    expect(texts.at(-1)).not.toContain("<status>");
  });

  it("its timeout stops it with one notice counting the events", async () => {
    const scenario = [
      load,
      use("Monitor", { description: "slow", timeout_ms: 1000, command: "echo first; sleep 30" }),
      use("Bash", { command: "sleep 2.5" }),
      "Expired.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    await collect(harness.engine.submitMessage("slow"));
    const last = requestTexts(harness).at(-1) ?? "";
    expect(last).toContain('<summary>Monitor \\"slow\\" stopped</summary>');
    expect(last).toContain("[Monitor expired after 1 events — re-arm it if you still need the watch.]");
  });

  // Mutation caught (monitor-timeout-cap): 900000 ms is cut to 600000, as Claude Code's schema says.
  it("a deadline over 10 minutes is cut to 10 minutes", async () => {
    const scenario = [load, use("Monitor", { description: "long", timeout_ms: 900000, command: "sleep 30" }), "Ok."];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    await collect(harness.engine.submitMessage("long"));
    expect(requestTexts(harness).at(-1)).toContain("expires in 600s");
  });

  it("closing the session leaves no process of a monitor", async () => {
    const command = "sleep 300 & echo $! > sleep.pid; echo started; wait";
    const scenario = [load, use("Monitor", { description: "sleeper", timeout_ms: 60000, command }), "Started."];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    await collect(harness.engine.submitMessage("sleep"));
    const pidFile = path.join(harness.workspace, "sleep.pid");
    expect(await eventually(async () => (await readFile(pidFile, "utf8").catch(() => "")) !== "")).toBe(true);
    const sleeper = Number(await readFile(pidFile, "utf8"));
    const shell = commandTask(harness, "monitor_1")?.pid ?? 0;
    expect(gone(sleeper)).toBe(false);
    await harness.close();
    harness = undefined;
    expect(await eventually(() => gone(sleeper) && gone(shell))).toBe(true);
  });

  it("the ws source and a missing command are one line each, nothing started", async () => {
    const scenario = [
      load,
      use("Monitor", { description: "socket", timeout_ms: 5000, ws: { url: "ws://127.0.0.1:9/x" } }),
      use("Monitor", { description: "nothing", timeout_ms: 5000 }),
      "Ok.",
    ];
    harness = await startHarness({ scenario }, { sandbox: false, deferredTools: true });
    await collect(harness.engine.submitMessage("bad"));
    const texts = requestTexts(harness);
    expect(texts[2]).toContain("Monitor's ws source is not available in threadline; nothing was started.");
    expect(texts[3]).toContain("Monitor needs command; nothing was started.");
    expect(harness.engine.toolRuntime.background?.list()).toEqual([]);
  });
});
