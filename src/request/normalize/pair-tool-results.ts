/**
 * Clean-up: pair every tool_use with a tool_result. The API answers "`tool_use` ids were found without
 * `tool_result` blocks immediately after" for an interrupted tool call, and "unexpected `tool_use_id` found
 * in `tool_result` blocks" for a result whose call was snipped, compacted or cut. Missing results are
 * filled with an `is_error` result; orphan and duplicate results are dropped. Results stay first.
 */
import type { ContentBlock, ToolResultBlock } from "../../messages/index.js";
import { NO_CONTENT_PLACEHOLDER, userMessage, type WorkingMessage, withContent } from "./working-message.js";

/** Text of the result inserted for a tool_use that never got one. */
export const MISSING_TOOL_RESULT_TEXT = "Tool result missing: the call was interrupted before it finished.";

function missingResult(toolUseId: string): ToolResultBlock {
  return { type: "tool_result", tool_use_id: toolUseId, content: MISSING_TOOL_RESULT_TEXT, is_error: true };
}

function toolUseIds(message: WorkingMessage): string[] {
  const ids: string[] = [];
  for (const block of message.content) if (block.type === "tool_use" && !ids.includes(block.id)) ids.push(block.id);
  return ids;
}

/** `message`'s content with exactly one result per expected id, results first. */
function pairedContent(message: WorkingMessage, expected: readonly string[]): ContentBlock[] {
  const answered = new Set<string>();
  const results: ContentBlock[] = [];
  const others: ContentBlock[] = [];
  for (const block of message.content) {
    if (block.type !== "tool_result") {
      others.push(block);
      continue;
    }
    if (answered.has(block.tool_use_id) || !expected.includes(block.tool_use_id)) continue;
    answered.add(block.tool_use_id);
    results.push(block);
  }
  for (const id of expected) if (!answered.has(id)) results.push(missingResult(id));
  const content = results.concat(others);
  return content.length > 0 ? content : [{ type: "text", text: NO_CONTENT_PLACEHOLDER }];
}

function isAlreadyPaired(message: WorkingMessage, expected: readonly string[]): boolean {
  let index = 0;
  for (const block of message.content) {
    if (block.type !== "tool_result") break;
    if (block.tool_use_id !== expected[index]) return false;
    index++;
  }
  if (index !== expected.length) return false;
  for (let rest = index; rest < message.content.length; rest++)
    if (message.content[rest]!.type === "tool_result") return false;
  return true;
}

/** Messages in which every tool_use is answered in the next message and every tool_result answers one. */
export function pairToolResults(messages: readonly WorkingMessage[]): WorkingMessage[] {
  const result: WorkingMessage[] = [];
  let expected: string[] = [];
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    if (message.role === "assistant") {
      result.push(message);
      expected = toolUseIds(message);
      const next = messages[index + 1];
      if (expected.length > 0 && (next === undefined || next.role === "assistant")) {
        result.push(userMessage(expected.map(missingResult), true));
      }
      if (next === undefined || next.role === "assistant") expected = [];
      continue;
    }
    result.push(isAlreadyPaired(message, expected) ? message : withContent(message, pairedContent(message, expected)));
    expected = [];
  }
  return result;
}
