/** Schedule and tasks: CronCreate/CronList/CronDelete, ScheduleWakeup, the scheduled prompts, TodoWrite. The names used outside src/tools/. */
export { type ScheduledJob, ScheduledPrompts } from "./scheduled-prompts.js";
export {
  currentTodos,
  isTodoAttachment,
  TODO_ATTACHMENT_TYPE,
  TODO_WRITE_NAME,
  todoAttachmentText,
} from "./todo-write-tool.js";
