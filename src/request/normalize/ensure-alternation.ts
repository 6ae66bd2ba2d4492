/**
 * Clean-up: roles must alternate and the first message must be a user message. After snips, compaction
 * and the drops above, a conversation can start with an assistant message or hold two assistant messages in
 * a row (merging them could put thinking after text, which the API rejects), so a placeholder user message
 * is inserted instead. Adjacent user messages are merged.
 */
import { mergeAdjacentUsers } from "./merge-adjacent-users.js";
import { NO_CONTENT_PLACEHOLDER, userMessage, type WorkingMessage } from "./working-message.js";

function placeholder(): WorkingMessage {
  return userMessage([{ type: "text", text: NO_CONTENT_PLACEHOLDER }], true);
}

/** Messages that start with a user message and alternate roles. */
export function ensureAlternation(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const merged = mergeAdjacentUsers(messages);
  const result: WorkingMessage[] = [];
  for (const message of merged) {
    const previous = result[result.length - 1];
    if (message.role === "assistant" && previous?.role === "assistant" && onlyCompaction(previous)) {
      // The answer that followed a paused server-side compaction continues that response, as the API sends it
      // unpaused: [compaction, …answer] (docs/API-SURFACE.md, "Server-side compaction").
      result[result.length - 1] = { ...previous, content: [...previous.content, ...message.content] };
      continue;
    }
    if (message.role === "assistant" && (previous === undefined || previous.role === "assistant")) {
      result.push(placeholder());
    }
    result.push(message);
  }
  return result;
}

function onlyCompaction(message: WorkingMessage): boolean {
  return message.content.length > 0 && message.content.every((block) => block.type === "compaction");
}
