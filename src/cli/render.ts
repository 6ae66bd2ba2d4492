/**
 * Turns engine events into terminal output: streamed text as it arrives, one line per tool call with its
 * progress and outcome, notices. On a TTY progress rewrites the tool's line in place; elsewhere every line is
 * plain and final, so logs and pipes read cleanly.
 */
import type { EngineEvent } from "../loop/events.js";
import { checkNever, type ToolResultBlock, type UserEntry } from "../messages/index.js";
import { summarizeToolCall } from "../tools/permissions.js";
import { createStyle, type Style } from "./style.js";

/** Longest tool outcome shown on a tool's line, in characters. */
export const DEFAULT_OUTCOME_CHARS = 100;

/** Where rendered text goes (a process stream or a test buffer). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

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

/** The text of a `text_delta` stream event, if it is one. */
export function textDelta(event: EngineEvent): string | undefined {
  if (event.type !== "stream_event" || event.event.type !== "content_block_delta") return undefined;
  const delta = event.event.delta as { type?: unknown; text?: unknown } | undefined;
  return delta?.type === "text_delta" && typeof delta.text === "string" ? delta.text : undefined;
}

export interface TurnRendererOptions {
  /** Show notices at info level and request starts. Default false. */
  verbose?: boolean;
  /** Default: colours on a TTY unless NO_COLOR is set. */
  style?: Style;
}

/** Renders one session's events; keep one per output stream. */
export class TurnRenderer {
  readonly #out: TextSink;
  readonly #tty: boolean;
  readonly #verbose: boolean;
  readonly #style: Style;
  readonly #toolLines = new Map<string, string>();
  /** Tool whose line is the last one on screen (its progress may be rewritten in place). */
  #liveTool: string | undefined;
  /** Tool whose start line is the last full line written. */
  #lastToolLine: string | undefined;
  /** A progress line without its newline is on screen (TTY only). */
  #liveProgress = false;
  #atLineStart = true;
  #streamedText = false;

  constructor(out: TextSink, options: TurnRendererOptions = {}) {
    this.#out = out;
    this.#tty = out.isTTY === true;
    this.#verbose = options.verbose ?? false;
    this.#style = options.style ?? createStyle(this.#tty);
  }

  /** Whether any assistant text was streamed since the last `reset()`. */
  get streamedText(): boolean {
    return this.#streamedText;
  }

  reset(): void {
    this.#streamedText = false;
    this.#toolLines.clear();
    this.#liveTool = undefined;
  }

  handle(event: EngineEvent): void {
    switch (event.type) {
      case "stream_event": {
        const text = textDelta(event);
        if (text !== undefined && text !== "") this.#text(text);
        return;
      }
      case "tool_start": {
        const line = summarizeToolCall(event.block.name, event.block.input);
        this.#toolLines.set(event.block.id, line);
        this.#line(`${this.#style.accent("⏺")} ${line}`);
        this.#liveTool = event.block.id;
        this.#lastToolLine = event.block.id;
        return;
      }
      case "tool_progress":
        this.#progress(event.toolUseId, event.message);
        return;
      case "tool_result": {
        const outcome = describeToolOutcome(event.entry, event.block.id, event.isError);
        const mark = event.isError ? this.#style.error("✗") : this.#style.success("✓");
        const follows = this.#lastToolLine === event.block.id;
        this.#clearLive(event.block.id);
        // When other tools' lines came in between (concurrent reads), name the tool again.
        const label = follows ? "" : `${this.#toolLines.get(event.block.id) ?? event.block.name}: `;
        this.#line(`  ⎿ ${mark} ${this.#style.dim(label + outcome)}`);
        this.#lastToolLine = undefined;
        return;
      }
      case "notice":
        if (event.level === "info" && !this.#verbose) return;
        this.#line(this.#notice(event.level, event.message));
        return;
      case "request_start":
        if (this.#verbose)
          this.#line(this.#style.dim(`→ request ${event.iteration + 1} (${event.request.json.length} bytes)`));
        return;
      case "entry":
        this.#entry(event);
        return;
      case "turn_end":
        this.#endLine();
        if (event.reason !== "completed" && event.reason !== "aborted") {
          this.#line(this.#notice("error", event.error ?? `Turn ended: ${event.reason}`));
        }
        if (event.reason === "aborted") this.#line(this.#style.dim("Interrupted."));
        return;
      case "assistant":
      case "user":
      case "loop_continue":
        return;
      default:
        checkNever(event);
    }
  }

  /** Writes a whole line (ending any partly streamed text first). */
  line(text: string): void {
    this.#line(text);
  }

  #entry(event: Extract<EngineEvent, { type: "entry" }>): void {
    const entry = event.entry;
    if (entry.type !== "system") return;
    if (entry.subtype === "compact_boundary" && entry.compactMetadata) {
      const { preTokens, postTokens } = entry.compactMetadata;
      this.#line(
        this.#style.dim(
          `✻ Compacted: ${preTokens.toLocaleString("en-US")} → ${postTokens.toLocaleString("en-US")} tokens`,
        ),
      );
    } else if (entry.subtype === "microcompact_boundary" && entry.microcompactMetadata) {
      const { compactedToolIds, tokensSaved } = entry.microcompactMetadata;
      this.#line(
        this.#style.dim(
          `✻ Cleared ${plural(compactedToolIds.length, "old tool result")} (~${tokensSaved.toLocaleString("en-US")} tokens)`,
        ),
      );
    } else if (entry.subtype === "snip_boundary" && entry.snipMetadata) {
      this.#line(this.#style.dim(`✻ Snipped ${plural(entry.snipMetadata.removedUuids.length, "message")}`));
    }
  }

  #notice(level: "info" | "warning" | "error", message: string): string {
    if (level === "error") return this.#style.error(`✗ ${message}`);
    if (level === "warning") return this.#style.warning(`! ${message}`);
    return this.#style.dim(`· ${message}`);
  }

  #progress(toolUseId: string, message: string): void {
    const summary = truncate(message, DEFAULT_OUTCOME_CHARS);
    if (this.#tty) {
      // Only the tool whose line is last on screen may show progress, rewritten in place.
      if (this.#liveTool !== toolUseId) return;
      if (!this.#liveProgress) this.#endLine();
      this.#out.write(`\r\x1b[2K  ⎿ ${this.#style.dim(summary)}`);
      this.#liveProgress = true;
      this.#atLineStart = false;
      return;
    }
    if (this.#verbose) this.#line(`  ⎿ ${summary}`);
  }

  #clearLive(toolUseId: string): void {
    if (this.#tty && this.#liveTool === toolUseId && this.#liveProgress) {
      this.#out.write("\r\x1b[2K");
      this.#atLineStart = true;
    }
    this.#liveProgress = false;
    if (this.#liveTool === toolUseId) this.#liveTool = undefined;
  }

  #text(text: string): void {
    if (this.#liveProgress) this.#endLine();
    this.#liveTool = undefined;
    this.#lastToolLine = undefined;
    this.#streamedText = true;
    this.#out.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #line(text: string): void {
    this.#lastToolLine = undefined;
    this.#endLine();
    this.#out.write(`${text}\n`);
    this.#atLineStart = true;
  }

  #endLine(): void {
    if (this.#liveProgress) {
      this.#out.write("\n");
      this.#liveProgress = false;
      this.#atLineStart = true;
    }
    if (!this.#atLineStart) {
      this.#out.write("\n");
      this.#atLineStart = true;
    }
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}
