/**
 * TaskStop: stops a background command this session started (Claude Code 2.1.328's name and schema: `task_id`,
 * and the deprecated `shell_id`). Deferred behind ToolSearch as Claude Code defers it (docs/TOOLS.md).
 */
import * as z from "zod";
import { defaultToolRuntime } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";

export const taskStopInputSchema = z.strictObject({
  task_id: z
    .string()
    .optional()
    .describe(
      "The ID of the background task to stop. Agent-team teammates and named background agents are also accepted by agent ID or name.",
    ),
  shell_id: z.string().optional().describe("Deprecated: use task_id instead"),
});
export type TaskStopInput = z.infer<typeof taskStopInputSchema>;

const DESCRIPTION = `Stops a running background task by its ID (the ID Bash or Agent with run_in_background returned).
- A command's whole process group is stopped (SIGTERM, then SIGKILL after a second); its output file stays readable with Read until the session ends.
- A background agent's loop is aborted (its request and tools cancelled); its worktree, if it had one, is kept only when it holds changes.`;

export const taskStopTool: Tool<TaskStopInput> = {
  name: "TaskStop",
  description: DESCRIPTION,
  inputSchema: taskStopInputSchema,
  // It touches only processes this session started, never files: no one is asked about it.
  isReadOnly: () => true,
  compactable: false,
  deferLoading: true,
  async call(input: TaskStopInput, context: ToolContext): Promise<ToolOutput> {
    const id = input.task_id ?? input.shell_id;
    const background = (context.runtime ?? defaultToolRuntime()).background;
    if (id === undefined) return { content: "TaskStop needs task_id; nothing was stopped.", isError: true };
    const known = background?.get(id);
    if (background === undefined || known === undefined) {
      const ids = background?.list().map((task) => task.id) ?? [];
      const which = ids.length > 0 ? `Known tasks: ${ids.join(", ")}.` : "This session has no background tasks.";
      return { content: `No background task with ID ${id}; nothing was stopped. ${which}`, isError: true };
    }
    if (known.state !== "running") {
      const how = known.kind === "command" && known.exitCode !== null ? `exit code ${known.exitCode}` : known.state;
      return { content: `Task ${id} is not running (${how}); nothing was stopped.`, isError: true };
    }
    const task = await background.stop(id);
    if (known.kind === "job") {
      // The stopped run's record (an Agent run's tokens up to the stop) is what this result keeps, so they are
      // counted like any Agent result's; a job without one gets the plain record.
      const display = known.outcome?.display ?? {
        kind: "task-stop",
        taskId: id,
        taskType: known.taskType,
        state: task?.state,
      };
      return { content: `Successfully stopped task: ${id} (${known.label})`, display };
    }
    return {
      content: `Successfully stopped task: ${id} (${known.command})`,
      display: { kind: "task-stop", taskId: id, taskType: "local_bash", state: task?.state },
    };
  },
};
