/**
 * Clean-up: fold standalone `<system-reminder>` text into the neighbouring tool_result. A reminder text
 * block beside tool results reads to the model as the person speaking mid tool loop; folded into the last
 * tool_result's content it reads as part of the tool's output, which is what it is.
 * Memory-file text is the exception: it stays a block of its own beside the results, because a result can be
 * deleted later by a cache edit and the user's rules must never go with it (docs/MEMORY.md).
 */
import {
  type ContentBlock,
  isMemoryText,
  type ToolResultBlock,
  type ToolResultContentBlock,
} from "../../messages/index.js";
import { DerivedCache } from "../../timeline/index.js";
import { toolResultWithContent } from "./canonical-block.js";
import { isSystemReminderText, type WorkingMessage, withContent } from "./working-message.js";

function appendTo(result: ToolResultBlock, texts: readonly string[]): ToolResultBlock {
  const content: ToolResultContentBlock[] = [];
  if (typeof result.content === "string") {
    if (result.content.length > 0) content.push({ type: "text", text: result.content });
  } else if (result.content) content.push(...result.content);
  for (const text of texts) content.push({ type: "text", text });
  return toolResultWithContent(result, content);
}

const folded = new DerivedCache<ToolResultBlock, ToolResultBlock>();

const REMINDER_OPEN = "<system-reminder>\n";

/** A standalone reminder that may be folded: any but memory-file text. */
function isFoldable(text: string): boolean {
  if (!isSystemReminderText(text)) return false;
  const inner = text.trimStart();
  return !(inner.startsWith(REMINDER_OPEN) && isMemoryText(inner.slice(REMINDER_OPEN.length)));
}

function fold(message: WorkingMessage): WorkingMessage {
  let lastResult = -1;
  let reminders = 0;
  for (let index = 0; index < message.content.length; index++) {
    const block = message.content[index]!;
    if (block.type === "tool_result") lastResult = index;
    else if (block.type === "text" && isFoldable(block.text)) reminders++;
  }
  if (lastResult < 0 || reminders === 0) return message;
  const texts: string[] = [];
  const kept: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type === "text" && isFoldable(block.text)) texts.push(block.text.trimStart());
    else kept.push(block);
  }
  // Tool results come first, so removing text blocks never moves the last result.
  const result = kept[lastResult] as ToolResultBlock;
  kept[lastResult] = folded.get(result, texts.join("\u0000"), () => appendTo(result, texts));
  return withContent(message, kept);
}

/** Messages whose reminder text blocks beside tool results are folded into the last result. */
export function foldSystemReminders(messages: readonly WorkingMessage[]): WorkingMessage[] {
  return messages.map((message) => (message.role === "user" ? fold(message) : message));
}
