/**
 * SendMessage: a message to a background agent this session started (Agent `run_in_background`), delivered as a
 * user message at that agent's next request (agent-inbox.ts, loop/inbox-messages.ts). Claude Code 2.1.328's name
 * and fields (test/fixtures/claude-code-sendmessage-tool.json) except `notify_when_idle`, which subscribes to
 * another Claude Code session on the machine: threadline has no cross-session messages, agent teams or teammates,
 * so it is left out rather than accepted and ignored. Deferred behind ToolSearch as Claude Code defers it.
 * Subagents do not get it (engine/subagent-types.ts): "main" would need a way back into the parent's turn.
 */
import * as z from "zod";
import { AGENT_TASK_TYPE } from "./agent-background.js";
import type { BackgroundJob, BackgroundTasks } from "./background-tasks.js";
import { defaultToolRuntime } from "./tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "./types.js";

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

- \`to\` is the agentId the Agent call returned. The agent must still be running: the message is queued and arrives as a user message at its next model request (a running agent finishing its turn reads it before it ends).
- An agent that has finished cannot be messaged: its result came in its task notification. Start a new Agent to continue the work.
- Your plain text output is not visible to the agent; this tool is the only way to reach it. There are no teammates, agent teams or other sessions to message here.`;

/** The running background agents' ids, for the error line of a message that reached none. */
function reachable(background: BackgroundTasks | undefined): string {
  const ids = (background?.list() ?? [])
    .filter((task): task is BackgroundJob => task.kind === "job" && task.taskType === AGENT_TASK_TYPE)
    .filter((task) => task.state === "running" && task.inbox?.closed === false)
    .map((task) => task.id);
  return ids.length > 0 ? `Running background agents: ${ids.join(", ")}.` : "No background agent is running.";
}

export const sendMessageTool: Tool<SendMessageInput> = {
  name: "SendMessage",
  description: DESCRIPTION,
  inputSchema: sendMessageInputSchema,
  // It queues text for a run this session started and touches no file: no one is asked about it.
  isReadOnly: () => true,
  compactable: false,
  deferLoading: true,
  async call(input: SendMessageInput, context: ToolContext): Promise<ToolOutput> {
    const background = (context.runtime ?? defaultToolRuntime()).background;
    const to = input.to.trim();
    if (to === "main")
      return {
        content: `"main" is this conversation: only a background agent could send to it; nothing was sent. ${reachable(background)}`,
        isError: true,
      };
    if (input.message.trim() === "")
      return { content: "SendMessage needs a message; nothing was sent.", isError: true };
    const task = background?.get(to);
    if (task === undefined || task.kind !== "job" || task.inbox === undefined)
      return {
        content: `No background agent with ID ${JSON.stringify(to)}; nothing was sent. ${reachable(background)}`,
        isError: true,
      };
    if (task.state !== "running" || !task.inbox.send(input.message)) {
      const how = task.state === "stopped" ? "was stopped" : "has finished";
      return {
        content: `Agent ${to} (${task.label}) ${how}; nothing was sent. Its result came in its task notification; start a new Agent to continue the work.`,
        isError: true,
      };
    }
    return {
      content: `Message queued for agent ${to} (${task.label}); it arrives as a user message at the agent's next request.`,
      display: { kind: "send-message", to, ...(input.summary !== undefined ? { summary: input.summary } : {}) },
    };
  },
};
