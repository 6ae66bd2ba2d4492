/**
 * Turns engine events into terminal output: streamed text as it arrives, one line per tool call with its
 * progress and outcome, notices. On a TTY progress rewrites the tool's line in place; elsewhere every line is
 * plain and final, so logs and pipes read cleanly.
 */
import type { EngineEvent } from "../../../loop/events.js";
import { checkNever } from "../../../messages/index.js";
import { summarizeToolCall } from "../../../tools/index.js";
import { MarkdownStream } from "../../terminal/markdown.js";
import { createStyle, type Style } from "../../terminal/style.js";
import type { TextSink } from "../../terminal/text.js";
import { wrapOutput } from "../../terminal/wrap.js";
import { changeOf, formatDiff } from "./edit-diff.js";
import { taskListLines } from "./task-list-view.js";
import { expandGroup, type GroupedCall, groupSummary, isGroupedTool } from "./tool-groups.js";
import {
  bashOutputLines,
  bashPreviewLines,
  type ChangeCache,
  changeKey,
  DEFAULT_OUTCOME_CHARS,
  deniedReason,
  describeToolOutcome,
  plural,
  truncate,
} from "./tool-outcome.js";

export interface TurnRendererOptions {
  /** Show notices at info level and request starts. Default false. */
  verbose?: boolean;
  /**
   * Show the model's streamed text. Default true. `"intermediate"`: only text that a tool call follows in the same
   * message (print mode's -v log, whose answer is stdout's, so the answer is not shown twice).
   */
  text?: boolean | "intermediate";
  /** Default: colours on a TTY unless NO_COLOR is set. */
  style?: Style;
  /** Render streamed text as terminal markdown, a completed line at a time. Default false (text as it streams). */
  markdown?: boolean;
  /** Terminal width: markdown wraps to it, and so does every whole line written. Default: markdown at 100 columns, lines unwrapped. */
  width?: () => number;
  /**
   * Show a diff under every Edit and Write, the exit code and a few output lines under Bash. Default false.
   * Needs the working directory (relative paths) and `loadDiff()` done.
   */
  details?: { cwd: string; changes: ChangeCache };
  /** Show consecutive successful Read/Glob/Grep calls as one line (tool-groups.ts), Ctrl-O to expand. Default false. */
  groupReads?: boolean;
}

