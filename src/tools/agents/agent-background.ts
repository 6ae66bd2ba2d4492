/**
 * Agent `run_in_background` (docs/TOOLS.md "Background work"): the subagent runs as a job of the session's
 * background tasks, the call returns at once with its id (the agent id, Claude Code's task id for an agent), and
 * when the run ends by itself the model is told at its next request with a `<task-notification>` carrying the
 * result (loop/side/task-notifications.ts records it). TaskStop aborts the run; the session's end aborts it too.
 * The run has its own abort controller: interrupting the turn that launched it does not stop it, and its own
 * inbox, where SendMessage queues messages its loop sends at its next request (agent-inbox.ts).
 */

import type { BackgroundJobOutcome } from "../shell/background-tasks.js";
import { defaultToolRuntime } from "../tool-runtime.js";
import type { ToolContext, ToolOutput } from "../types.js";
import { AgentInbox } from "./agent-inbox.js";
import { type AgentRunner, type AgentRunRequest, type AgentRunResult, agentOutput } from "./agent-run.js";

/** Claude Code's task type for a subagent run in the background. */
export const AGENT_TASK_TYPE = "local_agent";

/** What the launch returns, as Claude Code 2.1.328 words it (from its async launch result). */
export function launchText(agentId: string, notices: readonly string[] = []): string {
  return [
    "Async agent launched successfully.",
    `agentId: ${agentId} (This is an internal ID for your use, do not mention it to the user.)`,
    "The agent is working in the background. You will be notified automatically when it completes.",
    "Do not duplicate this agent's work — avoid working with the same files or topics it is using. Work on non-overlapping tasks, or briefly tell the user what you launched and end your response.",
    `To stop it, call TaskStop with task_id "${agentId}".`,
    ...notices,
  ].join("\n");
}

/** The `<task-notification>` of a run that ended by itself; `content` is what a foreground call would return. */
export function agentNotification(
  result: AgentRunResult,
  request: Pick<AgentRunRequest, "description" | "toolUseId">,
  output: ToolOutput,
  durationMs: number,
): BackgroundJobOutcome {
  const completed = result.status === "completed";
  const { usage } = result;
  const totalTokens =
    usage.inputTokens + usage.cacheReadInputTokens + usage.cacheCreationInputTokens + usage.outputTokens;
  const summary = completed
    ? `Agent "${request.description}" completed`
    : `Agent "${request.description}" failed: ${result.error ?? result.status}`;
  const text = typeof output.content === "string" ? output.content : JSON.stringify(output.content);
  return {
    status: completed ? "completed" : "failed",
    notification: [
      "<task-notification>",
      `<task-id>${result.agentId}</task-id>`,
      `<tool-use-id>${request.toolUseId}</tool-use-id>`,
      `<status>${completed ? "completed" : "failed"}</status>`,
      `<summary>${summary}</summary>`,
      `<result>${text}</result>`,
      `<usage><total_tokens>${totalTokens}</total_tokens><tool_uses>${result.toolUseCount}</tool_uses><duration_ms>${durationMs}</duration_ms></usage>`,
      "</task-notification>",
    ].join("\n"),
    ...(output.display !== undefined ? { display: output.display } : {}),
  };
}

/**
 * Starts `run` as a background job and returns the launch result once the run has started (its checks passed:
 * a bad request — an unknown type, no repository for a worktree — is still one error line, and nothing runs).
 */
export async function launchInBackground(
  run: AgentRunner,
  request: AgentRunRequest,
  context: ToolContext,
  agentId: string,
): Promise<ToolOutput> {
  const background = (context.runtime ?? defaultToolRuntime()).background;
  if (background === undefined || background.closed)
    return {
      content: "Background agents need an open session; nothing was started. Call Agent without run_in_background.",
      isError: true,
    };
  const controller = new AbortController();
  const inbox = new AgentInbox();
  const started = Date.now();
  let ready!: (notices: readonly string[]) => void;
  let notices: readonly string[] = [];
  const readied = new Promise<"ready">((resolve) => {
    ready = (said) => {
      notices = said;
      resolve("ready");
    };
  });
  const running = run({
    ...request,
    agentId,
    signal: controller.signal,
    // The turn that launched it is over before the run is: nothing is shown as the tool's progress.
    onProgress: () => {},
    onReady: ready,
    background: true,
    inbox,
  });
  // Whatever way the run ends, nothing more is queued for it (the runner closes it itself when it ends by itself).
  void running.finally(() => inbox.close()).catch(() => undefined);
  // Whichever comes first: the run started, or it settled (a runner that never says it is ready). A bad request
  // rejects before either, and that rejection is this call's error line.
  await Promise.race([readied, running]);
  try {
    background.startJob({
      id: agentId,
      taskType: AGENT_TASK_TYPE,
      label: request.description,
      description: request.description,
      toolUseId: request.toolUseId,
      controller,
      inbox,
      // A message to it once it has finished goes on with its kept conversation, under the same id.
      resume: (message: string, resumeContext: ToolContext) =>
        launchInBackground(
          run,
          { ...request, prompt: message, resume: true, toolUseId: resumeContext.toolUseId },
          resumeContext,
          agentId,
        ),
      done: running.then((result) =>
        agentNotification(result, request, agentOutput(result, request.description), Date.now() - started),
      ),
      failure: (error) => ({
        status: "failed",
        notification: [
          "<task-notification>",
          `<task-id>${agentId}</task-id>`,
          `<tool-use-id>${request.toolUseId}</tool-use-id>`,
          "<status>failed</status>",
          `<summary>Agent "${request.description}" failed: ${error instanceof Error ? error.message : String(error)}</summary>`,
          "</task-notification>",
        ].join("\n"),
      }),
    });
  } catch (error) {
    controller.abort();
    await running.catch(() => undefined);
    return { content: `${(error as Error).message}; nothing was started.`, isError: true };
  }
  if (request.resume === true)
    return {
      content: [
        `Agent ${agentId} (${request.description}) had finished; your message resumed it with its earlier conversation, in the background.`,
        "You will be notified automatically when it completes.",
        `To stop it, call TaskStop with task_id "${agentId}".`,
      ].join("\n"),
      display: { kind: "agent-background", agentId, description: request.description, status: "async_launched" },
    };
  return {
    content: launchText(agentId, notices),
    display: { kind: "agent-background", agentId, description: request.description, status: "async_launched" },
  };
}
