/**
 * Clean-up: "`is_error` tool results may only contain text content" and "content cannot be empty if
 * `is_error` is true". Images and documents are removed from error results; an error result left without
 * text gets a short placeholder.
 */
import type { ContentBlock, ToolResultBlock, ToolResultContentBlock } from "../../messages/index.js";
import { memoizeByObject } from "../../timeline/index.js";
import { toolResultWithContent } from "./canonical-block.js";
import { isBlank, type WorkingMessage, withContent } from "./working-message.js";

/** Text given to an `is_error` tool_result that has no text of its own. */
export const DEFAULT_EMPTY_ERROR_TEXT = "Tool failed without output.";

function needsFix(block: ContentBlock): block is ToolResultBlock {
  if (block.type !== "tool_result" || block.is_error !== true) return false;
  const content = block.content;
  if (content === undefined) return true;
  if (typeof content === "string") return isBlank(content);
  return content.length === 0 || content.some((part) => part.type !== "text");
}

function textOnly(block: ToolResultBlock): ToolResultBlock {
  const texts: ToolResultContentBlock[] = Array.isArray(block.content)
    ? block.content.filter((part) => part.type === "text" && !isBlank(part.text))
    : [];
  return toolResultWithContent(block, texts.length > 0 ? texts : DEFAULT_EMPTY_ERROR_TEXT);
}

const fixed = memoizeByObject(textOnly);

/** Messages whose `is_error` tool results are non-empty and text-only. */
export function textOnlyErrorResults(messages: readonly WorkingMessage[]): WorkingMessage[] {
  return messages.map((message) => {
    if (message.role !== "user" || !message.content.some(needsFix)) return message;
    return withContent(
      message,
      message.content.map((block) => (needsFix(block) ? fixed(block) : block)),
    );
  });
}