/** What a group line says about its key (interactive.ts binds Ctrl-O to `expandLastGroup`). */
export const DEFAULT_EXPAND_HINT = "ctrl+o to expand";

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
  readonly #markdown: MarkdownStream | undefined;
  readonly #details: TurnRendererOptions["details"];
  readonly #width: (() => number) | undefined;
  readonly #showText: boolean | "intermediate";
  /** Text of the message streaming now, held until a tool call shows it was not the answer ("intermediate"). */
  #heldText = "";
  readonly #groupReads: boolean;
  /** Summary lines of grouped calls started and not yet finished, by tool use id. */
  readonly #heldCalls = new Map<string, string>();
  /** Finished grouped calls not yet on screen: any other output shows them first, as one line. */
  #group: GroupedCall[] = [];
  /** The calls behind the last group line shown, for `expandLastGroup()`. */
  #lastGroup: GroupedCall[] = [];
  /** Error notices printed since the last `reset()` (the turn's end repeats the last one). */
  readonly #errorsShown = new Set<string>();

  constructor(out: TextSink, options: TurnRendererOptions = {}) {
    this.#out = out;
    this.#tty = out.isTTY === true;
    this.#verbose = options.verbose ?? false;
    this.#style = options.style ?? createStyle(this.#tty);
    this.#details = options.details;
    this.#width = options.width;
    this.#showText = options.text ?? true;
    this.#groupReads = options.groupReads ?? false;
    if (options.markdown === true) {
      this.#markdown = new MarkdownStream({
        color: this.#style.bold("x") !== "x",
        ...(options.width !== undefined ? { width: options.width } : {}),
      });
    }
  }

  /** Ends a turn's output: the last streamed line (markdown waits for line ends) is written. */
  finish(): void {
    this.#flushGroup();
    const rest = this.#markdown?.end() ?? "";
    if (rest !== "") this.#write(rest);
    this.#endLine();
  }

  /** Whether any assistant text was streamed since the last `reset()`. */
  get streamedText(): boolean {
    return this.#streamedText;
  }

  reset(): void {
    this.#streamedText = false;
    this.#errorsShown.clear();
    this.#toolLines.clear();
    this.#heldCalls.clear();
    this.#liveTool = undefined;
  }

  handle(event: EngineEvent): void {
    switch (event.type) {
      case "text_delta":
        if (event.text === "" || this.#showText === false) return;
        if (this.#showText === "intermediate") this.#heldText += event.text;
        else this.#text(event.text);
        return;
      case "message_start":
        // A retried or new message: what the last one held was neither shown nor an intermediate step.
        this.#heldText = "";
        return;
      case "tool_start": {
        if (this.#groupReads && isGroupedTool(event.block.name)) {
          this.#heldCalls.set(event.block.id, summarizeToolCall(event.block.name, event.block.input));
          return;
        }
        if (this.#heldText.trim() !== "") this.#line(this.#heldText.trimEnd());
        this.#heldText = "";
        this.#flushMarkdown();
        const details = this.#details;
        const key = changeKey(event.block.name, event.block.input);
        if (details !== undefined && !details.changes.has(key)) {
          const change = changeOf(event.block.name, event.block.input, details.cwd);
          if (change !== undefined) details.changes.set(key, change);
        }
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
      case "tool_end": {
        const denied = deniedReason(event.entry.toolUseResult);
        const outcome =
          denied !== undefined
            ? `denied${denied === "" ? "" : ` · you said: ${truncate(denied, DEFAULT_OUTCOME_CHARS)}`}`
            : describeToolOutcome(event.entry, event.block.id, event.isError);
        const held = this.#heldCalls.get(event.block.id);
        if (held !== undefined) {
          this.#heldCalls.delete(event.block.id);
          if (!event.isError && denied === undefined) {
            this.#group.push({ tool: event.block.name, line: held, outcome });
            return;
          }
          // A failed read is one terse line: the call and the first line of its error.
          this.#line(`${this.#style.error("✗")} ${held} ${this.#style.dim(`· ${outcome}`)}`);
          return;
        }
        const mark = event.isError ? this.#style.error("✗") : this.#style.success("✓");
        const follows = this.#lastToolLine === event.block.id;
        this.#clearLive(event.block.id);
        // When other tools' lines came in between (concurrent reads), name the tool again.
        const label = follows ? "" : `${this.#toolLines.get(event.block.id) ?? event.block.name}: `;
        // A denial reads "denied", not the instructions the model was given about it.
        const shown = denied !== undefined ? outcome : this.#detailedOutcome(event, outcome);
        this.#line(`  ⎿ ${mark} ${this.#style.dim(label + shown)}`);
        if (denied !== undefined) this.#details?.changes.delete(changeKey(event.block.name, event.block.input));
        else for (const detail of this.#detailLines(event)) this.#line(detail);
        this.#lastToolLine = undefined;
        return;
      }
      case "notice":
        if (event.level === "info" && !this.#verbose) return;
        if (event.level === "error") this.#errorsShown.add(event.message);
        this.#line(this.#notice(event.level, event.message));
        return;
      case "request_start":
        // `iteration` counts from 1 (the loop counts a request before it is made).
        if (this.#verbose)
          this.#line(this.#style.dim(`→ request ${event.iteration} (${event.request.json.length} bytes)`));
        return;
      case "entry":
        this.#entry(event);
        return;
      case "turn_end":
        this.#heldText = ""; // the answer, which stdout shows
        this.finish();
        if (event.reason !== "completed" && event.reason !== "aborted") {
          const message = event.error ?? `Turn ended: ${event.reason}`;
          // The loop's error notice usually said it already: once is enough.
          if (!this.#errorsShown.has(message)) this.#line(this.#notice("error", message));
        }
        if (event.reason === "aborted") this.#line(this.#style.dim("Interrupted."));
        return;
      case "turn_start":
      case "assistant":
      case "user":
      case "loop_continue":
      case "block_start":
      case "thinking_delta":
      case "tool_input_delta":
      case "block_end":
      case "message_end":
      case "stream_warning":
      case "sse_passthrough":
        return;
      default:
        checkNever(event);
    }
  }

  /** Writes a whole line (ending any partly streamed text first). */
  line(text: string): void {
    this.#line(text);
  }

  /** Shows the calls behind the last group line, one a line (Ctrl-O); false when there was no group. */
  expandLastGroup(): boolean {
    if (this.#lastGroup.length === 0) return false;
    for (const line of expandGroup(this.#lastGroup)) this.#line(`  ⎿ ${this.#style.dim(line)}`);
    return true;
  }

  /** Puts the pending group on screen: a lone call as its usual two lines, more as one summary line. */
  #flushGroup(): void {
    const calls = this.#group;
    if (calls.length === 0) return;
    this.#group = [];
    const [only] = calls;
    if (calls.length === 1 && only !== undefined) {
      this.#line(`${this.#style.accent("⏺")} ${only.line}`);
      this.#line(`  ⎿ ${this.#style.success("✓")} ${this.#style.dim(only.outcome)}`);
      return;
    }
    this.#lastGroup = calls;
    this.#line(`${this.#style.accent("⏺")} ${groupSummary(calls)} ${this.#style.dim(`(${DEFAULT_EXPAND_HINT})`)}`);
  }

  /** `exit 0 · 12 lines` for Bash; `+3 -1` for edits; the plain outcome otherwise. */
  #detailedOutcome(event: Extract<EngineEvent, { type: "tool_end" }>, outcome: string): string {
    if (this.#details === undefined) return outcome;
    const display = event.entry.toolUseResult as { kind?: unknown; exitCode?: unknown } | undefined;
    if (display?.kind === "bash" && (typeof display.exitCode === "number" || display.exitCode === null)) {
      const code = display.exitCode === null ? "killed" : `exit ${display.exitCode}`;
      // The output's first line is shown under this one; the outcome only counts the lines (no repeat).
      const lines = bashOutputLines(event.entry);
      const summary =
        lines.length === 0
          ? "no output"
          : lines.length === 1
            ? truncate(lines[0] ?? "", DEFAULT_OUTCOME_CHARS)
            : `${lines.length} lines`;
      return `${code} · ${summary}`;
    }
    const change = this.#details.changes.get(changeKey(event.block.name, event.block.input));
    if (change !== undefined && !event.isError) {
      const { added, removed } = formatDiff(change, this.#style, 0);
      return `${change.path} (+${added} -${removed})`;
    }
    return outcome;
  }

  /** The diff of an applied Edit/Write, or the first output lines of a command. */
  #detailLines(event: Extract<EngineEvent, { type: "tool_end" }>): string[] {
    const tasks = event.isError ? undefined : taskListLines(event.entry.toolUseResult, this.#style);
    if (tasks !== undefined) return tasks;
    const details = this.#details;
    if (details === undefined) return [];
    const key = changeKey(event.block.name, event.block.input);
    const change = details.changes.get(key);
    if (change !== undefined) {
      details.changes.delete(key);
      return event.isError ? [] : formatDiff(change, this.#style).lines.map((line) => `    ${line}`);
    }
    return bashPreviewLines(event.entry, this.#style);
  }

  #flushMarkdown(): void {
    const rest = this.#markdown?.end() ?? "";
    if (rest !== "") this.#write(rest);
  }

  #write(text: string): void {
    this.#out.write(this.#fit(text));
    this.#atLineStart = text.endsWith("\n");
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
    this.#flushGroup();
    if (this.#liveProgress) this.#endLine();
    this.#liveTool = undefined;
    this.#lastToolLine = undefined;
    this.#streamedText = true;
    if (this.#markdown !== undefined) {
      const rendered = this.#markdown.push(text);
      if (rendered !== "") this.#write(rendered);
      return;
    }
    this.#out.write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #line(text: string): void {
    this.#flushGroup();
    this.#lastToolLine = undefined;
    this.#flushMarkdown();
    this.#endLine();
    this.#out.write(`${this.#fit(text)}\n`);
    this.#atLineStart = true;
  }

  /** Whole lines wrapped to the terminal (when its width is known), continuations under their gutter. */
  #fit(text: string): string {
    if (this.#width === undefined) return text;
    return wrapOutput(text, Math.max(20, this.#width() - 1));
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
