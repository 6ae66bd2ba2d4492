/**
 * Step 1: move attachments up to the message they belong to. Hooks and reminders append attachments after
 * whatever came last; the model should read them right after the nearest preceding assistant message or
 * tool-result message, i.e. before the person's own text that follows that point.
 * Scans bottom-up once (O(n)): attachments are carried upward past plain user messages and dropped in
 * right after the first stopping point above them.
 */
import type { MessageEntry } from "../../messages/index.js";

/** Whether attachments stop moving up at this entry (they are placed right after it). */
function isStoppingPoint(entry: MessageEntry): boolean {
  if (entry.type === "assistant") return true;
  if (entry.type !== "user") return false;
  const content = entry.message.content;
  return Array.isArray(content) && content[0]?.type === "tool_result";
}

/** Entries with each attachment moved up to just after the nearest assistant or tool-result message. */
export function reorderAttachments(entries: readonly MessageEntry[]): MessageEntry[] {
  const reversed: MessageEntry[] = [];
  const pending: MessageEntry[] = [];
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "attachment") {
      pending.push(entry);
      continue;
    }
    if (pending.length > 0 && isStoppingPoint(entry)) {
      for (const attachment of pending) reversed.push(attachment);
      pending.length = 0;
    }
    reversed.push(entry);
  }
  for (const attachment of pending) reversed.push(attachment);
  return reversed.reverse();
}
