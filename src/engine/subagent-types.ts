/**
 * Subagent types: the system prompt and tool subset a subagent gets. A subagent never gets a tool that says
 * `traits.forSubagents: false`, whatever its type lists: Agent (no recursion), Snip (it acts on the parent's
 * conversation), EnterWorktree and ExitWorktree (they move the parent session's working directory; docs/TOOLS.md
 * "Worktrees"), Monitor and the scheduling tools (their events and prompts would reach the parent's
 * conversation, not the subagent's), SendMessage and ListAgents (a subagent has no background agents of its own,
 * and "main" has no way into the parent's turn), and Workflow (its agents are subagents already: one level of
 * fan-out, as with Agent).
 */

export interface SubagentType {
  /** What the model passes as `subagent_type`. */
  name: string;
  /** One line for the Agent tool's description: when to use this type. */
  description: string;
  /** The subagent's instructions (the environment segment is added after it). */
  systemPrompt: string;
  /** Names of the parent's tools it may use. Default: all of them (minus the excluded ones). */
  tools?: readonly string[];
  /** Default: the parent's current model. */
  model?: string;
  /** Model requests allowed per run. Default DEFAULT_SUBAGENT_MAX_TURNS. */
  maxTurns?: number;
}

/** Model requests a subagent may make before it is stopped: 50. */
export const DEFAULT_SUBAGENT_MAX_TURNS = 50;

/** The first line of every built-in subagent prompt (tests and people can tell a subagent's requests apart). */
export const SUBAGENT_PROMPT_PREFIX = "You are a threadline subagent.";

export const GENERAL_PURPOSE_AGENT: SubagentType = {
  name: "general-purpose",
  description:
    "Researching complex questions, searching for code and carrying out multi-step tasks with all the tools.",
  systemPrompt: [
    SUBAGENT_PROMPT_PREFIX,
    "Another agent gave you the task in the user message; it sees only your final message, not your tool",
    "calls. Do the task with the tools, then end with a concise, complete report of what you found or did,",
    "including file paths and the exact facts the other agent needs.",
  ].join("\n"),
};

export const EXPLORE_AGENT: SubagentType = {
  name: "Explore",
  description: "Fast read-only exploration: finding files, searching code, answering questions about the codebase.",
  systemPrompt: [
    SUBAGENT_PROMPT_PREFIX,
    "You explore a codebase read-only on behalf of another agent, which sees only your final message.",
    "Search and read efficiently, then answer with the relevant file paths, line numbers and findings.",
  ].join("\n"),
  tools: ["Read", "Grep", "Glob", "REPL"],
};

/** The built-in types, default first. */
export const DEFAULT_SUBAGENT_TYPES: readonly SubagentType[] = [GENERAL_PURPOSE_AGENT, EXPLORE_AGENT];
