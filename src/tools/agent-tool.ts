/**
 * The Agent tool: hands a task to a subagent with its own timeline, transcript, tools and system prompt, and
 * returns the subagent's final text. The subagent itself is run by an injected `AgentRunner` (the engine's),
 * so this layer never imports the loop. Agent calls are "read-only" for the executor so several of them run
 * together; the subagent's own tools still go through permissions one by one.
 */
import * as z from "zod";
import type { TerminalReason, TokenUsage } from "../messages/index.js";
import type { Tool, ToolOutput } from "./types.js";

/** The tool's name (Claude Code's). */
export const AGENT_TOOL_NAME = "Agent";

/** Text returned when a subagent finished without saying anything. */
export const EMPTY_AGENT_RESULT = "(The subagent finished without a final message.)";

const agentInputSchema = z.strictObject({
  description: z.string().min(1).describe("A short (3-5 word) description of the task"),
  prompt: z.string().min(1).describe("The task for the agent to perform"),
  subagent_type: z.string().min(1).optional().describe("The type of specialized agent to use for this task"),
});

export type AgentInput = z.infer<typeof agentInputSchema>;

/** How a subagent run ended: the query loop's terminal reason. */
export type AgentRunStatus = TerminalReason;

export interface AgentRunRequest {
  description: string;
  prompt: string;
  /** Undefined means the runner's default type. */
  subagentType: string | undefined;
  /** Aborted when the parent turn is interrupted. */
  signal: AbortSignal;
  /** The parent's tool_use id (the link from the parent to the sidechain). */
  toolUseId: string;
  onProgress: (message: string) => void;
}

export interface AgentRunResult {
  agentId: string;
  /** The sidechain transcript file; undefined when the parent keeps its transcript in memory. */
  transcriptPath: string | undefined;
  subagentType: string;
  status: AgentRunStatus;
  /** The subagent's final text. */
  text: string;
  /** Why the run failed, when it did. */
  error?: string;
  /** Tokens the subagent used over its whole run. */
  usage: TokenUsage;
  toolUseCount: number;
}

/** Runs one subagent to completion; throws only for a bad request (e.g. an unknown subagent type). */
export type AgentRunner = (request: AgentRunRequest) => Promise<AgentRunResult>;

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

/** What the parent's tool_result records as `toolUseResult` (never sent to the model). */
export interface AgentToolDisplay {
  kind: "agent";
  agentId: string;
  transcriptPath: string | undefined;
  subagentType: string;
  description: string;
  status: AgentRunStatus;
  /** Tokens the subagent used over its whole run. */
  usage: TokenUsage;
  toolUseCount: number;
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
    async call(input, context): Promise<ToolOutput> {
      const result = await options.run({
        description: input.description,
        prompt: input.prompt,
        subagentType: input.subagent_type,
        signal: context.signal,
        toolUseId: context.toolUseId,
        onProgress: context.onProgress,
      });
      const display: AgentToolDisplay = {
        kind: "agent",
        agentId: result.agentId,
        transcriptPath: result.transcriptPath,
        subagentType: result.subagentType,
        description: input.description,
        status: result.status,
        usage: result.usage,
        toolUseCount: result.toolUseCount,
      };
      if (result.status === "completed") {
        return { content: result.text.trim() === "" ? EMPTY_AGENT_RESULT : result.text, display };
      }
      const reason = result.error ?? `the subagent stopped (${result.status})`;
      const partial = result.text.trim() === "" ? "" : `\nIts last message:\n${result.text}`;
      return { content: `Subagent did not finish: ${reason}.${partial}`, isError: true, display };
    },
  };
}

/** Whether a `toolUseResult` value is an Agent tool's display record. */
export function isAgentToolDisplay(value: unknown): value is AgentToolDisplay {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as { kind?: unknown }).kind === "agent" &&
    typeof (value as { agentId?: unknown }).agentId === "string"
  );
}
