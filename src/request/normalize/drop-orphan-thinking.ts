/**
 * Clean-up: drop orphan thinking-only assistant messages. A stream cut right after a thinking block (or a
 * compaction/snip that split a response) leaves a message with only thinking; sent alone, the API answers
 * "thinking blocks cannot be modified". Two passes: collect the response ids that have any non-thinking
 * content anywhere, then drop thinking-only messages whose id is not among them.
 */
import { isThinkingBlock, type WorkingMessage } from "./working-message.js";

function isThinkingOnly(message: WorkingMessage): boolean {
  return message.content.length > 0 && message.content.every(isThinkingBlock);
}

/** Messages without thinking-only assistant messages whose response has no other content. */
export function dropOrphanThinking(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const idsWithContent = new Set<string>();
  let hasOrphanCandidate = false;
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    if (isThinkingOnly(message)) hasOrphanCandidate = true;
    else if (message.messageId !== undefined) idsWithContent.add(message.messageId);
  }
  if (!hasOrphanCandidate) return messages.slice();
  return messages.filter(
    (message) =>
      message.role !== "assistant" ||
      !isThinkingOnly(message) ||
      (message.messageId !== undefined && idsWithContent.has(message.messageId)),
  );
}
