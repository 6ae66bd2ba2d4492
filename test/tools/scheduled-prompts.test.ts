/**
 * CronCreate, CronList, CronDelete and ScheduleWakeup through the engine on the emulator over HTTP, and the
 * interactive REPL's idle wait (cli/modes/idle-prompts.ts) firing them with a clock the test moves: no real
 * waits. The oracle is the emulator's request log (the tool results the model saw, the prompts that fired) and
 * literal times. Outside the interactive loop (print mode, a library session) the tools say plainly that
 * nothing will fire. The schemas are compared with Claude Code 2.1.328's recorded ones.
 */
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { type IdleClock, type IdleInput, IdlePrompts } from "../../src/cli/modes/idle-prompts.js";
import type { PromptReader } from "../../src/cli/modes/questions/permission-prompt.js";
import { deferredBuiltinTools } from "../../src/tools/default-tools.js";
import { ScheduledPrompts } from "../../src/tools/schedule/scheduled-prompts.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";
import { use } from "../../support/scripted-requests.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const load = use("ToolSearch", { query: "select:CronCreate,CronList,CronDelete,ScheduleWakeup" });

/** The text of the last tool_result of each request, in order (what the model saw last). */
function toolResults(h: Harness): string[] {
  return h.emulator.requests
    .filter((entry) => entry.path === "/v1/messages")
    .map((entry) => {
      const messages = (entry.body as { messages: Array<{ content: unknown }> }).messages;
      const content = messages.at(-1)?.content;
      const blocks = Array.isArray(content) ? (content as Array<{ type: string; content?: unknown }>) : [];
      const inner = blocks.findLast((block) => block.type === "tool_result")?.content;
      return typeof inner === "string" ? inner : JSON.stringify(inner ?? "");
    });
}

/** The text of the last user message of each request that was a prompt (a string, or a text block). */
function prompts(h: Harness): string[] {
  return h.emulator.requests
    .filter((entry) => entry.path === "/v1/messages")
    .map((entry) => JSON.stringify((entry.body as { messages: unknown[] }).messages.at(-1)));
}

