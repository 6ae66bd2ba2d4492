/**
 * Monitor: runs a command in the background whose stdout lines reach the model as events (Claude Code 2.1.328's
 * name and schema: `description`, `timeout_ms`, `command`, `ws`). The command is a background task like Bash
 * `run_in_background` (tools/background-tasks.ts): its own process group, stopped by TaskStop, by its timeout, or
 * with the session. Its lines are collected in tools/monitor-events.ts and told at the next request
 * (loop/side/task-notifications.ts). Deferred behind ToolSearch as Claude Code defers it; docs/TOOLS.md "Monitor".
 */
import * as z from "zod";
import { allowedRoots } from "../permissions/workspace-paths.js";
import { defaultToolRuntime, sandboxOf } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { processEnvironmentRefusal, readsProcessEnvironment } from "./process-environ.js";

/** A monitor's run time when `timeout_ms` is not given (Claude Code's default). */
export const DEFAULT_MONITOR_TIMEOUT_MS = 300_000;
/** Longer deadlines are cut to this, as Claude Code 2.1.328's schema says. */
export const MAX_MONITOR_TIMEOUT_MS = 600_000;

export const monitorInputSchema = z.strictObject({
  description: z
    .string()
    .describe("Short human-readable description of what you are monitoring (shown in notifications)."),
  timeout_ms: z
    .number()
    .min(1000)
    .max(3_600_000)
    .default(DEFAULT_MONITOR_TIMEOUT_MS)
    .describe(
      "Kill the monitor after this deadline. Default 300000ms. Deadlines above 600000ms are capped to 600000ms. You are notified at expiry and can re-arm.",
    ),
  command: z
    .string()
    .optional()
    .describe("Shell command or script. Each stdout line is an event; exit ends the watch."),
  ws: z
    .strictObject({
      url: z.string(),
      protocols: z.array(z.string().regex(/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/)).optional(),
    })
    .optional()
    .describe(
      "WebSocket to open. Each text frame is an event; binary frames are reported as a placeholder line. Socket close ends the watch. Cannot be combined with command.",
    ),
});
export type MonitorInput = z.infer<typeof monitorInputSchema>;

const DESCRIPTION = `Start a background monitor that streams events from a long-running command. Each stdout line is an event: you keep working and the lines arrive in the conversation as notifications (all lines since your last request in one notification per monitor). Events are not replies from the user.

- One notification ("tell me when the build finishes") → use Bash with run_in_background and a command that exits when the condition holds; Monitor is for one event per occurrence ("every ERROR line").
- Filter to the lines you would act on, success and failure alike: \`tail -f app.log | grep --line-buffered -E "ERROR|Traceback"\`. Every pipe stage must flush per line (grep --line-buffered, awk fflush()).
- Only stdout is the event stream; stderr goes to the output file (readable with Read). Merge it with 2>&1 when its failures matter.
- Exit ends the watch (the exit code is reported). The monitor is stopped after timeout_ms (default 5 minutes, at most 10): you get one notice with the event count; re-arm if you still need the watch. TaskStop stops it early; it ends with the session.
- The ws source is not available in threadline: use a command that prints one line per message.`;

export const monitorTool: Tool<MonitorInput> = {
  name: "Monitor",
  description: DESCRIPTION,
  inputSchema: monitorInputSchema,
  // It runs a command: asked about like Bash in the default mode, refused in plan mode.
  isReadOnly: () => false,
  compactable: true,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: MonitorInput, context: ToolContext): Promise<ToolOutput> {
    const runtime = context.runtime ?? defaultToolRuntime();
    if (input.ws !== undefined)
      return {
        content:
          "Monitor's ws source is not available in threadline; nothing was started. Use command with a program that prints one line per message.",
        isError: true,
      };
    if (input.command === undefined || input.command.trim() === "")
      return { content: "Monitor needs command; nothing was started.", isError: true };
    const { background, monitorEvents } = runtime;
    if (background === undefined || monitorEvents === undefined)
      return { content: "Monitor needs a session; nothing was started.", isError: true };
    const timeoutMs = Math.min(input.timeout_ms, MAX_MONITOR_TIMEOUT_MS);
    const sandbox = sandboxOf(runtime);
    if (sandbox === undefined && readsProcessEnvironment(input.command))
      return { content: processEnvironmentRefusal("Monitor"), isError: true };
    let taskId = "";
    const task = background.start({
      command: input.command,
      cwd: context.cwd,
      toolUseId: context.toolUseId,
      description: input.description,
      timeoutMs,
      env: runtime.secrets.toolEnv,
      ...(sandbox !== undefined ? { sandbox, writableRoots: allowedRoots(context) } : {}),
      // Called from the pipe's data events, never during start(): the id is known by then.
      onStdout: (chunk) => monitorEvents.push(taskId, chunk),
    });
    taskId = task.id;
    monitorEvents.open(task.id, input.description);
    const seconds = Math.round(timeoutMs / 1000);
    return {
      content:
        `Monitor started (task ${task.id}, expires in ${seconds}s unless the command ends first; you get one notice at expiry — re-arm if you still need the watch). ` +
        "You will be notified of each event at your next request. Keep working — do not poll or sleep. " +
        `Stop it with TaskStop (task_id "${task.id}"). Its output file: ${task.outputFile}`,
      display: { kind: "monitor", taskId: task.id, pid: task.pid, outputFile: task.outputFile },
    };
  },
};
