/**
 * The registry of built-in tools: the sets a session starts with, in the fixed order sent to the API, and what
 * a tool says of itself (`Tool.traits`) looked up by name, for those who hold only a name (a rule, an event).
 * Adding a tool: its own room, and one line in a list below.
 */

import { listAgentsTool } from "./agents/list-agents-tool.js";
import { sendMessageTool } from "./agents/send-message-tool.js";
import { editTool } from "./files/edit-tool.js";
import { globTool } from "./files/glob-tool.js";
import { grepTool } from "./files/grep-tool.js";
import { notebookEditTool } from "./files/notebook-edit-tool.js";
import { readTool } from "./files/read-tool.js";
import { writeTool } from "./files/write-tool.js";
import { exitPlanModeTool } from "./permissions/exit-plan-mode-tool.js";
import { askUserQuestionTool } from "./questions/ask-user-question-tool.js";
import { cronCreateTool, cronDeleteTool, cronListTool } from "./schedule/cron-tools.js";
import { scheduleWakeupTool } from "./schedule/schedule-wakeup-tool.js";
import { todoWriteTool } from "./schedule/todo-write-tool.js";
import { bashTool } from "./shell/bash-tool.js";
import { monitorTool } from "./shell/monitor-tool.js";
import { taskStopTool } from "./shell/task-stop-tool.js";
import type { AnyTool, ToolTraits } from "./types.js";
import { webFetchTool } from "./web/web-fetch-tool.js";
import { webSearchTool } from "./web/web-search-tool.js";
import { enterWorktreeTool } from "./worktree/enter-worktree-tool.js";
import { exitWorktreeTool } from "./worktree/exit-worktree-tool.js";

/** Bash, Glob, Grep, Read, Edit, Write — a stable order keeps the tools' prompt-cache prefix stable. */
export function defaultTools(): AnyTool[] {
  return [bashTool, globTool, grepTool, readTool, editTool, writeTool];
}

/**
 * Claude Code's built-in tools that it defers behind ToolSearch (listed by name, loaded on request): WebFetch and
 * NotebookEdit, TaskStop, TodoWrite, ExitPlanMode, EnterWorktree, ExitWorktree, Monitor, CronCreate, CronList,
 * CronDelete, ScheduleWakeup, SendMessage, AskUserQuestion, in a fixed order, and WebSearch
 * last where the server declares web search (docs/TOOLS.md).
 */
export function deferredBuiltinTools(options: { webSearch?: boolean } = {}): AnyTool[] {
  const tools: AnyTool[] = [
    webFetchTool,
    notebookEditTool,
    taskStopTool,
    todoWriteTool,
    exitPlanModeTool,
    enterWorktreeTool,
    exitWorktreeTool,
    monitorTool,
    cronCreateTool,
    cronListTool,
    cronDeleteTool,
    scheduleWakeupTool,
    sendMessageTool,
    askUserQuestionTool,
  ];
  return options.webSearch === true ? [...tools, webSearchTool] : tools;
}

/**
 * Every built-in tool that exists as one object. Tools made by a factory (Agent, Workflow, REPL, Snip,
 * ToolSearch) carry their traits on what the factory makes; they have no path rule, diff or group to look up.
 */
function builtinTools(): AnyTool[] {
  return [...defaultTools(), ...deferredBuiltinTools({ webSearch: true }), listAgentsTool];
}

let byName: ReadonlyMap<string, ToolTraits> | undefined;

/** What the built-in tool named `name` says of itself; undefined for any other name (an MCP tool's, a rule's). */
export function builtinToolTraits(name: string): ToolTraits | undefined {
  byName ??= new Map(builtinTools().map((tool) => [tool.name, tool.traits ?? {}]));
  return byName.get(name);
}

let families: Readonly<Record<string, readonly string[]>> | undefined;

/**
 * Rule name → the built-in tools its path specifier covers, from each tool's `traits.pathRule`: an Edit rule
 * covers Edit, Write and NotebookEdit, a Write rule Write, a Read rule the tools that read files.
 */
export function pathRuleFamilies(): Readonly<Record<string, readonly string[]>> {
  if (families !== undefined) return families;
  const covered: Record<string, string[]> = {};
  for (const tool of builtinTools()) {
    for (const rule of tool.traits?.pathRule?.ruleNames ?? []) covered[rule] = [...(covered[rule] ?? []), tool.name];
  }
  families = covered;
  return covered;
}
