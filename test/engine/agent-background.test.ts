/**
 * Agent `run_in_background` through the engine on the emulator over HTTP: the call returns while the subagent is
 * still waiting for its first answer, the result comes back as a `<task-notification>` at a later request of the
 * parent, TaskStop aborts the run, closing the session aborts it (and removes its clean worktree), and the run's
 * tokens are counted with the parent's records. Oracles: the emulator's logged requests, the sidechain file, git.
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { EmulatorRequest, ScenarioStep } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { subagentUsage } from "../../src/engine/subagent.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { eventually, isSubagent, lastToolResult, use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
const releases: Array<() => void> = [];
afterEach(async () => {
  for (const release of releases.splice(0)) release();
  await harness?.close();
  harness = undefined;
});

/** A promise and its resolve, released at the latest when the test ends (so no request is left hanging). */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  releases.push(open);
  return { opened, open };
}

const launchedId = (text: string) => /agentId: ([0-9a-f]{16})/.exec(text)?.[1] ?? "";

describe("Agent run_in_background", () => {
  // Mutations caught: agent-background-waits (the call runs in the foreground: the subagent's request is held
  // until the parent's second request, which then never comes in time), agent-background-notification (the finished
  // run is not told), agent-background-usage (the notification records no run totals: its tokens are not counted).
  it("returns at once; the result arrives as a task-notification at a later request; its tokens are counted", async () => {
    const parentSecond = gate();
    let launchWasFirst = false;
    const parent: EmulatorRequest[] = [];
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        // Held until the parent has its launch result back: a call that waited for the run never gets there.
        launchWasFirst = await Promise.race([
          parentSecond.opened.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 3_000)),
        ]);
        return "BG-RESULT: 42 words.";
      }
      parent.push(request);
      if (parent.length === 1)
        return use("Agent", { description: "Count words", prompt: "count them", run_in_background: true });
      if (parent.length === 2) {
        parentSecond.open();
        // The next request is made after the run ended, so it must carry the notification.
        const id = launchedId(lastToolResult(request));
        const background = harness!.engine.toolRuntime.background!;
        await eventually(() => background.get(id)?.state === "exited");
        return use("Read", { file_path: "README.md" });
      }
      return "All reported.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) });
    expect(turnEnd(await collect(harness.engine.submitMessage("count in the background"))).reason).toBe("completed");
    expect(launchWasFirst).toBe(true);

    const launch = lastToolResult(parent[1]!);
    expect(launch).toContain("Async agent launched successfully.");
    const id = launchedId(launch);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(JSON.stringify(parent[1]!.messages)).not.toContain("task-notification");
    const last = JSON.stringify(parent[2]!.messages);
    expect(last.split("<task-notification>").length - 1).toBe(1);
    expect(last).toContain(`<task-id>${id}</task-id>`);
    expect(last).toContain("<status>completed</status>");
    expect(last).toContain('<summary>Agent \\"Count words\\" completed</summary>');
    expect(last).toContain("<result>BG-RESULT: 42 words.</result>");
    expect(last).toMatch(/<usage><total_tokens>[1-9]\d*<\/total_tokens><tool_uses>0<\/tool_uses>/);

    // Counted with the parent's records as a foreground run is: one request, its tokens, its description.
    const usage = subagentUsage(harness.engine.timeline.entries).find((each) => each.agentId === id);
    expect(usage?.requests).toBe(1);
    expect(usage?.description).toBe("Count words");
    expect((usage?.inputTokens ?? 0) + (usage?.cacheCreationInputTokens ?? 0)).toBeGreaterThan(0);
  });

  // Mutation caught: agent-job-stop-aborts (TaskStop does not abort the run: it waits on a request never answered).
  it("TaskStop aborts the run: its request is cancelled, and no notification follows", async () => {
    const held = gate();
    let arrived = false;
    let id = "";
    const parent: EmulatorRequest[] = [];
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        arrived = true;
        await held.opened; // never answered while the test runs: only cancellation ends it
        return "too late";
      }
      parent.push(request);
      if (parent.length === 1)
        return use("Agent", { description: "Wait forever", prompt: "wait", run_in_background: true });
      if (parent.length === 2) {
        id = launchedId(lastToolResult(request));
        await eventually(() => arrived);
        return use("ToolSearch", { query: "select:TaskStop" });
      }
      if (parent.length === 3) return use("TaskStop", { task_id: id });
      if (parent.length === 4) return use("Read", { file_path: "README.md" });
      return "Stopped.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 8 }, () => router) }, { deferredTools: true });
    expect(turnEnd(await collect(harness.engine.submitMessage("start and stop"))).reason).toBe("completed");
    expect(lastToolResult(parent[3]!)).toBe(`Successfully stopped task: ${id} (Wait forever)`);
    expect(harness.engine.toolRuntime.background?.get(id)?.state).toBe("stopped");
    // The run's loop saw its request cancelled and recorded it in its sidechain.
    const sidechain = harness.engine.transcriptPath!.replace(/\.jsonl$/, `/subagents/agent-${id}.jsonl`);
    expect(await readFile(sidechain, "utf8")).toContain("[Request interrupted by user]");
    expect(JSON.stringify(parent.at(-1)!.messages)).not.toContain("<task-notification>");
  });

  // Mutation caught: agent-job-close (closing the session leaves the run going: its request stays open, its worktree
  // stays on disk).
  it("closing the session aborts a running background agent and removes its clean worktree", async () => {
    const held = gate();
    let arrived = false;
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        arrived = true;
        await held.opened;
        return "too late";
      }
      if (request.messages.length === 1)
        return use("Agent", {
          description: "Long job",
          prompt: "work",
          run_in_background: true,
          isolation: "worktree",
        });
      return "Launched.";
    };
    harness = await startHarness({ scenario: Array.from({ length: 6 }, () => router) }, { sandbox: false });
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.com", ...args], {
        cwd: harness!.workspace,
        encoding: "utf8",
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "start");
    expect(turnEnd(await collect(harness.engine.submitMessage("launch"))).reason).toBe("completed");
    expect(await eventually(() => arrived)).toBe(true);
    const background = harness.engine.toolRuntime.background!;
    const job = background.list()[0]!;
    expect(job.state).toBe("running");
    expect(git("worktree", "list", "--porcelain")).toContain(`.claude/worktrees/agent-${job.id}`);
    const transcript = harness.engine.transcriptPath!;
    await harness.engine.close();
    expect(background.get(job.id)?.state).toBe("stopped");
    const sidechain = transcript.replace(/\.jsonl$/, `/subagents/agent-${job.id}.jsonl`);
    expect(await readFile(sidechain, "utf8")).toContain("[Request interrupted by user]");
    const main = await realpath(harness.workspace);
    expect(git("worktree", "list", "--porcelain").trim().split("\n")[0]).toBe(`worktree ${main}`);
    expect(git("worktree", "list", "--porcelain")).not.toContain("agent-");
    expect(git("branch", "--format=%(refname:short)").trim()).toBe("main");
  });
  // Mutation caught: agent-background-asks (a background run's calls ask the person between other turns).
  it("a background run asks no one: a call that needs approval is refused, and the person's ask is never called", async () => {
    const asked: string[] = [];
    const subagent: EmulatorRequest[] = [];
    let parentRequests = 0;
    const router: ScenarioStep = async (request) => {
      if (isSubagent(request)) {
        subagent.push(request);
        return subagent.length === 1
          ? use("Write", { file_path: "bg.txt", content: "from the background\n" })
          : "Done.";
      }
      parentRequests++;
      if (parentRequests === 1)
        return use("Agent", { description: "Write a file", prompt: "write", run_in_background: true });
      const background = harness!.engine.toolRuntime.background!;
      await eventually(() => background.list().every((task) => task.state !== "running"));
      return "Launched.";
    };
    harness = await startHarness(
      { scenario: Array.from({ length: 6 }, () => router) },
      {
        permission: {
          mode: "default",
          ask: async (question) => {
            asked.push(question.tool);
            return true;
          },
        },
      },
    );
    expect(turnEnd(await collect(harness.engine.submitMessage("write in the background"))).reason).toBe("completed");
    expect(asked).toEqual([]);
    expect(existsSync(path.join(harness.workspace, "bg.txt"))).toBe(false);
    expect(lastToolResult(subagent[1]!)).toContain('permission mode "default" has no way to ask the user');
  });
});
