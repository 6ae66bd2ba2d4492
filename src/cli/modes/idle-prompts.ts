/**
 * Scheduled prompts (CronCreate, ScheduleWakeup: tools/scheduled-prompts.ts) fire here, and only here: while the
 * interactive REPL waits at its prompt. The wait for the person's next line is armed with a timer for the
 * soonest job; when it comes due first, the prompt is withdrawn and the job's prompt is taken as if typed (a
 * `/command` runs that command), as Claude Code fires jobs only while its REPL is idle. A turn in progress is never interrupted: a job that
 * came due during it fires at the next wait. docs/TOOLS.md "Scheduled prompts".
 */
import type { PauseClock } from "../../engine/engine-options.js";
import { REAL_CLOCK } from "../../engine/pause-keeper.js";
import type { ScheduledJob, ScheduledPrompts } from "../../tools/index.js";
import type { PromptReader } from "./questions/permission-prompt.js";

/** The clock the wait uses: the pause keeper's (real timers unref'd); the engine's `now` and this must agree. */
export type IdleClock = PauseClock;

/** Real time, with timers that never keep a finished process alive (the pause keeper's clock). */
export const REAL_IDLE_CLOCK: IdleClock = REAL_CLOCK;

/** Timers are armed for at most this long, then re-armed (setTimeout's limit is about 24.8 days). */
const LONGEST_TIMER_MS = 60 * 60 * 1000;

/** What ended the wait: the person's line (null at the end of input), or a scheduled job come due. */
export type IdleInput = { kind: "line"; line: string | null } | { kind: "scheduled"; job: ScheduledJob };

/** The line shown when a job fires. */
export function scheduledLine(job: ScheduledJob): string {
  return `⏰ Scheduled prompt (job ${job.id}): ${job.prompt}`;
}

export class IdlePrompts {
  readonly #clock: IdleClock;
  readonly #announce: ((job: ScheduledJob) => void) | undefined;
  /** Jobs that came due together; the rest wait here for the following waits, one turn each. */
  #queue: ScheduledJob[] = [];
  /** Set while a due job has withdrawn the prompt, so the reader's answer is not taken for the person's. */
  #firing = false;

  /** `announce` is told of each job as it fires (the REPL prints `scheduledLine`). */
  constructor(clock: IdleClock = REAL_IDLE_CLOCK, announce?: (job: ScheduledJob) => void) {
    this.#clock = clock;
    this.#announce = announce;
  }

  /** Waits for the person's next line, unless a job of `schedule` comes due first. */
  async next(reader: PromptReader, prompt: string, schedule: ScheduledPrompts | undefined): Promise<IdleInput> {
    const queued = this.#take(schedule);
    if (queued !== undefined) return { kind: "scheduled", job: queued };
    let handle: unknown;
    const arm = () => {
      const due = schedule?.nextDueAt();
      if (due === undefined) return;
      const wait = Math.min(Math.max(0, due - this.#clock.now()), LONGEST_TIMER_MS);
      handle = this.#clock.setTimeout(() => {
        handle = undefined;
        if ((schedule?.nextDueAt() ?? Number.POSITIVE_INFINITY) > this.#clock.now()) return arm();
        this.#firing = true;
        reader.cancel(null);
      }, wait);
    };
    if (schedule?.firesWhenIdle === true) arm();
    try {
      const line = await reader.next(prompt);
      if (!this.#firing) return { kind: "line", line };
    } finally {
      if (handle !== undefined) this.#clock.clearTimeout(handle);
      this.#firing = false;
    }
    const job = this.#take(schedule);
    return job !== undefined ? { kind: "scheduled", job } : this.next(reader, prompt, schedule);
  }

  #take(schedule: ScheduledPrompts | undefined): ScheduledJob | undefined {
    if (schedule?.firesWhenIdle === true) this.#queue.push(...schedule.takeDue());
    const job = this.#queue.shift();
    if (job !== undefined) this.#announce?.(job);
    return job;
  }
}
