/**
 * The Agent tool: hands a task to a subagent with its own timeline, transcript, tools and system prompt, and
 * returns the subagent's final text. The subagent itself is run by an injected `AgentRunner` (the engine's),
 * so this layer never imports the loop. Agent calls are "read-only" for the executor so several of them run
 * together; the subagent's own tools still go through permissions one by one. `run_in_background` hands the run
 * to the session's background tasks (agent-background.ts); `isolation: "worktree"` is the runner's
 * (engine/subagent-isolation.ts).
 */
import * as z from "zod";
import { EFFORT_LEVELS } from "../../messages/index.js";
import type { Tool, ToolOutput } from "../types.js";
import { launchInBackground } from "./agent-background.js";
import { type AgentRunner, type AgentRunRequest, agentOutput, newAgentId, withNotices } from "./agent-run.js";

/** The tool's name (Claude Code's). */
export const AGENT_TOOL_NAME = "Agent";

/** Claude Code 2.1.328's `model` choices (test/fixtures/claude-code-tools.json); the engine resolves them. */
export const AGENT_MODEL_ALIASES = ["sonnet", "opus", "haiku", "fable"] as const;

// Fields and types as Claude Code 2.1.328 records them. Descriptions say what threadline does: a run is in the
// foreground unless `run_in_background` is true (Claude Code's default is the background); `effort` is sent only
// where the server declares the level for the agent's model (engine/effort-support.ts), else the result says so.
const agentInputSchema = z.strictObject({
  description: z.string().min(1).describe("A short (3-5 word) description of the task"),
  prompt: z.string().min(1).describe("The task for the agent to perform"),
  subagent_type: z.string().min(1).optional().describe("The type of specialized agent to use for this task"),
  model: z
    .enum(AGENT_MODEL_ALIASES)
    .optional()
    .describe(
      "Optional model override for this agent. Takes precedence over the agent definition's model frontmatter. If omitted, uses the agent definition's model, else the parent's model.",
    ),
  effort: z
    .enum(EFFORT_LEVELS)
    .optional()
    .describe(
      "Reasoning effort for this agent. Set this ONLY when the user, or instructions such as CLAUDE.md or a skill, explicitly ask that this agent or delegated work run at a specific effort level, never on your own judgment; otherwise omit it and the agent runs at its usual effort.",
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      "Set to true to run this agent in the background; the call returns at once with the agent's ID and you will be notified when it completes. Leave it out when your next action depends on the agent's result.",
    ),
  isolation: z
    .enum(["worktree", "remote"])
    .optional()
    .describe(
      'Isolation mode. "worktree" creates a temporary git worktree so the agent works on an isolated copy of the repo (removed at the end if unchanged). "remote" is not available here.',
    ),
});

export type AgentInput = z.infer<typeof agentInputSchema>;

/** A subagent type as the model sees it in the tool description. */
export interface AgentTypeSummary {
  name: string;
  description: string;
}

export interface AgentToolOptions {
  run: AgentRunner;
  /** Types listed in the description; the first one is the default. */
  types: readonly AgentTypeSummary[];
}

function describeTool(types: readonly AgentTypeSummary[]): string {
  const lines = [
    "Launch a subagent to handle a multi-step task on its own. The subagent has its own context and tools and",
    "returns one final message, which is all you see of its work: ask it for exactly what you need back.",
    "Several Agent calls in one response run concurrently. Subagents cannot launch subagents.",
    "Available subagent types (subagent_type; the first is the default):",
    ...types.map((type) => `- ${type.name}: ${type.description}`),
  ];
  return lines.join("\n");
}

/** Builds the Agent tool around a runner (the engine supplies one that runs the query loop). */
export function createAgentTool(options: AgentToolOptions): Tool<AgentInput> {
  return {
    name: AGENT_TOOL_NAME,
    description: describeTool(options.types),
    inputSchema: agentInputSchema,
    // Concurrency, not safety: each subagent's own tool calls are permission-checked individually.
    isReadOnly: () => true,
    compactable: false,
    traits: { forSubagents: false },
    async call(input, context): Promise<ToolOutput> {
      if (input.isolation === "remote")
        return {
          content:
            'isolation "remote" (a cloud environment) is not available in threadline; nothing was started. Use "worktree" or leave isolation out.',
          isError: true,
        };
      const request: AgentRunRequest = {
        description: input.description,
        prompt: input.prompt,
        subagentType: input.subagent_type,
        ...(input.model !== undefined ? { model: input.model } : {}),
        ...(input.isolation !== undefined ? { isolation: input.isolation } : {}),
        ...(input.effort !== undefined ? { effort: input.effort } : {}),
        signal: context.signal,
        toolUseId: context.toolUseId,
        onProgress: context.onProgress,
      };
      try {
        if (input.run_in_background === true)
          return await launchInBackground(options.run, request, context, newAgentId());
        let notices: readonly string[] = [];
        const result = await options.run({
          ...request,
          onReady: (said) => {
            notices = said;
          },
        });
        return withNotices(agentOutput(result, input.description), notices);
      } catch (error) {
        // The runner throws only for a request it cannot start (an unknown type or model, no repository for a
        // worktree): its message is the one line the model gets.
        return { content: error instanceof Error ? error.message : String(error), isError: true };
      }
    },
  };
}
