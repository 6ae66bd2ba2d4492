/**
 * One subagent run as the Agent tool sees it: the request it hands to the engine's runner, the result it gets back,
 * and the tool result made of it (the same for a foreground call and a background run's notification).
 */
import { randomBytes } from "node:crypto";
import type { EffortLevel, TerminalReason, TokenUsage } from "../../messages/index.js";
import type { ToolOutput } from "../types.js";
import type { AgentInbox } from "./agent-inbox.js";

/** Text returned when a subagent finished without saying anything. */
export const EMPTY_AGENT_RESULT = "(The subagent finished without a final message.)";

/** How a subagent run ended: the query loop's terminal reason. */
export type AgentRunStatus = TerminalReason;

export interface AgentRunRequest {
  description: string;
  prompt: string;
  /** Undefined means the runner's default type. */
  subagentType: string | undefined;
  /** A model alias (AGENT_MODEL_ALIASES) overriding the type's model; undefined keeps it. */
  model?: string;
  /** `"worktree"`: the subagent works in a git worktree of its own. */
  isolation?: "worktree";
  /** Sent as `output_config.effort` where the server declares the level for the run's model; else dropped. */
  effort?: EffortLevel;
  /**
   * Go on with the finished run `agentId` names (SendMessage to a finished agent): its kept conversation gets
   * `prompt` as its next user message; its type, model, effort and tools stay the first run's.
   */
  resume?: true;
  /** The id the run gets (a background run's task id is known before it starts); default a fresh one. */
  agentId?: string;
  /**
   * Called once the run's checks passed and it has started (before its first request), with what the caller
   * should say once about it (an effort the server does not declare, dropped).
   */
  onReady?: (notices: readonly string[]) => void;
  /**
   * A background run: no one is waiting on it, so a call that needs a person's approval is refused instead of
   * asked (the question would come between other turns).
   */
  background?: boolean;
  /**
   * A background run's inbox (SendMessage): its loop sends what waits there at each next request, and the run
   * goes on with another turn when messages arrived after its last one. Closed when the run ends.
   */
  inbox?: AgentInbox;
  /**
   * A Workflow agent()'s `schema`: where the server declares structured outputs every request of the run asks
   * for JSON matching it (`output_config.format`); elsewhere the runner ignores it. Default none.
   */
  outputSchema?: Record<string, unknown>;
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
  /** A worktree (`isolation: "worktree"`) kept because the subagent left changes in it. */
  worktree?: { path: string; branch: string };
}

/** Runs one subagent to completion; throws only for a bad request (e.g. an unknown subagent type). */
export type AgentRunner = (request: AgentRunRequest) => Promise<AgentRunResult>;

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
  /** Claude Code's names for a kept worktree (`isolation: "worktree"`). */
  worktreePath?: string;
  worktreeBranch?: string;
}

/** `output` with the run's notices (what was dropped at its start) after its text, said once. */
export function withNotices(output: ToolOutput, notices: readonly string[]): ToolOutput {
  if (notices.length === 0 || typeof output.content !== "string") return output;
  return { ...output, content: `${output.content}\n\n${notices.join("\n")}` };
}

/** A fresh subagent id: 16 hex digits. */
export function newAgentId(): string {
  return randomBytes(8).toString("hex");
}

/** The tool result of a finished run: its final text (or why it did not finish) and its record. */
export function agentOutput(result: AgentRunResult, description: string): ToolOutput {
  const display: AgentToolDisplay = {
    kind: "agent",
    agentId: result.agentId,
    transcriptPath: result.transcriptPath,
    subagentType: result.subagentType,
    description,
    status: result.status,
    usage: result.usage,
    toolUseCount: result.toolUseCount,
    ...(result.worktree !== undefined
      ? { worktreePath: result.worktree.path, worktreeBranch: result.worktree.branch }
      : {}),
  };
  // Claude Code names a kept worktree in the result, so the parent can look at or merge the agent's changes.
  const kept =
    result.worktree === undefined
      ? ""
      : `\n\nThe agent's changes were kept in the worktree at ${result.worktree.path} (branch ${result.worktree.branch}).`;
  if (result.status === "completed") {
    return { content: (result.text.trim() === "" ? EMPTY_AGENT_RESULT : result.text) + kept, display };
  }
  const reason = result.error ?? `the subagent stopped (${result.status})`;
  const partial = result.text.trim() === "" ? "" : `\nIts last message:\n${result.text}`;
  return { content: `Subagent did not finish: ${reason}.${partial}${kept}`, isError: true, display };
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
