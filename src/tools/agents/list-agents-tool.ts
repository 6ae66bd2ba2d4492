/**
 * ListAgents: the agents this session can SendMessage to — its background agents (Agent `run_in_background`),
 * running and finished — one row each, in the order they started, a page at a time (docs/TOOLS.md, "ListAgents").
 * Claude Code 2.1.328's name and schema (test/fixtures/claude-code-tools.json); in the main tools block, as Claude
 * Code sends it. `channel` and `q` are "Not available in this build; leave unset" in Claude Code's own schema:
 * threadline has no channels or other sessions to search either, so a value in them is refused with one line
 * rather than silently ignored (the model asked for a filter it would not get).
 */
import * as z from "zod";
import type { BackgroundJob } from "../shell/background-tasks.js";
import { defaultToolRuntime } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { AGENT_TASK_TYPE } from "./agent-background.js";

/** Rows per page; the last line of a fuller listing names the cursor of the next page. */
export const DEFAULT_LIST_AGENTS_PAGE_SIZE = 20;

export const listAgentsInputSchema = z.strictObject({
  channel: z.string().max(256).optional().describe("Not available in this build; leave unset."),
  q: z.string().max(256).optional().describe("Not available in this build; leave unset."),
  cursor: z
    .string()
    .max(256)
    .optional()
    .describe("The cursor the last line of a long listing gave, for its next page. Omit to list from the start."),
});
export type ListAgentsInput = z.infer<typeof listAgentsInputSchema>;

const DESCRIPTION = `Lists the agents you can SendMessage to: the background agents this session started (Agent with run_in_background), running and finished. Each row leads with the agent's ID, which is its address: send with \`SendMessage({to: "<agentId>", message: "..."})\`. A finished agent is resumed by a message. There are no teammates, other sessions or cloud sessions here. A long listing comes in pages: for the next one, pass the \`cursor\` its last line gives.`;

/** How a job's row names its state: running, or how it ended. */
function status(task: BackgroundJob): string {
  if (task.state === "running") return "running";
  if (task.state === "stopped") return "stopped";
  return task.outcome?.status ?? "finished";
}

function row(task: BackgroundJob): string {
  const ended = task.endedAt !== undefined ? ` · ended ${task.endedAt.toISOString()}` : "";
  return `${task.id} — ${task.label} · ${status(task)} · started ${task.startedAt.toISOString()}${ended}`;
}

export function createListAgentsTool(pageSize: number = DEFAULT_LIST_AGENTS_PAGE_SIZE): Tool<ListAgentsInput> {
  return {
    name: "ListAgents",
    description: DESCRIPTION,
    inputSchema: listAgentsInputSchema,
    // It reads the session's own list of runs: no one is asked about it.
    isReadOnly: () => true,
    compactable: false,
    traits: { forSubagents: false },
    async call(input: ListAgentsInput, context: ToolContext): Promise<ToolOutput> {
      for (const field of ["channel", "q"] as const) {
        const value = input[field];
        if (value !== undefined && value.trim() !== "")
          return {
            content: `ListAgents \`${field}\` is not available in threadline (there are no channels or other sessions to search); leave it unset. Nothing was listed.`,
            isError: true,
          };
      }
      const background = (context.runtime ?? defaultToolRuntime()).background;
      const agents = (background?.list() ?? []).filter(
        (task): task is BackgroundJob => task.kind === "job" && task.taskType === AGENT_TASK_TYPE,
      );
      let start = 0;
      if (input.cursor !== undefined && input.cursor !== "") {
        const after = agents.findIndex((task) => task.id === input.cursor);
        if (after < 0)
          return {
            content: `ListAgents: unknown cursor ${JSON.stringify(input.cursor)} (use the one the last line of a listing gave, or omit it to list from the start).`,
            isError: true,
          };
        start = after + 1;
      }
      if (agents.length === 0)
        return { content: "No agents: this session has started no background agent (Agent with run_in_background)." };
      const page = agents.slice(start, start + pageSize);
      const lines = page.map(row);
      const last = page.at(-1);
      if (start + pageSize < agents.length && last !== undefined)
        lines.push(`${agents.length - start - pageSize} more: call ListAgents with cursor "${last.id}".`);
      if (lines.length === 0) lines.push("No more agents.");
      return { content: lines.join("\n") };
    },
  };
}

/** The tool with the default page size. */
export const listAgentsTool: Tool<ListAgentsInput> = createListAgentsTool();
