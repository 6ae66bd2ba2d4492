/**
 * The model's task list under its TodoWrite line, as Claude Code shows it: one line a task, ☐ pending,
 * ◼ in progress (in bold, by its `activeForm`: what is being done), ☒ completed (dimmed). The renderer wraps the
 * lines to the terminal like any other (docs/TOOLS.md "Task list").
 */
import type { Style } from "../../terminal/style.js";

interface ShownTodo {
  content: string;
  status: string;
  activeForm?: string;
}

function isTodoDisplay(display: unknown): display is { kind: "todo"; newTodos: ShownTodo[] } {
  const value = display as { kind?: unknown; newTodos?: unknown } | undefined;
  return value?.kind === "todo" && Array.isArray(value.newTodos);
}

/** The list's lines, indented under the tool's outcome; undefined when `display` is not a TodoWrite's. */
export function taskListLines(display: unknown, style: Style): string[] | undefined {
  if (!isTodoDisplay(display)) return undefined;
  if (display.newTodos.length === 0) return [style.dim("    (the task list is empty)")];
  return display.newTodos.map((todo) => {
    if (todo.status === "completed") return style.dim(`    ☒ ${todo.content}`);
    if (todo.status === "in_progress") return `    ◼ ${style.bold(todo.activeForm ?? todo.content)}`;
    return `    ☐ ${todo.content}`;
  });
}
