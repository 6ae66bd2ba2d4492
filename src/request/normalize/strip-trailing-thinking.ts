/**
 * Clean-up: strip trailing thinking. "The final block in an assistant message cannot be `thinking`": a
 * request cancelled while thinking streamed in leaves exactly that. Thinking is popped from the end until a
 * non-thinking block remains. Claude Code does this for the final assistant only; the rule holds for every
 * assistant message, and applying it everywhere also keeps a message's bytes the same once it is no longer
 * final.
 */
import type { ContentBlock } from "../../messages/index.js";
import { isThinkingBlock, type WorkingMessage, withContent } from "./working-message.js";

/** `content` without its trailing thinking/redacted_thinking blocks (the same array when there are none). */
export function withoutTrailingThinking(content: ContentBlock[]): ContentBlock[] {
  let end = content.length;
  while (end > 0 && isThinkingBlock(content[end - 1]!)) end--;
  return end === content.length ? content : content.slice(0, end);
}

/** Messages whose assistant messages never end in a thinking block. */
export function stripTrailingThinking(messages: readonly WorkingMessage[]): WorkingMessage[] {
  return messages.map((message) => {
    if (message.role !== "assistant") return message;
    const content = withoutTrailingThinking(message.content);
    return content === message.content ? message : withContent(message, content);
  });
}
