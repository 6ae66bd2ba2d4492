/**
 * The text a cleared tool result is replaced by: what was there and how to get it back (the tool, the path
 * and line range or the command, the size), so a model that needs it re-reads instead of guessing. A pure
 * function of the tool call and its original result, so the bytes are the same on every turn.
 */
import type { ToolResultBlock, ToolUseBlock } from "../../messages/index.js";
import { contentText, estimateBlockTokens } from "../../messages/index.js";

/**
 * A whole count with en-US thousands separators, the bytes of `n.toLocaleString("en-US")`, without ICU: that
 * call builds a number formatter each time, and one per placeholder (every result a tier weighs) was most of a
 * 40-step -p session's peak memory (docs/PERFORMANCE.md).
 */
export function groupThousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+$)/g, ",");
}

/** Longest command or pattern quoted in a placeholder. */
const QUOTE_CHARS = 120;

function field(input: unknown, name: string): string | undefined {
  const value = (input as Record<string, unknown> | null)?.[name];
  if (typeof value === "number") return String(value);
  return typeof value === "string" && value !== "" ? value : undefined;
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return JSON.stringify(flat.length > QUOTE_CHARS ? `${flat.slice(0, QUOTE_CHARS)}…` : flat);
}

function readLines(display: unknown, use: ToolUseBlock): string | undefined {
  const record = display as { kind?: unknown; firstLine?: unknown; lineCount?: unknown } | null;
  if (record?.kind === "text" && typeof record.firstLine === "number" && typeof record.lineCount === "number")
    return `lines ${record.firstLine}-${record.firstLine + Math.max(0, record.lineCount - 1)}`;
  const offset = field(use.input, "offset");
  const limit = field(use.input, "limit");
  if (offset === undefined && limit === undefined) return undefined;
  return `offset ${offset ?? 1}${limit !== undefined ? `, limit ${limit}` : ""}`;
}

function exitOf(display: unknown, result: ToolResultBlock): string {
  const record = display as { kind?: unknown; exitCode?: unknown } | null;
  if (record?.kind === "bash") return typeof record.exitCode === "number" ? `exit ${record.exitCode}` : "killed";
  if (result.is_error !== true) return "exit 0";
  const text = typeof result.content === "string" ? result.content : contentText(result.content ?? []);
  const match = /\bExit code (\d+)\b/.exec(text);
  return match ? `exit ${match[1]}` : "failed";
}

/** The placeholder for `result` (answering `use`, undefined when not in view); `display` is its UI record. */
export function clearedPlaceholder(use: ToolUseBlock | undefined, result: ToolResultBlock, display: unknown): string {
  if (use === undefined) return "[Old tool result content cleared]";
  const size = `~${groupThousands(estimateBlockTokens(result))} tokens`;
  const path = field(use.input, "file_path") ?? field(use.input, "path");
  switch (use.name) {
    case "Read": {
      const lines = readLines(display, use);
      return `[Old tool result content cleared: Read ${path ?? "(no path)"}${lines ? ` ${lines}` : ""}, ${size}. Read it again if you need it.]`;
    }
    case "Bash":
      return `[Old tool result content cleared: Bash ${quote(field(use.input, "command") ?? "")} (${exitOf(display, result)}), ${size}. Run it again to see the output.]`;
    case "Grep":
    case "Glob":
      return `[Old tool result content cleared: ${use.name} ${quote(field(use.input, "pattern") ?? "")}${path ? ` in ${path}` : ""}, ${size}. Run it again if you need it.]`;
    default:
      return `[Old tool result content cleared: ${use.name}${path ? ` ${path}` : ""}, ${size}.]`;
  }
}
