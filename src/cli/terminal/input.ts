/**
 * The interactive prompt on a TTY: raw-mode keys, a multi-line editor with history, bracketed paste as one
 * prompt, type-ahead while a turn runs (still editable; Enter queues it for after the turn), single-key
 * answers for questions, and the live region at the bottom: spinner, the prompt, the status line.
 * Ctrl-C and Esc are handed to the owner (the REPL decides what they interrupt).
 */
import { EditBuffer } from "./edit-buffer.js";
import { KeyDecoder } from "./keys.js";
import { LiveRegion } from "./live-region.js";
import type { Style } from "./style.js";
import { stripAnsi, visibleWidth } from "./text.js";
import { wrapLine } from "./wrap.js";

/** Spinner frames, redrawn every `DEFAULT_SPINNER_TICK_MS`. */
export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Spinner redraw interval, milliseconds. */
export const DEFAULT_SPINNER_TICK_MS = 120;

/** The prompt's first-line marker and the indent of its continuation lines. */
export const PROMPT_MARKER = "> ";
const CONTINUATION = "  ";

export interface TerminalStreams {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (mode: boolean) => unknown };
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

export interface TerminalInputHandlers {
  /** Ctrl-C. */
  onInterrupt(): void;
  /** Esc. */
  onEscape(): void;
  /** Ctrl-O (show the last group of tool calls). Default: nothing. */
  onExpand?(): void;
  /** Shift-Tab (cycle the permission mode). Default: nothing. */
  onBackTab?(): void;
}

type Question = { keys: readonly string[]; resolve: (key: string | null) => void; text: string };

export class TerminalInput {
  readonly #streams: TerminalStreams;
  readonly #style: Style;
  readonly #handlers: TerminalInputHandlers;
  readonly #decoder = new KeyDecoder();
  readonly #buffer = new EditBuffer();
  readonly #region: LiveRegion;
  readonly #queued: string[] = [];
  #waiter: ((line: string | null) => void) | undefined;
  #prompt = PROMPT_MARKER;
  #question: Question | undefined;
  #status: string | undefined;
  /** A `statusLine` command's rows, drawn above the status line (cli/modes/status/status-command.ts). */
  #commandStatus: readonly string[] | undefined;
  #activity: (() => string) | undefined;
  #spinnerTimer: NodeJS.Timeout | undefined;
  #frame = 0;
  #closed = false;
  readonly #onData = (chunk: Buffer | string) => this.#feed(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
  readonly #onResize = () => this.#redraw();

  constructor(streams: TerminalStreams, style: Style, handlers: TerminalInputHandlers) {
    this.#streams = streams;
    this.#style = style;
    this.#handlers = handlers;
    this.#region = new LiveRegion(streams.stdout);
  }

  /** Raw mode on, bracketed paste on, keys flowing. */
  start(): void {
    this.#streams.stdin.setRawMode?.(true);
    this.#streams.stdout.write("\x1b[?2004h");
    this.#streams.stdin.on("data", this.#onData);
    this.#streams.stdin.resume();
    this.#streams.stdout.on("resize", this.#onResize);
  }

  /** Restores the terminal. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.stopActivity();
    this.#region.clear();
    this.#streams.stdout.write("\x1b[?2004l");
    this.#streams.stdin.off("data", this.#onData);
    this.#streams.stdout.off("resize", this.#onResize);
    this.#streams.stdin.setRawMode?.(false);
    this.#streams.stdin.pause();
    this.#settle(null);
  }

  /** Whether someone waits for a prompt line. */
  get waiting(): boolean {
    return this.#waiter !== undefined || this.#question !== undefined;
  }

  /** Prints finished output above the live region. */
  print(text: string): void {
    this.#region.printAbove(text);
  }

