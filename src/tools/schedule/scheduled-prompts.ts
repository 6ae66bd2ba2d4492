/**
 * A session's scheduled prompts: CronCreate's jobs (recurring or one-shot) and ScheduleWakeup's single pending
 * wakeup (docs/TOOLS.md "Scheduled prompts"). This holds the schedule only; nothing here starts a timer or a turn.
 * The interactive REPL asks for what is due while it waits at its prompt (cli/modes/idle-prompts.ts) and sends
 * it as the next prompt; elsewhere (print mode, a library session) `firesWhenIdle` stays false, the tools say
 * plainly that nothing will fire, and the schedule is just a list.
 */
import { randomBytes } from "node:crypto";
import { type CronExpression, nextFireTime, parseCronExpression } from "./cron-expression.js";

/** A recurring job fires for this long after it is created, one final time after, then is deleted (Claude Code). */
export const RECURRING_JOB_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;
/** ScheduleWakeup's delay is clamped to this range of seconds, as its schema says. */
export const WAKEUP_MIN_SECONDS = 60;
export const WAKEUP_MAX_SECONDS = 3600;

export type ScheduledJob =
  | {
      readonly kind: "cron";
      readonly id: string;
      readonly cron: string;
      readonly prompt: string;
      readonly recurring: boolean;
      readonly createdAt: number;
      nextFireAt: number;
    }
  | {
      readonly kind: "wakeup";
      readonly id: string;
      readonly prompt: string;
      readonly reason: string;
      readonly createdAt: number;
      nextFireAt: number;
    };

export interface ScheduledPromptsOptions {
  /** The clock (epoch ms). Default `Date.now`; the engine passes its own (`QueryEngineOptions.now`). */
  now?: () => number;
}

export class ScheduledPrompts {
  readonly #now: () => number;
  readonly #jobs = new Map<string, ScheduledJob>();
  readonly #expressions = new Map<string, CronExpression>();
  #closed = false;
  /** True only while an interactive loop fires due prompts when idle (cli/modes/interactive.ts sets it). */
  firesWhenIdle = false;

  constructor(options: ScheduledPromptsOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  now(): number {
    return this.#now();
  }

  /** Adds a CronCreate job; an expression that is wrong or never matches is an Error naming why. */
  addCron(cron: string, prompt: string, recurring: boolean): ScheduledJob {
    if (this.#closed) throw new Error("the session has ended; nothing can be scheduled");
    const expression = parseCronExpression(cron);
    const now = this.#now();
    const next = nextFireTime(expression, now);
    if (next === undefined) throw new Error(`"${cron}" matches no date in the next 5 years`);
    const job: ScheduledJob = {
      kind: "cron",
      id: this.#newId(),
      cron: expression.source,
      prompt,
      recurring,
      createdAt: now,
      nextFireAt: next,
    };
    this.#jobs.set(job.id, job);
    this.#expressions.set(job.id, expression);
    return job;
  }

  /** Sets the session's one wakeup (a new one replaces the pending one), `delaySeconds` clamped to [60, 3600]. */
  setWakeup(delaySeconds: number, prompt: string, reason: string): ScheduledJob {
    if (this.#closed) throw new Error("the session has ended; nothing can be scheduled");
    this.stopWakeup();
    const seconds = Math.min(WAKEUP_MAX_SECONDS, Math.max(WAKEUP_MIN_SECONDS, delaySeconds));
    const now = this.#now();
    const job: ScheduledJob = {
      kind: "wakeup",
      id: this.#newId(),
      prompt,
      reason,
      createdAt: now,
      nextFireAt: now + Math.round(seconds * 1000),
    };
    this.#jobs.set(job.id, job);
    return job;
  }

  /** Removes the pending wakeup; false when there was none. */
  stopWakeup(): boolean {
    const pending = [...this.#jobs.values()].find((job) => job.kind === "wakeup");
    if (pending === undefined) return false;
    this.#jobs.delete(pending.id);
    return true;
  }

  /** Removes a CronCreate job by id; false when no such job is scheduled. */
  delete(id: string): boolean {
    const job = this.#jobs.get(id);
    if (job?.kind !== "cron") return false;
    this.#jobs.delete(id);
    this.#expressions.delete(id);
    return true;
  }

  /** Every scheduled job, soonest first. */
  list(): ScheduledJob[] {
    return [...this.#jobs.values()].sort((a, b) => a.nextFireAt - b.nextFireAt);
  }

  /** When the soonest job is due (epoch ms); undefined when nothing is scheduled. */
  nextDueAt(): number | undefined {
    return this.list()[0]?.nextFireAt;
  }

  /**
   * The jobs due now, soonest first, each once however many of its times passed unseen. A recurring job moves to
   * its next time after now, or is deleted once past its 7 days; a one-shot job and a wakeup are deleted.
   */
  takeDue(): ScheduledJob[] {
    const now = this.#now();
    const due = this.list().filter((job) => job.nextFireAt <= now);
    // Copies as they fired (the time they were due), before a recurring job moves on.
    const fired = due.map((job) => ({ ...job }));
    for (const job of due) {
      const expression = this.#expressions.get(job.id);
      const next = job.kind === "cron" && job.recurring && expression ? nextFireTime(expression, now) : undefined;
      if (next !== undefined && next <= job.createdAt + RECURRING_JOB_LIFETIME_MS) {
        job.nextFireAt = next;
        continue;
      }
      this.#jobs.delete(job.id);
      this.#expressions.delete(job.id);
    }
    return fired;
  }

  /** The session ended: every job is gone, nothing more can be scheduled. */
  close(): void {
    this.#closed = true;
    this.#jobs.clear();
    this.#expressions.clear();
  }

  #newId(): string {
    let id = randomBytes(4).toString("hex");
    while (this.#jobs.has(id)) id = randomBytes(4).toString("hex");
    return id;
  }
}

/** The local time a job fires, for the model and the person: `Dec 3 07:12` (and the year when not this one). */
export function formatFireTime(epochMs: number, now: number): string {
  const date = new Date(epochMs);
  const month = date.toLocaleString("en-US", { month: "short" });
  const time = `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
  const year = date.getFullYear() !== new Date(now).getFullYear() ? ` ${date.getFullYear()}` : "";
  return `${month} ${date.getDate()}${year} ${time}`;
}
