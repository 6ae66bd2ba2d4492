/**
 * SendMessage: a message to a background agent this session started (Agent `run_in_background`), delivered as a
 * user message at that agent's next request (agent-inbox.ts, loop/side/inbox-messages.ts); a finished agent is resumed
 * with its kept conversation and the message as its next user turn (agent-background.ts, engine/subagent.ts), as
 * Claude Code does ("a send resumes it from its transcript"). Claude Code 2.1.328's name
 * and fields (test/fixtures/claude-code-sendmessage-tool.json) except `notify_when_idle`, which subscribes to
 * another Claude Code session on the machine: threadline has no cross-session messages, agent teams or teammates,
 * so it is left out rather than accepted and ignored (within a session, an agent going idle is its end, which a
 * task notification reports already). Deferred behind ToolSearch as Claude Code defers it.
 * Subagents do not get it (engine/subagent-types.ts): "main" would need a way back into the parent's turn.
 */
import * as z from "zod";
import type { BackgroundJob, BackgroundTasks } from "../shell/background-tasks.js";
import { defaultToolRuntime } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { AGENT_TASK_TYPE } from "./agent-background.js";

// Claude Code's constraints on `to` (one line, at most 300 characters) and `summary` (at most 200).
export const sendMessageInputSchema = z.strictObject({
  to: z
    .string()
    .regex(/^[^\n\r]*$/)
    .max(300)
    .describe("Recipient: a background agent's agentId (the ID Agent with run_in_background returned)"),
  summary: z
    .string()
    .max(200)
    .optional()
    .describe("A 5-10 word label for your own transcript row (not transmitted to the recipient)."),
  message: z.string().default("").describe("Plain text message content."),
});
export type SendMessageInput = z.infer<typeof sendMessageInputSchema>;

const DESCRIPTION = `Send a message to a background agent you started (Agent with run_in_background).

\`\`\`json
{"to": "<agentId>", "summary": "narrow the search", "message": "Only look under src/engine; skip the tests."}
\`\`\`

- \`to\` is the agentId the Agent call returned (ListAgents lists them). A running agent gets the message as a user message at its next model request (one finishing its turn reads it before it ends).
- An agent that has finished is resumed: it goes on with its earlier conversation intact, your message as its next user message, in the background, and you are notified when it completes again. Use this to continue a previous agent's work instead of starting a new Agent.
- Your plain text output is not visible to the agent; this tool is the only way to reach it. There are no teammates, agent teams or other sessions to message here.`;

/** The session's background agents (running and finished), for the error line of a message that reached none. */
function known(background: BackgroundTasks | undefined): string {
  const agents = (background?.list() ?? []).filter(
    (task): task is BackgroundJob => task.kind === "job" && task.taskType === AGENT_TASK_TYPE,
  );
  if (agents.length === 0) return "This session has no background agents.";
  const rows = agents.map((task) => `${task.id} (${task.label}, ${task.state === "running" ? "running" : "finished"})`);
  return `Background agents: ${rows.join(", ")}.`;
}

export const sendMessageTool: Tool<SendMessageInput> = {
  name: "SendMessage",
  description: DESCRIPTION,
  inputSchema: sendMessageInputSchema,
  // It queues text for a run this session started, or resumes one, and touches no file: no one is asked about it.
  isReadOnly: () => true,
  compactable: false,
  traits: { forSubagents: false },
  deferLoading: true,
  async call(input: SendMessageInput, context: ToolContext): Promise<ToolOutput> {
    const background = (context.runtime ?? defaultToolRuntime()).background;
    const to = input.to.trim();
    if (to === "main")
      return {
        content: `"main" is this conversation: only a background agent could send to it; nothing was sent. ${known(background)}`,
        isError: true,
      };
    if (input.message.trim() === "")
      return { content: "SendMessage needs a message; nothing was sent.", isError: true };
    const task = background?.get(to);
    if (background === undefined || task === undefined || task.kind !== "job" || task.inbox === undefined)
      return {
        content: `No background agent with ID ${JSON.stringify(to)}; nothing was sent. ${known(background)}`,
        isError: true,
      };
    const display = {
      kind: "send-message",
      to,
      ...(input.summary !== undefined ? { summary: input.summary } : {}),
    };
    if (task.state === "running" && task.inbox.send(input.message))
      return {
        content: `Message queued for agent ${to} (${task.label}); it arrives as a user message at the agent's next request.`,
        display,
      };
    // It has finished (or is finishing: its inbox closed, its result not yet in): resume it once it has settled.
    await background.settled(to);
    const settled = background.get(to);
    if (settled?.kind !== "job" || settled.resume === undefined)
      return {
        content: `Agent ${to} (${task.label}) has finished and cannot be resumed; nothing was sent. Start a new Agent to continue the work.`,
        isError: true,
      };
    try {
      const resumed = (await settled.resume(input.message, context)) as ToolOutput;
      return resumed.isError === true ? resumed : { ...resumed, display };
    } catch (error) {
      // The runner refused before anything started (its conversation is not kept): one line, nothing sent.
      return { content: `${error instanceof Error ? error.message : String(error)} Nothing was sent.`, isError: true };
    }
  },
};
