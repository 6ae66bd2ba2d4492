/**
 * Background work that ended by itself (Bash `run_in_background`: exited, or stopped by its timeout; Agent
 * `run_in_background`: the subagent finished) is told to the model at its next request, as Claude Code does: one
 * `<task-notification>` user message per task (a job's is worded by its owner, tools/agents/agent-background.ts),
 * recorded at the start of an iteration, so it is sent in that request and kept in the transcript (docs/TOOLS.md
 * "Background work"). Only the session's own loop drains them (`QueryContext.taskNotifications`), not a subagent's.
 * Monitor lines are told the same way, one notification per monitor with every line since the last request
 * (docs/TOOLS.md "Monitor"), before the notice of a monitor that ended.
 */
import { createUserEntry } from "../../messages/index.js";
import type { BackgroundCommand, MonitorBatch } from "../../tools/index.js";
import type { EngineEvent } from "../events.js";
import type { TurnState } from "../turn-state.js";

/** Claude Code's notification for a monitor's new stdout lines. */
export function monitorEventText(batch: MonitorBatch): string {
  const more = batch.omitted > 0 ? [`(${batch.omitted} more lines; Read the monitor's output file for them)`] : [];
  return [
    "<task-notification>",
    `<task-id>${batch.taskId}</task-id>`,
    `<summary>Monitor event: "${batch.description}"</summary>`,
    `<event>${[...batch.lines, ...more].join("\n")}</event>`,
    "</task-notification>",
  ].join("\n");
}

/** Claude Code's notice that a monitor ended: its command exited (how), or its timeout stopped it. */
function monitorEndText(task: BackgroundCommand, events: number): string {
  const what = `Monitor "${task.description ?? task.command}"`;
  const exit = ` (exit ${task.exitCode ?? "by a signal"})`;
  const [status, summary] =
    task.state === "timed-out"
      ? ["killed", `${what} stopped`]
      : task.exitCode !== 0
        ? ["failed", `${what} script failed${exit}`]
        : events === 0
          ? ["completed", `${what} ended without producing output${exit}`]
          : ["completed", `${what} stream ended`];
  const expired =
    task.state !== "timed-out"
      ? []
      : events === 0
        ? ["[Monitor timed out with no events delivered — re-arm if needed.]"]
        : [`[Monitor expired after ${events} events — re-arm it if you still need the watch.]`];
  return endedNotification(task, status, summary, expired);
}

/** The `<task-notification>` of a command that ended, with what follows it (`after`, one line each). */
function endedNotification(task: BackgroundCommand, status: string, summary: string, after: readonly string[]): string {
  return [
    "<task-notification>",
    `<task-id>${task.id}</task-id>`,
    ...(task.toolUseId !== undefined ? [`<tool-use-id>${task.toolUseId}</tool-use-id>`] : []),
    `<output-file>${task.outputFile}</output-file>`,
    `<status>${status}</status>`,
    `<summary>${summary}</summary>`,
    "</task-notification>",
    ...after,
  ].join("\n");
}

/** Claude Code's notification text for a finished background command (`events`: a monitor's line count). */
export function taskNotificationText(task: BackgroundCommand, events = 0): string {
  if (task.monitor === true) return monitorEndText(task, events);
  const what = `Background command "${task.description ?? task.command}"`;
  const status = task.state === "timed-out" ? "killed" : task.exitCode === 0 ? "completed" : "failed";
  const summary =
    task.state === "timed-out"
      ? `${what} was stopped when its timeout ran out`
      : task.exitCode === 0
        ? `${what} completed (exit code 0)`
        : `${what} failed with exit code ${task.exitCode ?? "unknown (killed by a signal)"}`;
  return endedNotification(task, status, summary, [`Read the output file to retrieve the result: ${task.outputFile}`]);
}

/** Records one notification per task that ended since the last request; yields them for the person. */
export function* notifyFinishedTasks(turn: TurnState): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.taskNotifications !== true) return;
  const runtime = context.toolRuntime;
  const finished = runtime?.background?.takeFinished() ?? [];
  const monitors = runtime?.monitorEvents;
  const ended = new Set(finished.map((task) => task.id));
  // A job's display (an Agent run's totals) is recorded with it, so the run's tokens are counted like a foreground
  // Agent result's (engine/subagent-usage.ts).
  const notices: { text: string; display?: unknown }[] = [
    ...(monitors?.take(ended).map((batch) => ({ text: monitorEventText(batch) })) ?? []),
    ...finished.map((task) =>
      task.kind === "command"
        ? { text: taskNotificationText(task, monitors?.count(task.id) ?? 0) }
        : { text: task.outcome?.notification ?? "", display: task.outcome?.display },
    ),
  ];
  for (const { text, display } of notices) {
    const entry = createUserEntry(recorder.context(), text, {
      isMeta: true,
      ...(display !== undefined ? { toolUseResult: display } : {}),
    });
    recorder.append(entry);
    yield { type: "entry", entry };
  }
}
