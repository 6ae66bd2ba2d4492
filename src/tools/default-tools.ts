/** The built-in tool set, in the fixed order sent to the API. */
import { bashTool } from "./bash-tool.js";
import { cronCreateTool, cronDeleteTool, cronListTool } from "./cron-tools.js";
import { editTool } from "./edit-tool.js";
import { enterWorktreeTool } from "./enter-worktree-tool.js";
import { exitPlanModeTool } from "./exit-plan-mode-tool.js";
import { exitWorktreeTool } from "./exit-worktree-tool.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { monitorTool } from "./monitor-tool.js";
import { notebookEditTool } from "./notebook-edit-tool.js";
import { readTool } from "./read-tool.js";
import { scheduleWakeupTool } from "./schedule-wakeup-tool.js";
import { sendMessageTool } from "./send-message-tool.js";
import { taskStopTool } from "./task-stop-tool.js";
import { todoWriteTool } from "./todo-write-tool.js";
import type { AnyTool } from "./types.js";
import { webFetchTool } from "./web-fetch-tool.js";
import { webSearchTool } from "./web-search-tool.js";
import { writeTool } from "./write-tool.js";

/** Bash, Glob, Grep, Read, Edit, Write — a stable order keeps the tools' prompt-cache prefix stable. */
export function defaultTools(): AnyTool[] {
  return [bashTool, globTool, grepTool, readTool, editTool, writeTool];
}

/**
 * Claude Code's built-in tools that it defers behind ToolSearch (listed by name, loaded on request): WebFetch and
 * NotebookEdit, TaskStop, TodoWrite, ExitPlanMode, EnterWorktree, ExitWorktree, Monitor, CronCreate, CronList,
 * CronDelete, ScheduleWakeup, SendMessage, in a fixed order, and WebSearch
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
  ];
  return options.webSearch === true ? [...tools, webSearchTool] : tools;
}
