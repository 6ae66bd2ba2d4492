/**
 * Clean-up: "all messages must have non-empty content except for the optional final assistant message".
 * An assistant message emptied by earlier steps gets a placeholder text when it is not final; a final one
 * is dropped (an empty prefill says nothing).
 */
import { NO_CONTENT_PLACEHOLDER, type WorkingMessage, withContent } from "./working-message.js";

/** Messages whose non-final empty assistant messages hold a placeholder; an empty final one is dropped. */
export function fillEmptyAssistants(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result: WorkingMessage[] = [];
  const last = messages.length - 1;
  for (let index = 0; index <= last; index++) {
    const message = messages[index]!;
    if (message.role !== "assistant" || message.content.length > 0) result.push(message);
    else if (index !== last) result.push(withContent(message, [{ type: "text", text: NO_CONTENT_PLACEHOLDER }]));
  }
  return result;
}
