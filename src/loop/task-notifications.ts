/**
 * Background work that ended by itself (Bash `run_in_background`: exited, or stopped by its timeout; Agent
 * `run_in_background`: the subagent finished) is told to the model at its next request, as Claude Code does: one
 * `<task-notification>` user message per task (a job's is worded by its owner, tools/agent-background.ts),
 * recorded at the start of an iteration, so it is sent in that request and kept in the transcript (docs/TOOLS.md
 * "Background work"). Only the session's own loop drains them (`QueryContext.taskNotifications`), not a subagent's.
 */
import { createUserEntry } from "../messages/index.js";
import type { BackgroundCommand } from "../tools/index.js";
import type { EngineEvent } from "./events.js";
import type { TurnState } from "./turn-state.js";

/** Claude Code's notification text for a finished background command. */
export function taskNotificationText(task: BackgroundCommand): string {
  const what = `Background command "${task.description ?? task.command}"`;
  const status = task.state === "timed-out" ? "killed" : task.exitCode === 0 ? "completed" : "failed";
  const summary =
    task.state === "timed-out"
      ? `${what} was stopped when its timeout ran out`
      : task.exitCode === 0
        ? `${what} completed (exit code 0)`
        : `${what} failed with exit code ${task.exitCode ?? "unknown (killed by a signal)"}`;
  return [
    "<task-notification>",
    `<task-id>${task.id}</task-id>`,
    ...(task.toolUseId !== undefined ? [`<tool-use-id>${task.toolUseId}</tool-use-id>`] : []),
    `<output-file>${task.outputFile}</output-file>`,
    `<status>${status}</status>`,
    `<summary>${summary}</summary>`,
    "</task-notification>",
    `Read the output file to retrieve the result: ${task.outputFile}`,
  ].join("\n");
}

/** Records one notification per task that ended since the last request; yields them for the person. */
export function* notifyFinishedTasks(turn: TurnState): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.taskNotifications !== true) return;
  for (const task of context.toolRuntime?.background?.takeFinished() ?? []) {
    const text = task.kind === "command" ? taskNotificationText(task) : (task.outcome?.notification ?? "");
    // A job's display (an Agent run's totals) is recorded with it, so the run's tokens are counted like a
    // foreground Agent result's (engine/subagent-usage.ts).
    const display = task.kind === "job" ? task.outcome?.display : undefined;
    const entry = createUserEntry(recorder.context(), text, {
      isMeta: true,
      ...(display !== undefined ? { toolUseResult: display } : {}),
    });
    recorder.append(entry);
    yield { type: "entry", entry };
  }
}