/** A clock the test moves; timers fire when it passes them. */
class MovableClock implements IdleClock {
  time: number;
  #timers = new Map<number, { at: number; callback: () => void }>();
  #next = 1;
  constructor(start: number) {
    this.time = start;
  }
  now = () => this.time;
  setTimeout = (callback: () => void, ms: number) => {
    const handle = this.#next++;
    this.#timers.set(handle, { at: this.time + ms, callback });
    return handle;
  };
  clearTimeout = (handle: unknown) => {
    this.#timers.delete(handle as number);
  };
  /** Moves time forward by `ms`, firing each timer it passes, in order. */
  async advance(ms: number): Promise<void> {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.#timers.entries()]
        .filter(([, timer]) => timer.at <= until)
        .sort((a, b) => a[1].at - b[1].at);
      const first = due[0];
      if (first === undefined) break;
      this.#timers.delete(first[0]);
      this.time = Math.max(this.time, first[1].at);
      first[1].callback();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.time = until;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The REPL's prompt with nobody typing: it only ends when cancelled (as the idle timer does). */
class SilentReader implements PromptReader {
  #settle: ((line: string | null) => void) | undefined;
  next(): Promise<string | null> {
    return new Promise((resolve) => {
      this.#settle = resolve;
    });
  }
  cancel(answer: string | null): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.(answer);
  }
  get waiting(): boolean {
    return this.#settle !== undefined;
  }
  clearInput(): boolean {
    return false;
  }
  close(): void {}
}

// 2026-03-04 14:00 local, a Wednesday.
const START = new Date(2026, 2, 4, 14, 0, 0).getTime();
const MINUTE = 60_000;

describe("outside the interactive loop (print mode, a library session)", () => {
  // Mutation caught (print-mode-silent): the tool no longer says that nothing will fire.
  it("CronCreate schedules but says plainly it will not fire; ScheduleWakeup schedules nothing", async () => {
    const scenario = [
      load,
      use("CronCreate", { cron: "7 * * * *", prompt: "check the build" }),
      use("ScheduleWakeup", { delaySeconds: 120, reason: "watching CI", prompt: "/loop check", noop: true }),
      use("CronList", {}),
      use("CronDelete", { id: "nope" }),
      use("CronCreate", { cron: "61 * * * *", prompt: "bad" }),
      "Done.",
    ];
    harness = await startHarness({ scenario }, { deferredTools: true, now: () => new Date(START) });
    expect(turnEnd(await collect(harness.engine.submitMessage("schedule"))).reason).toBe("completed");
    const results = toolResults(harness);
    const notFiring =
      "This session is not interactive (print mode), so scheduled prompts will not fire in it: they fire only in an interactive threadline session while it waits for input.";
    expect(results[2]).toMatch(/^Scheduled recurring job [0-9a-f]{8} \(7 \* \* \* \*\)\. Next run: Mar 4 14:07\./);
    expect(results[2]).toContain("Auto-expires after 7 days.");
    expect(results[2]).toContain(notFiring);
    expect(results[3]).toBe(`Nothing was scheduled. ${notFiring}`);
    expect(results[4]).toMatch(
      /^[0-9a-f]{8} — 7 \* \* \* \* \(recurring\) \[session-only\], next run Mar 4 14:07: check the build\n/,
    );
    expect(results[5]).toBe("No scheduled job with id 'nope'; nothing was cancelled.");
    expect(results[6]).toBe(
      'Invalid cron expression "61 * * * *": 61 is out of range 0-59 in the minute field; nothing was scheduled.',
    );
  });
});

describe("in the interactive loop, while idle", () => {
  async function interactive(scenario: unknown[]) {
    const clock = new MovableClock(START);
    harness = await startHarness(
      { scenario: scenario as never },
      { deferredTools: true, now: () => new Date(clock.now()) },
    );
    const schedule = harness.engine.toolRuntime.scheduled;
    if (schedule === undefined) throw new Error("no schedule");
    schedule.firesWhenIdle = true; // as the REPL does for its session
    return { clock, schedule, idle: new IdlePrompts(clock), reader: new SilentReader() };
  }

  /** Starts the idle wait; `settled()` says whether it has ended yet. */
  function wait(idle: IdlePrompts, reader: SilentReader, schedule: Parameters<IdlePrompts["next"]>[2]) {
    let result: IdleInput | undefined;
    const promise = idle.next(reader, "> ", schedule).then((input) => {
      result = input;
      return input;
    });
    return { promise, settled: () => result };
  }

  // Mutation caught (idle-timer-not-armed): nothing fires while the prompt waits. Mutation caught
  // (wakeup-not-clamped): a 5 s wakeup fires at 5 s instead of 60 s.
  it("ScheduleWakeup fires its prompt after the clamped delay, as the next turn", async () => {
    const { clock, schedule, idle, reader } = await interactive([
      load,
      use("ScheduleWakeup", { delaySeconds: 5, reason: "watching CI", prompt: "check CI again", noop: true }),
      "Waiting.",
      "Checked again.",
    ]);
    await collect(harness?.engine.submitMessage("loop") ?? (async function* () {})());
    expect(toolResults(harness as Harness)[2]).toMatch(/^Next wakeup scheduled for 14:01:00 \(in 60s\)\./);
    const waiting = wait(idle, reader, schedule);
    await clock.advance(5_000);
    expect(waiting.settled()).toBeUndefined();
    await clock.advance(55_000);
    // Settled by the clock alone (no input), so no wait for a test timeout when it is not.
    expect(waiting.settled()?.kind).toBe("scheduled");
    const input = await waiting.promise;
    expect(input.kind === "scheduled" && input.job.prompt).toBe("check CI again");
    if (input.kind !== "scheduled") return;
    await collect((harness as Harness).engine.submitMessage(input.job.prompt));
    expect(prompts(harness as Harness).at(-1)).toContain("check CI again");
    expect(schedule.list()).toEqual([]);
  });

  // Mutation caught (one-shot-kept): a one-shot job fires again a day later.
  it("a one-shot job fires once at its minute; a recurring one at each match; CronDelete stops it", async () => {
    const { clock, schedule, idle, reader } = await interactive([
      load,
      // Daily at 14:30, but one-shot: it fires once, never the next day.
      use("CronCreate", { cron: "30 14 * * *", prompt: "remind me", recurring: false }),
      use("CronCreate", { cron: "*/10 * * * *", prompt: "poll the queue" }),
      "Scheduled.",
    ]);
    await collect((harness as Harness).engine.submitMessage("schedule"));
    const results = toolResults(harness as Harness);
    expect(results[2]).toContain("Next run: Mar 4 14:30. ");
    expect(results[2]).not.toContain("will not fire");
    const recurringId = /job ([0-9a-f]{8})/.exec(results[3] ?? "")?.[1] ?? "";

    const fired: string[] = [];
    const collectFor = async (ms: number) => {
      const waiting = wait(idle, reader, schedule);
      await clock.advance(ms);
      const input = waiting.settled();
      if (input?.kind === "scheduled") fired.push(`${new Date(clock.now()).getMinutes()} ${input.job.prompt}`);
      else reader.cancel("typed");
      await waiting.promise;
    };
    await collectFor(10 * MINUTE); // 14:10
    await collectFor(10 * MINUTE); // 14:20
    await collectFor(10 * MINUTE); // 14:30: both due (the older first); one per wait
    await collectFor(0);
    expect(fired).toEqual(["10 poll the queue", "20 poll the queue", "30 remind me", "30 poll the queue"]);
    expect(schedule.list().map((job) => job.prompt)).toEqual(["poll the queue"]);
    expect(schedule.delete(recurringId)).toBe(true);
    fired.length = 0;
    await collectFor(24 * 60 * MINUTE);
    expect(fired).toEqual([]);
  });

  it("a line the person types ends the wait as their input", async () => {
    const { schedule, idle, reader } = await interactive(["Hi."]);
    const waiting = wait(idle, reader, schedule);
    reader.cancel("hello");
    expect(await waiting.promise).toEqual({ kind: "line", line: "hello" });
  });
});

describe("a recurring job's 7 days", () => {
  // Mutation caught (recurring-never-expires): the job keeps firing after its 7 days.
  it("a daily job fires 7 times, the last within its 7 days, then is deleted", () => {
    let now = START; // Wednesday Mar 4 14:00
    const schedule = new ScheduledPrompts({ now: () => now });
    schedule.addCron("0 12 * * *", "daily report", true);
    const fired: number[] = [];
    for (let hour = 0; hour < 14 * 24; hour++) {
      now += 60 * MINUTE;
      for (const job of schedule.takeDue()) fired.push(new Date(job.nextFireAt).getDate());
    }
    // Mar 5 to Mar 11 at noon; Mar 12 12:00 is past Mar 11 14:00, 7 days after it was created.
    expect(fired).toEqual([5, 6, 7, 8, 9, 10, 11]);
    expect(schedule.list()).toEqual([]);
  });
});

describe("schemas match Claude Code 2.1.328's", () => {
  interface Schema {
    properties?: Record<string, { type?: string; default?: unknown }>;
    required?: string[];
  }
  const recorded = [
    ...(
      JSON.parse(readFileSync("test/fixtures/claude-code-schedule-tools.json", "utf8")) as {
        tools: Array<{ name: string; input_schema: Schema }>;
      }
    ).tools,
    ...(
      JSON.parse(readFileSync("test/fixtures/claude-code-tools.json", "utf8")) as {
        tools: Array<{ name: string; input_schema: Schema }>;
      }
    ).tools.filter((tool) => tool.name === "ScheduleWakeup"),
  ];
  const shape = (schema: Schema) => ({
    fields: Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, field]) => [name, field.type])),
    required: [...(schema.required ?? [])].sort(),
  });
  for (const name of ["Monitor", "CronCreate", "CronList", "CronDelete", "ScheduleWakeup"]) {
    it(`${name}: field names, types and required fields; deferred`, () => {
      const ours = deferredBuiltinTools().find((tool) => tool.name === name);
      const theirs = recorded.find((tool) => tool.name === name);
      expect(theirs).toBeDefined();
      expect(ours?.deferLoading).toBe(true);
      expect(shape(z.toJSONSchema(ours?.inputSchema ?? z.object({})) as Schema)).toEqual(
        shape(theirs?.input_schema ?? {}),
      );
    });
  }
});
