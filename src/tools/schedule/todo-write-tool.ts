/**
 * TodoWrite: the task list the model keeps (Claude Code's name and schema: `todos`, each `content`, `status`,
 * `activeForm`). The session's list is the input of its last successful TodoWrite, read from the timeline, so
 * it needs no state of its own and a resumed session rebuilds it from its transcript; after a compaction the
 * list is attached again like memory files (loop/compaction/todo-reattach.ts, docs/TOOLS.md "Task list").
 */
import * as z from "zod";
import type { AttachmentEntry, TimelineEntry } from "../../messages/index.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";

export const TODO_WRITE_NAME = "TodoWrite";
/** The attachment type of a list attached again after a compaction. */
export const TODO_ATTACHMENT_TYPE = "todo";

const todoSchema = z.strictObject({
  content: z.string().min(1),
  status: z.enum(["pending", "in_progress", "completed"]),
  activeForm: z.string().min(1),
});
export const todoWriteInputSchema = z.strictObject({
  todos: z.array(todoSchema).describe("The updated todo list"),
});
export type TodoWriteInput = z.infer<typeof todoWriteInputSchema>;
export type Todo = z.infer<typeof todoSchema>;

const DESCRIPTION = `Creates and updates the task list for this session: send the whole list each time.
- Use it for work of three or more steps; mark one task in_progress at a time and complete it as soon as it is done.
- content says what to do ("Run the tests"), activeForm what is being done ("Running the tests").
- The list is kept through compaction and resume.`;

/** The session's current list: the input of its last TodoWrite whose result was not an error (none: empty). */
export function currentTodos(entries: readonly TimelineEntry[]): Todo[] {
  const failed = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content)
      if (block.type === "tool_result" && block.is_error === true) failed.add(block.tool_use_id);
  }
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type !== "assistant") continue;
    for (let at = entry.message.content.length - 1; at >= 0; at--) {
      const block = entry.message.content[at];
      if (block?.type !== "tool_use" || block.name !== TODO_WRITE_NAME || failed.has(block.id)) continue;
      const parsed = todoWriteInputSchema.safeParse(block.input);
      if (parsed.success) return parsed.data.todos;
    }
  }
  return [];
}

const MARK: Record<Todo["status"], string> = { pending: "[ ]", in_progress: "[~]", completed: "[x]" };

/** The list as the model and the person see it, one line per task. */
export function renderTodos(todos: readonly Todo[]): string {
  if (todos.length === 0) return "The task list is empty.";
  return todos.map((todo, index) => `${index + 1}. ${MARK[todo.status]} ${todo.content}`).join("\n");
}

/** The attachment text that carries the list after a compaction. */
export function todoAttachmentText(todos: readonly Todo[]): string {
  return `The current task list (kept by TodoWrite; update it with TodoWrite):\n${renderTodos(todos)}`;
}

/** Whether `entry` is a task-list attachment. */
export function isTodoAttachment(entry: TimelineEntry): entry is AttachmentEntry {
  return entry.type === "attachment" && entry.attachment.type === TODO_ATTACHMENT_TYPE;
}

export const todoWriteTool: Tool<TodoWriteInput> = {
  name: TODO_WRITE_NAME,
  description: DESCRIPTION,
  inputSchema: todoWriteInputSchema,
  // It writes no file and runs nothing: the list lives in the conversation (allowed in plan mode too).
  isReadOnly: () => true,
  compactable: false,
  deferLoading: true,
  async call(input: TodoWriteInput, context: ToolContext): Promise<ToolOutput> {
    const before = currentTodos(context.session?.entries() ?? []);
    const active = input.todos.filter((todo) => todo.status === "in_progress").length;
    const note = active > 1 ? `\n(${active} tasks are in_progress; keep one at a time.)` : "";
    return {
      content: `The task list was updated:\n${renderTodos(input.todos)}${note}`,
      display: { kind: "todo", oldTodos: before, newTodos: input.todos },
    };
  },
};
