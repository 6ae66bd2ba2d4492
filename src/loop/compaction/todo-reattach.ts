/**
 * The task list through compaction: when a tier took the session's current TodoWrite list out of the view (a
 * summary replaced it), the list is recorded again as an attachment and sent in this request, as memory files
 * are (after-compaction.ts; docs/TOOLS.md "Task list"). The list itself is read from the whole timeline.
 */
import { createAttachmentEntry, type MessageEntry } from "../../messages/index.js";
import { fromLastCompaction } from "../../request/index.js";
import {
  currentTodos,
  isTodoAttachment,
  TODO_ATTACHMENT_TYPE,
  TODO_WRITE_NAME,
  todoAttachmentText,
} from "../../tools/index.js";
import type { EngineEvent } from "../events.js";
import type { TurnState } from "../turn-state.js";

/** Records the task list again when the view about to be sent (`view.messages`, extended here) lost it. */
export function* reattachTodos(turn: TurnState, view: { messages: MessageEntry[] }): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (!context.tools.has(TODO_WRITE_NAME)) return;
  const todos = currentTodos(context.timeline.entries);
  if (todos.length === 0) return;
  const sent = fromLastCompaction(view.messages);
  // Still visible: the TodoWrite call that set it, or an attachment carrying it.
  if (JSON.stringify(currentTodos(sent)) === JSON.stringify(todos)) return;
  const text = todoAttachmentText(todos);
  if (sent.some((entry) => isTodoAttachment(entry) && entry.attachment.content === text)) return;
  const entry = createAttachmentEntry(recorder.context(), TODO_ATTACHMENT_TYPE, text, { todos });
  recorder.append(entry);
  yield { type: "entry", entry };
  view.messages = [...view.messages, entry];
}
