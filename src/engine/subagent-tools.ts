/**
 * Which of the Agent and REPL tools a session gets, built around the session's own runner and policy.
 * Both are on with the built-in tool set; a caller who passes its own tools opts in explicitly.
 */

import { userHome } from "../home/index.js";
import type { AnyTool } from "../tools/index.js";
import {
  createAgentTool,
  createReplTool,
  createWorkflowTool,
  DEFAULT_REPL_PRIMITIVES,
  listAgentsTool,
} from "../tools/index.js";
import type { QueryEngineOptions } from "./engine-options.js";
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
  /**
   * Offer Workflow beside Agent (docs/TOOLS.md "Workflow"): where its saved workflows are looked up and whether the
   * project's may load. Undefined leaves it out.
   */
  workflow?: { userHome: string; projectCodeTrusted: boolean };
  /** Everything a subagent inherits except the type list. */
  environment: Omit<SubagentEnvironment, "types">;
}

/** The Agent, Workflow and ListAgents and/or REPL tools for a session, in that order (possibly none). */
export function sessionAgentTools(options: SessionAgentToolsOptions): AnyTool[] {
  const tools: AnyTool[] = [];
  const agentTypes =
    options.agents === false
      ? undefined
      : (options.agents ?? (options.explicitTools ? undefined : DEFAULT_SUBAGENT_TYPES));
  if (agentTypes && agentTypes.length > 0) {
    const run = createSubagentRunner({ ...options.environment, types: agentTypes });
    tools.push(createAgentTool({ run, types: agentTypes }));
    const { workflow, environment } = options;
    if (workflow !== undefined)
      tools.push(
        createWorkflowTool({
          run,
          // The session directory is where subagents' sidechains go too: the transcript's path without `.jsonl`.
          sessionDirectory: () => environment.parentTranscriptPath?.replace(/\.jsonl$/, ""),
          cwd: environment.cwd,
          ...workflow,
        }),
      );
    // Claude Code sends ListAgents beside Agent, in the main tools block (not deferred). Like Workflow, only with
    // the CLI's tool set: a library session's tools block (and the budgets tuned to it) stays as it was.
    if (workflow !== undefined) tools.push(listAgentsTool);
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

/** Workflow's part of the options (`QueryEngineOptions.workflow`, default on with the Claude Code tool set). */
export function workflowSetting(options: QueryEngineOptions): Pick<SessionAgentToolsOptions, "workflow"> {
  if (!(options.workflow ?? options.deferredTools === true)) return {};
  return {
    workflow: {
      userHome: userHome(options.env ?? process.env),
      projectCodeTrusted: options.projectCodeTrusted ?? true,
    },
  };
}
