/**
 * CronCreate, CronList, CronDelete: a session's scheduled prompts (Claude Code 2.1.328's names and schemas:
 * `cron`, `prompt`, `recurring`, `durable`; none; `id`). The schedule is tools/scheduled-prompts.ts; prompts fire
 * only in the interactive REPL while it waits for input (cli/modes/idle-prompts.ts), and the tools say so plainly
 * anywhere else. Deferred behind ToolSearch as Claude Code defers them; docs/TOOLS.md "Scheduled prompts".
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { formatFireTime, type ScheduledJob, type ScheduledPrompts } from "./scheduled-prompts.js";

/** Said whenever something is scheduled where nothing fires (print mode, a library session). */
export const WILL_NOT_FIRE =
  "This session is not interactive (print mode), so scheduled prompts will not fire in it: they fire only in an interactive threadline session while it waits for input.";

export const cronCreateInputSchema = z.strictObject({
  cron: z
    .string()
    .describe(
      'Standard 5-field cron expression in local time: "M H DoM Mon DoW" (e.g. "*/5 * * * *" = every 5 minutes, "30 14 28 2 *" = Feb 28 at 2:30pm local once).',
    ),
  prompt: z.string().describe("The prompt to enqueue at each fire time."),
  recurring: z
    .boolean()
    .optional()
    .describe(
      'true (default) = fire on every cron match until deleted or auto-expired after 7 days. false = fire once at the next match, then auto-delete. Use false for "remind me at X" one-shot requests with pinned minute/hour/dom/month.',
    ),
  durable: z
    .boolean()
    .optional()
    .describe(
      "true = persist to .claude/scheduled_tasks.json and survive restarts. false (default) = in-memory only, dies when this Claude session ends. Use true only when the user asks the task to survive across sessions.",
    ),
});
export type CronCreateInput = z.infer<typeof cronCreateInputSchema>;

export const cronListInputSchema = z.strictObject({});
export type CronListInput = z.infer<typeof cronListInputSchema>;

export const cronDeleteInputSchema = z.strictObject({
  id: z.string().describe("Job ID returned by CronCreate."),
});
export type CronDeleteInput = z.infer<typeof cronDeleteInputSchema>;

const CREATE_DESCRIPTION = `Schedule a prompt to be sent at a future time: recurring, or once.

Uses standard 5-field cron in local time: minute hour day-of-month month day-of-week. "0 9 * * *" means 9am local.
- One-shot ("remind me at 2:30pm today"): pin minute/hour/day-of-month/month, recurring: false; it fires once, then is deleted.
- Recurring (the default): "*/5 * * * *" every 5 minutes, "7 * * * *" hourly, "57 8 * * 1-5" weekdays before 9. When the time asked for is approximate, pick a minute that is not 0 or 30.
- Recurring jobs expire after 7 days (they fire a final time, then are deleted); tell the user.
- Jobs live only in this session (durable is not kept on disk in threadline) and fire only while the interactive session is idle (not mid-turn); in print mode they never fire.
- To watch a log or a process and hear of each change at once, use Monitor instead.

Returns a job ID you can pass to CronDelete.`;

function scheduleOf(context: ToolContext): ScheduledPrompts | undefined {
  return context.runtime?.scheduled;
}

function describeJob(job: ScheduledJob, now: number): string {
  const when = `next run ${formatFireTime(job.nextFireAt, now)}`;
  if (job.kind === "wakeup") return `${job.id} — wakeup (ScheduleWakeup: ${job.reason}), ${when}: ${job.prompt}`;
  return `${job.id} — ${job.cron} (${job.recurring ? "recurring" : "one-shot"}) [session-only], ${when}: ${job.prompt}`;
}

const NO_SESSION = "Scheduled prompts need a session; nothing was scheduled.";

export const cronCreateTool: Tool<CronCreateInput> = {
  name: "CronCreate",
  description: CREATE_DESCRIPTION,
  inputSchema: cronCreateInputSchema,
  // It writes no file and runs nothing now; what it schedules is a prompt, asked about like any other turn.
  isReadOnly: () => true,
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: CronCreateInput, context: ToolContext): Promise<ToolOutput> {
    const schedule = scheduleOf(context);
    if (schedule === undefined) return { content: NO_SESSION, isError: true };
    const recurring = input.recurring ?? true;
    let job: ScheduledJob;
    try {
      job = schedule.addCron(input.cron, input.prompt, recurring);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return { content: `Invalid cron expression "${input.cron}": ${why}; nothing was scheduled.`, isError: true };
    }
    const now = schedule.now();
    const lines = [
      `Scheduled ${recurring ? "recurring job" : "one-shot task"} ${job.id} (${input.cron.trim()}). Next run: ${formatFireTime(job.nextFireAt, now)}.`,
      "Session-only (not written to disk, ends with this session)." +
        (input.durable === true ? " durable is not supported in threadline, so it will not survive a restart." : ""),
      recurring ? "Auto-expires after 7 days. Use CronDelete to cancel sooner." : "It will fire once then auto-delete.",
      ...(schedule.firesWhenIdle ? [] : [WILL_NOT_FIRE]),
    ];
    return { content: lines.join(" "), display: { kind: "cron-create", id: job.id, nextFireAt: job.nextFireAt } };
  },
};

export const cronListTool: Tool<CronListInput> = {
  name: "CronList",
  description: "List the prompts scheduled with CronCreate (and a pending ScheduleWakeup) in this session.",
  inputSchema: cronListInputSchema,
  isReadOnly: () => true,
  compactable: true,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(_input: CronListInput, context: ToolContext): Promise<ToolOutput> {
    const schedule = scheduleOf(context);
    const jobs = schedule?.list() ?? [];
    if (schedule === undefined || jobs.length === 0) return { content: "No scheduled jobs." };
    const now = schedule.now();
    const lines = jobs.map((job) => describeJob(job, now));
    return { content: [...lines, ...(schedule.firesWhenIdle ? [] : [WILL_NOT_FIRE])].join("\n") };
  },
};

export const cronDeleteTool: Tool<CronDeleteInput> = {
  name: "CronDelete",
  description: "Cancel a job scheduled with CronCreate in this session, by the ID CronCreate returned.",
  inputSchema: cronDeleteInputSchema,
  isReadOnly: () => true,
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: CronDeleteInput, context: ToolContext): Promise<ToolOutput> {
    const schedule = scheduleOf(context);
    if (schedule?.delete(input.id) !== true)
      return { content: `No scheduled job with id '${input.id}'; nothing was cancelled.`, isError: true };
    return { content: `Cancelled job ${input.id}.` };
  },
};
