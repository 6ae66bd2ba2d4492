/**
 * Convert sendable entries to working messages: user content always as a block list (blank text blocks
 * dropped, since the API rejects them and nothing is lost), one assistant message per entry (step 3 merges
 * them), attachments and `local_command` output as meta user text. Every block is rebuilt canonically.
 */
import type { ContentBlock, MessageEntry, TextBlock } from "../../messages/index.js";
import { checkNever } from "../../messages/index.js";
import { memoizeByObject } from "../../timeline/index.js";
import { canonicalBlock } from "./canonical-block.js";
import { isBlank, type SnipTarget, systemReminder, userMessage, type WorkingMessage } from "./working-message.js";

function textMessage(text: string, isMeta: boolean): WorkingMessage | undefined {
  if (isBlank(text)) return undefined;
  return userMessage([{ type: "text", text }], isMeta);
}

function convert(entry: MessageEntry): WorkingMessage | undefined {
  switch (entry.type) {
    case "attachment":
      return textMessage(systemReminder(entry.attachment.content), true);
    case "system":
      return textMessage(entry.content, true);
    case "progress":
      return undefined;
    case "assistant": {
      const block = entry.message.content[0];
      const copy = block ? canonicalBlock(block) : undefined;
      if (!copy) return undefined;
      return { role: "assistant", content: [copy], messageId: entry.message.id, isMeta: false, snipTargets: [] };
    }
    case "user": {
      const isMeta = entry.isMeta === true;
      const stored = entry.message.content;
      const content: ContentBlock[] = [];
      let lastText: TextBlock | undefined;
      if (typeof stored === "string") {
        if (!isBlank(stored)) {
          lastText = { type: "text", text: stored };
          content.push(lastText);
        }
      } else {
        for (const block of stored) {
          if (block.type === "text" && isBlank(block.text)) continue;
          const copy = canonicalBlock(block);
          if (!copy) continue;
          if (copy.type === "text") lastText = copy;
          content.push(copy);
        }
      }
      if (content.length === 0) return undefined;
      const snipTargets: SnipTarget[] = !isMeta && lastText ? [{ uuid: entry.uuid, block: lastText }] : [];
      return userMessage(content, isMeta, snipTargets);
    }
    default:
      return checkNever(entry);
  }
}

const converted = memoizeByObject(convert);

/**
 * One working message per sendable entry (entries with nothing sendable are skipped). Conversions are
 * memoized per entry: later steps never mutate a working message they did not create.
 */
export function toWorkingMessages(entries: readonly MessageEntry[]): WorkingMessage[] {
  const messages: WorkingMessage[] = [];
  for (const entry of entries) {
    const message = converted(entry);
    if (message) messages.push(message);
  }
  return messages;
}
