/**
 * The REPL tool's own result: one compact section per primitive call, so the model reads every outcome in a
 * single tool_result (the per-call pairs stay virtual).
 */
import { checkNever, type ToolResultContentBlock } from "../../messages/index.js";
import { summarizeToolCall } from "../permissions/permissions.js";

/** Characters of each call's output kept in the combined report. */
export const DEFAULT_REPL_CALL_OUTPUT_CHARS = 4_000;

export interface ReplCallOutcome {
  tool: string;
  input: unknown;
  content: string | ToolResultContentBlock[];
  isError: boolean;
}

/** Text of a tool output, with non-text blocks named rather than dropped silently. */
function outcomeText(content: string | readonly ToolResultContentBlock[]): string {
  if (typeof content === "string") return content;
  return content.map(blockText).join("\n");
}

function blockText(block: ToolResultContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return "[image]";
    case "document":
      return "[document]";
    default:
      return checkNever(block);
  }
}

function clip(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n… [${text.length - limit} more characters not shown]`;
}

/**
 * `[n/total] Tool(argument) ok|error` headers, each followed by its (clipped) output.
 * `callOutputChars` defaults to DEFAULT_REPL_CALL_OUTPUT_CHARS.
 */
export function formatReplReport(
  outcomes: readonly ReplCallOutcome[],
  planned: number,
  callOutputChars = DEFAULT_REPL_CALL_OUTPUT_CHARS,
): string {
  const sections = outcomes.map((outcome, index) => {
    const header = `[${index + 1}/${planned}] ${summarizeToolCall(outcome.tool, outcome.input)} ${outcome.isError ? "error" : "ok"}`;
    const body = outcomeText(outcome.content);
    return body.trim() === "" ? `${header}\n(no output)` : `${header}\n${clip(body, callOutputChars)}`;
  });
  if (outcomes.length < planned) {
    sections.push(`[stopped after ${outcomes.length} of ${planned} calls: the REPL was interrupted]`);
  }
  return sections.join("\n\n");
}