  /** The next prompt (queued type-ahead first); null once closed or on Ctrl-D at an empty prompt. */
  next(prompt: string = PROMPT_MARKER): Promise<string | null> {
    const queued = this.#queued.shift();
    if (queued !== undefined) {
      this.print(`${this.#style.dim(prompt)}${queued.replaceAll("\n", `\n${CONTINUATION}`)}`);
      return Promise.resolve(queued);
    }
    if (this.#closed) return Promise.resolve(null);
    this.#prompt = prompt;
    return new Promise((resolve) => {
      this.#waiter = resolve;
      this.#redraw();
    });
  }

  /** Asks a question answered by one key of `keys` (lower case); Esc or Ctrl-C dismiss it (null). */
  choose(text: string, keys: readonly string[]): Promise<string | null> {
    return new Promise((resolve) => {
      this.#question = { text, keys, resolve };
      this.#redraw();
    });
  }

  /** Settles a pending question or prompt with `answer` (null: dismissed). */
  cancel(answer: string | null): void {
    const question = this.#question;
    if (question !== undefined) {
      this.#question = undefined;
      question.resolve(answer);
      this.#redraw();
      return;
    }
    this.#settle(answer);
  }

  /** Clears the screen and the scrollback, then redraws the live region at the top. */
  clearScreen(): void {
    this.#region.clear();
    this.#streams.stdout.write("\x1b[2J\x1b[3J\x1b[H");
    this.#region.reset();
    this.#redraw();
  }

  /** A sink for line-oriented output: complete lines go above the region, a partial line waits for its end. */
  sink(): { write(text: string): boolean; flush(): void } {
    let partial = "";
    return {
      write: (text: string) => {
        const combined = partial + text;
        const end = combined.lastIndexOf("\n");
        if (end === -1) {
          partial = combined;
          return true;
        }
        partial = combined.slice(end + 1);
        this.print(combined.slice(0, end + 1));
        return true;
      },
      flush: () => {
        if (partial !== "") this.print(partial);
        partial = "";
      },
    };
  }

  /** Clears typed text; false when there was none. */
  clearInput(): boolean {
    if (this.#buffer.text === "" && this.#queued.length === 0) return false;
    this.#buffer.clear();
    this.#queued.length = 0;
    this.#redraw();
    return true;
  }

  /** The line under the prompt (context, tokens, cost); undefined hides it. */
  setStatus(text: string | undefined): void {
    this.#status = text;
    this.#redraw();
  }

  /** The `statusLine` command's rows (its own colours kept, each cut to the width); undefined hides them. */
  setCommandStatus(rows: readonly string[] | undefined): void {
    this.#commandStatus = rows;
    this.#redraw();
  }

  /** Shows a spinner line whose text `describe` gives (called on every frame). */
  startActivity(describe: () => string): void {
    this.#activity = describe;
    if (this.#spinnerTimer === undefined) {
      this.#spinnerTimer = setInterval(() => {
        this.#frame = (this.#frame + 1) % SPINNER_FRAMES.length;
        this.#redraw();
      }, DEFAULT_SPINNER_TICK_MS);
      this.#spinnerTimer.unref();
    }
    this.#redraw();
  }

  stopActivity(): void {
    clearInterval(this.#spinnerTimer);
    this.#spinnerTimer = undefined;
    this.#activity = undefined;
    this.#redraw();
  }

  #settle(line: string | null): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(line);
  }

  #feed(chunk: string): void {
    for (const key of this.#decoder.feed(chunk)) {
      if (this.#question !== undefined) {
        this.#answer(key.type === "text" ? key.text : key.type);
        continue;
      }
      switch (key.type) {
        case "interrupt":
          this.#handlers.onInterrupt();
          continue;
        case "escape":
          this.#handlers.onEscape();
          continue;
        case "eof":
          if (this.#buffer.text === "" && this.#waiter !== undefined) this.#settle(null);
          continue;
        case "expand":
          this.#handlers.onExpand?.();
          continue;
        case "back-tab":
          this.#handlers.onBackTab?.();
          continue;
        case "clear-screen":
          this.#streams.stdout.write("\x1b[2J\x1b[H");
          this.#region.reset();
          this.#redraw();
          continue;
        default:
          break;
      }
      if (this.#buffer.apply(key) !== "submit") {
        this.#redraw();
        continue;
      }
      const text = this.#buffer.take();
      if (this.#waiter !== undefined) {
        // Echo the submitted prompt above (the region is redrawn without it).
        this.print(`${this.#style.bold(this.#prompt)}${text.replaceAll("\n", `\n${CONTINUATION}`)}`);
        this.#settle(text);
      } else if (text.trim() !== "") {
        this.#queued.push(text);
      }
      this.#redraw();
    }
  }

