/**
 * Clean-up: whitespace-only assistant text. "text content blocks must contain non-whitespace text": a model
 * that emitted a newline and was cancelled leaves such a block. Messages made only of blank text are
 * dropped; blank text blocks beside real content are removed (and any thinking they exposed at the end is
 * stripped again). Runs after the trailing-thinking strip, so a blank message hidden behind thinking is seen.
 */
import type { ContentBlock } from "../../messages/index.js";
import { withoutTrailingThinking } from "./strip-trailing-thinking.js";
import { isBlank, type WorkingMessage, withContent } from "./working-message.js";

function isBlankText(block: ContentBlock): boolean {
  return block.type === "text" && isBlank(block.text);
}

/** Messages without blank assistant text blocks, and without assistant messages that held only those. */
export function dropWhitespaceAssistants(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result: WorkingMessage[] = [];
  for (const message of messages) {
    if (message.role !== "assistant" || !message.content.some(isBlankText)) {
      result.push(message);
      continue;
    }
    const kept = message.content.filter((block) => !isBlankText(block));
    if (kept.length === 0) continue;
    result.push(withContent(message, withoutTrailingThinking(kept)));
  }
  return result;
}
