/**
 * Clean-up: "final assistant content cannot end with trailing whitespace". When the conversation ends with
 * an assistant message (a prefill, or a response cut mid-stream), its last text block is trimmed at the end.
 */
import type { WorkingMessage } from "./working-message.js";
import { withContent } from "./working-message.js";

/** Messages whose final assistant message (if the last one is) does not end with whitespace. */
export function trimFinalAssistant(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result = messages.slice();
  const last = result[result.length - 1];
  const block = last?.content[last.content.length - 1];
  if (last?.role !== "assistant" || block?.type !== "text") return result;
  const trimmed = block.text.trimEnd();
  if (trimmed === block.text) return result;
  result[result.length - 1] = withContent(last, [...last.content.slice(0, -1), { type: "text", text: trimmed }]);
  return result;
}
