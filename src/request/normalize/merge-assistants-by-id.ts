/**
 * Step 3: merge assistant entries sharing `message.id`. Streaming stores one entry per content block;
 * the API needs one assistant message per response ("roles must alternate"). A later block may arrive
 * after tool results were already appended (tools start while the stream is open), so a block merges
 * back over assistant and tool-result messages, but never across a plain user message.
 * One pass with an id → index map: O(n).
 */
import type { WorkingMessage } from "./working-message.js";
import { withContent } from "./working-message.js";

function isToolResultMessage(message: WorkingMessage): boolean {
  return message.role === "user" && message.content[0]?.type === "tool_result";
}

/** Messages with each response's blocks merged into its first message, in arrival order. */
export function mergeAssistantsById(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result: WorkingMessage[] = [];
  const indexById = new Map<string, number>();
  const owned = new Set<number>();
  // Index of the last message a block may not merge back across.
  let barrier = -1;
  for (const message of messages) {
    if (message.role === "user") {
      if (!isToolResultMessage(message)) barrier = result.length;
      result.push(message);
      continue;
    }
    const id = message.messageId;
    const target = id === undefined ? undefined : indexById.get(id);
    if (target !== undefined && target > barrier) {
      let merged = result[target]!;
      if (!owned.has(target)) {
        merged = withContent(merged, merged.content.slice());
        result[target] = merged;
        owned.add(target);
      }
      for (const block of message.content) merged.content.push(block);
      continue;
    }
    if (id !== undefined) indexById.set(id, result.length);
    result.push(message);
  }
  return result;
}