  #answer(typed: string): void {
    const question = this.#question;
    if (question === undefined) return;
    const key = typed.toLowerCase();
    const dismissed = key === "escape" || key === "interrupt";
    if (!dismissed && !question.keys.includes(key)) return; // other keys are ignored; the question stays
    this.#question = undefined;
    const columns = Math.max(20, this.#streams.stdout.columns || 80);
    this.print(wrapLine(`${question.text} ${this.#style.bold(dismissed ? "esc" : key)}`, columns - 1, "  ").join("\n"));
    question.resolve(dismissed ? null : key);
    this.#redraw();
  }

  #redraw(): void {
    if (this.#closed) return;
    const columns = Math.max(20, this.#streams.stdout.columns || 80);
    const rows: string[] = [];
    let cursor: { row: number; column: number } | undefined;
    // No spinner or running clock while a person is being asked: nothing runs until they answer.
    const asking = this.#question !== undefined || (this.#waiter !== undefined && this.#activity !== undefined);
    if (this.#activity !== undefined && !asking) {
      rows.push(fitRow(`${this.#style.accent(SPINNER_FRAMES[this.#frame] ?? "")} ${this.#activity()}`, columns));
    }
    for (const line of this.#queued)
      rows.push(fitRow(this.#style.dim(`⏎ queued: ${line.replaceAll("\n", " ")}`), columns));
    if (this.#question !== undefined) {
      // Wrapped, not cut: in a narrow window every option must stay readable.
      rows.push(...wrapLine(this.#question.text, columns - 1, "  "));
    } else {
      const editor = editorRows(this.#buffer.text, this.#buffer.cursor, columns);
      const marker = this.#waiter !== undefined ? this.#style.bold(this.#prompt) : this.#style.dim(this.#prompt);
      cursor = { row: rows.length + editor.cursorRow, column: editor.cursorColumn };
      editor.rows.forEach((row, index) => {
        rows.push((index === 0 ? marker : CONTINUATION) + row);
      });
    }
    for (const row of this.#commandStatus ?? []) rows.push(fitRow(row, columns));
    // Wrapped rather than cut: in a narrow window the cost at its end must still show.
    if (this.#status !== undefined) rows.push(...wrapLine(this.#style.dim(this.#status), columns - 1));
    this.#region.render(cursor !== undefined ? { rows, cursor } : { rows });
  }
}

/** Cuts a styled row to the width (one column spare, so the terminal never wraps it). */
function fitRow(row: string, columns: number): string {
  if (visibleWidth(row) < columns) return row;
  const plain = stripAnsi(row);
  return `${[...plain].slice(0, columns - 2).join("")}…`;
}

/** The typed text wrapped to the width after the prompt marker, and where its cursor lands. */
export function editorRows(
  text: string,
  cursor: number,
  columns: number,
): { rows: string[]; cursorRow: number; cursorColumn: number } {
  const width = Math.max(8, columns - PROMPT_MARKER.length - 1);
  const rows: string[] = [];
  let cursorRow = 0;
  let cursorColumn = PROMPT_MARKER.length;
  let offset = 0;
  for (const line of text.split("\n")) {
    const characters = [...line];
    // One row more when the line fills rows exactly, so the cursor after it has a place.
    const count = Math.floor(characters.length / width) + 1;
    const lineStart = offset;
    for (let index = 0; index < count; index++)
      rows.push(characters.slice(index * width, (index + 1) * width).join(""));
    if (cursor >= lineStart && cursor <= lineStart + line.length) {
      const column = [...line.slice(0, cursor - lineStart)].length;
      cursorRow = rows.length - count + Math.floor(column / width);
      cursorColumn = PROMPT_MARKER.length + (column % width);
    }
    offset += line.length + 1;
  }
  return { rows, cursorRow, cursorColumn };
}
