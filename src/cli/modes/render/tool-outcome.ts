/**
 * What a finished tool call shows on its line and under it: the one-line outcome, Bash's output lines, a
 * denial's reason, and the key of the change a person approved (render.ts draws them).
 */
import type { ToolResultBlock, UserEntry } from "../../../messages/index.js";
import { INTERRUPTED_MESSAGE } from "../../../tools/index.js";
import type { Style } from "../../terminal/style.js";
import type { changeOf } from "./edit-diff.js";

/** Output lines shown under a finished Bash call. */
export const DEFAULT_PREVIEW_LINES = 3;

/** Longest tool outcome shown on a tool's line, in characters. */
export const DEFAULT_OUTCOME_CHARS = 100;

/** One line describing a finished tool call: `12 lines`, or the first line of its error. */
export function describeToolOutcome(entry: UserEntry, toolUseId: string, isError: boolean): string {
  const content = entry.message.content;
  const block =
    typeof content === "string"
      ? undefined
      : content.find(
          (candidate): candidate is ToolResultBlock =>
            candidate.type === "tool_result" && candidate.tool_use_id === toolUseId,
        );
  const text = block === undefined ? (typeof content === "string" ? content : "") : toolResultText(block);
  // An interruption is one word on screen; the sentence is for the model.
  if (isError && text === INTERRUPTED_MESSAGE) return "interrupted";
  if (isError) return truncate(firstNonEmptyLine(text) || "failed", DEFAULT_OUTCOME_CHARS);
  const trimmed = text.trimEnd();
  if (trimmed === "") return "done (no output)";
  const lines = trimmed.split("\n").length;
  return lines === 1 ? truncate(trimmed, DEFAULT_OUTCOME_CHARS) : `${lines} lines`;
}

function toolResultText(block: ToolResultBlock): string {
  if (block.content === undefined) return "";
  if (typeof block.content === "string") return block.content;
  return block.content.map((part) => (part.type === "text" ? part.text : `[${part.type}]`)).join("\n");
}

function firstNonEmptyLine(text: string): string {
  return text.split("\n").find((line) => line.trim() !== "") ?? "";
}

/** Cuts `text` to `limit` characters with an ellipsis; newlines become spaces. */
export function truncate(text: string, limit: number): string {
  const flat = text.replace(/\s*\n\s*/g, " ");
  return flat.length <= limit ? flat : `${flat.slice(0, Math.max(0, limit - 1))}…`;
}

/** Before/after texts captured when a change was asked about (keyed by `changeKey`), so the diff shown after
 * approval is the one the person approved, even once the file has changed. */
export type ChangeCache = Map<string, NonNullable<ReturnType<typeof changeOf>>>;

/** The cache key of a tool call's input. */
export function changeKey(tool: string, input: unknown): string {
  return `${tool}:${JSON.stringify(input)}`;
}

/** A Bash result's output lines, without the `Exit code N` line the model is given (the outcome says it). */
export function bashOutputLines(entry: UserEntry): string[] {
  const content = entry.message.content;
  const block = typeof content === "string" ? undefined : content.find((part) => part.type === "tool_result");
  const text = block !== undefined && block.type === "tool_result" ? toolResultText(block) : "";
  const output = text.replace(/\n*Exit code \d+\s*$/, "").trimEnd();
  return output === "" ? [] : output.split("\n");
}

/** The reason a person gave when denying the call ("" for none), or undefined when it was not denied. */
export function deniedReason(display: unknown): string | undefined {
  if (typeof display !== "object" || display === null) return undefined;
  const fields = display as { kind?: unknown; reason?: unknown };
  if (fields.kind !== "denied") return undefined;
  return typeof fields.reason === "string" ? fields.reason : "";
}

/** `1 file`, `3 files`. */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The first output lines of a Bash call under its line (nothing for one line: the outcome shows it). */
export function bashPreviewLines(entry: UserEntry, style: Style): string[] {
  const display = entry.toolUseResult as { kind?: unknown } | undefined;
  if (display?.kind !== "bash") return [];
  const lines = bashOutputLines(entry);
  if (lines.length <= 1) return [];
  const shown = lines.slice(0, DEFAULT_PREVIEW_LINES).map((line) => style.dim(`    ${truncate(line, 120)}`));
  if (lines.length > DEFAULT_PREVIEW_LINES)
    shown.push(style.dim(`    … ${plural(lines.length - DEFAULT_PREVIEW_LINES, "more line")}`));
  return shown;
}
