/** The built-in tool set, in the fixed order sent to the API. */

import { sendMessageTool } from "./agents/send-message-tool.js";
import { editTool } from "./files/edit-tool.js";
import { globTool } from "./files/glob-tool.js";
import { grepTool } from "./files/grep-tool.js";
import { notebookEditTool } from "./files/notebook-edit-tool.js";
import { readTool } from "./files/read-tool.js";
import { writeTool } from "./files/write-tool.js";
import { exitPlanModeTool } from "./permissions/exit-plan-mode-tool.js";
import { cronCreateTool, cronDeleteTool, cronListTool } from "./schedule/cron-tools.js";
import { scheduleWakeupTool } from "./schedule/schedule-wakeup-tool.js";
import { todoWriteTool } from "./schedule/todo-write-tool.js";
import { bashTool } from "./shell/bash-tool.js";
import { monitorTool } from "./shell/monitor-tool.js";
import { taskStopTool } from "./shell/task-stop-tool.js";
import type { AnyTool } from "./types.js";
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
