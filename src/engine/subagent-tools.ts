/**
 * Which of the Agent and REPL tools a session gets, built around the session's own runner and policy.
 * Both are on with the built-in tool set; a caller who passes its own tools opts in explicitly.
 */

import type { AnyTool } from "../tools/index.js";
import { createAgentTool, createReplTool, DEFAULT_REPL_PRIMITIVES, listAgentsTool } from "../tools/index.js";
import { createSubagentRunner, type SubagentEnvironment } from "./subagent.js";
import { DEFAULT_SUBAGENT_TYPES, type SubagentType } from "./subagent-types.js";

export interface SessionAgentToolsOptions {
  /** The session's other tools (REPL primitives come from here). */
  baseTools: readonly AnyTool[];
  /** Whether the caller chose the tool list itself (then both tools default to off). */
  explicitTools: boolean;
  /** Subagent types; `false` leaves the Agent tool out. Default DEFAULT_SUBAGENT_TYPES (when tools are built in). */
  agents: readonly SubagentType[] | false | undefined;
  /** Offer REPL. Default true when tools are built in. */
  repl: boolean | undefined;
  /** Everything a subagent inherits except the type list. */
  environment: Omit<SubagentEnvironment, "types">;
}

/** The Agent (with ListAgents) and/or REPL tools for a session, in that order (possibly none). */
export function sessionAgentTools(options: SessionAgentToolsOptions): AnyTool[] {
  const tools: AnyTool[] = [];
  const agentTypes =
    options.agents === false
      ? undefined
      : (options.agents ?? (options.explicitTools ? undefined : DEFAULT_SUBAGENT_TYPES));
  if (agentTypes && agentTypes.length > 0) {
    const run = createSubagentRunner({ ...options.environment, types: agentTypes });
    tools.push(createAgentTool({ run, types: agentTypes }));
    // Claude Code sends ListAgents beside Agent, in the main tools block (not deferred).
    tools.push(listAgentsTool);
  }
  const wantRepl = options.repl ?? !options.explicitTools;
  const hasPrimitive = options.baseTools.some((tool) => DEFAULT_REPL_PRIMITIVES.includes(tool.name));
  if (wantRepl && hasPrimitive) {
    tools.push(
      createReplTool({ tools: options.baseTools, policy: options.environment.policy, now: options.environment.now }),
    );
  }
  return tools;
}
