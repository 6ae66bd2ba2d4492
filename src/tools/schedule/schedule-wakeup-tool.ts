/**
 * ScheduleWakeup: one prompt sent again after a delay, for a self-paced loop (Claude Code 2.1.328's name and
 * schema: `delaySeconds`, `reason`, `prompt`, `stop`, `noop`). The wakeup is a one-shot entry in the session's
 * scheduled prompts (tools/scheduled-prompts.ts), fired like a cron job: only in the interactive REPL while it is
 * idle. Deferred behind ToolSearch (Claude Code sends it in the tools block); docs/TOOLS.md "Scheduled prompts".
 */
import * as z from "zod";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { WILL_NOT_FIRE } from "./cron-tools.js";

export const scheduleWakeupInputSchema = z.strictObject({
  delaySeconds: z
    .number()
    .optional()
    .describe("Seconds from now to wake up. Clamped to [60, 3600] by the runtime. Required unless `stop` is true."),
  reason: z
    .string()
    .optional()
    .describe(
      "One short sentence explaining the chosen delay. Goes to telemetry and is shown to the user. Be specific. Required unless `stop` is true.",
    ),
  prompt: z
    .string()
    .optional()
    .describe(
      "The /loop input to fire on wake-up. Pass the same /loop input verbatim each turn so the next firing re-enters the skill and continues the loop. For autonomous /loop (no user prompt), pass the literal sentinel `<<autonomous-loop-dynamic>>` instead (the dynamic-pacing variant, not the CronCreate-mode `<<autonomous-loop>>`). Required unless `stop` is true.",
    ),
  stop: z
    .boolean()
    .optional()
    .describe(
      "Set to true to end the dynamic loop immediately instead of scheduling another wakeup. When true, all other fields are ignored and no further wakeups fire.",
    ),
  noop: z
    .boolean()
    .optional()
    .describe(
      "true = nothing changed (you checked and there is nothing to report). false = something happened worth keeping (edited a file, posted a message, advanced state, surfaced a finding). Consecutive noop:true ticks are collapsed in the user's terminal view and tracked as a streak. Required unless `stop` is true.",
    ),
});
export type ScheduleWakeupInput = z.infer<typeof scheduleWakeupInputSchema>;

const DESCRIPTION = `Schedule when to resume a self-paced loop: \`prompt\` is sent again as the next prompt after \`delaySeconds\` (clamped to [60, 3600]), while the interactive session is idle. One wakeup is pending at a time; a new call replaces it, and \`stop: true\` (other fields omitted) ends the loop.

Do not schedule a short wakeup to poll for background work you started (Bash run_in_background, Monitor): you are told when it ends. Past 300 seconds the prompt cache has expired, so either stay under 270s or wait 1200s or more. \`reason\` is one specific sentence shown to the user; \`noop: true\` says nothing changed this tick. In print mode nothing is scheduled.`;

export const scheduleWakeupTool: Tool<ScheduleWakeupInput> = {
  name: "ScheduleWakeup",
  description: DESCRIPTION,
  inputSchema: scheduleWakeupInputSchema,
  isReadOnly: () => true,
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: ScheduleWakeupInput, context: ToolContext): Promise<ToolOutput> {
    const schedule = context.runtime?.scheduled;
    if (schedule === undefined)
      return { content: "ScheduleWakeup needs a session; nothing was scheduled.", isError: true };
    if (input.stop === true) {
      const stopped = schedule.stopWakeup();
      return {
        content: stopped ? "Loop stopped; no further wakeups will fire." : "No wakeup was pending; none will fire.",
      };
    }
    const missing = (["delaySeconds", "reason", "prompt"] as const).filter((field) => input[field] === undefined);
    if (missing.length > 0)
      return {
        content: `ScheduleWakeup needs ${missing.join(", ")} unless stop is true; nothing was scheduled.`,
        isError: true,
      };
    if (!schedule.firesWhenIdle) return { content: `Nothing was scheduled. ${WILL_NOT_FIRE}` };
    const job = schedule.setWakeup(input.delaySeconds ?? 0, input.prompt ?? "", input.reason ?? "");
    const at = new Date(job.nextFireAt);
    const clock = [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, "0"));
    const seconds = Math.round((job.nextFireAt - schedule.now()) / 1000);
    return {
      content:
        `Next wakeup scheduled for ${clock.join(":")} (in ${seconds}s). If you owe the user a status update this tick, ` +
        "write it now as ordinary response text; then end the turn — the session sends the prompt again when the wakeup fires.",
      display: { kind: "schedule-wakeup", id: job.id, nextFireAt: job.nextFireAt, noop: input.noop },
    };
  },
};
