/**
 * The text being typed at the prompt: possibly several lines, a cursor (an index into the text), and the
 * history of submitted prompts (up/down walk it when the cursor is on the first/last line). Pure state.
 */
import type { Key } from "./keys.js";

/** Prompts kept in the history. */
export const DEFAULT_HISTORY_SIZE = 500;

export type EditOutcome = "changed" | "submit" | "unhandled";

export class EditBuffer {
  text = "";
  cursor = 0;
  readonly #history: string[] = [];
  /** Position while walking the history (history length: the draft). */
  #historyIndex = 0;
  #draft = "";

  /** Applies an editing key; "submit" on Enter (unless the line ends with a `\`, which continues it). */
  apply(key: Key): EditOutcome {
    switch (key.type) {
      case "text":
      case "paste":
        this.insert(key.text);
        return "changed";
      case "newline":
        this.insert("\n");
        return "changed";
      case "enter": {
        const before = this.text.slice(0, this.cursor);
        if (before.endsWith("\\") && this.cursor === this.text.length) {
          this.text = `${before.slice(0, -1)}\n`;
          this.cursor = this.text.length;
          return "changed";
        }
        return "submit";
      }
      case "backspace":
        if (this.cursor === 0) return "changed";
        this.text = this.text.slice(0, this.cursor - 1) + this.text.slice(this.cursor);
        this.cursor--;
        return "changed";
      case "delete":
        this.text = this.text.slice(0, this.cursor) + this.text.slice(this.cursor + 1);
        return "changed";
      case "left":
        this.cursor = Math.max(0, this.cursor - 1);
        return "changed";
      case "right":
        this.cursor = Math.min(this.text.length, this.cursor + 1);
        return "changed";
      case "home":
        this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
        return "changed";
      case "end": {
        const end = this.text.indexOf("\n", this.cursor);
        this.cursor = end === -1 ? this.text.length : end;
        return "changed";
      }
      case "word-left":
        this.cursor = wordStart(this.text, this.cursor);
        return "changed";
      case "word-right": {
        const match = /^\s*\S+/.exec(this.text.slice(this.cursor));
        this.cursor = match === null ? this.text.length : this.cursor + match[0].length;
        return "changed";
      }
      case "delete-word": {
        const start = wordStart(this.text, this.cursor);
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
        return "changed";
      }
      case "kill-line-before": {
        const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
        this.text = this.text.slice(0, start) + this.text.slice(this.cursor);
        this.cursor = start;
        return "changed";
      }
      case "kill-line-after": {
        const end = this.text.indexOf("\n", this.cursor);
        this.text = this.text.slice(0, this.cursor) + (end === -1 ? "" : this.text.slice(end));
        return "changed";
      }
      case "up":
        return this.#vertical(-1);
      case "down":
        return this.#vertical(1);
      case "tab":
        this.insert("  ");
        return "changed";
      case "interrupt":
      case "eof":
      case "escape":
      case "clear-screen":
      case "expand":
      case "back-tab":
        return "unhandled";
      default: {
        const unknown: never = key;
        throw new Error(`unhandled key ${JSON.stringify(unknown)}`);
      }
    }
  }

  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Empties the buffer and returns what it held (after recording it in the history). */
  take(): string {
    const text = this.text;
    if (text.trim() !== "" && this.#history.at(-1) !== text) {
      this.#history.push(text);
      if (this.#history.length > DEFAULT_HISTORY_SIZE) this.#history.shift();
    }
    this.clear();
    return text;
  }

  clear(): void {
    this.text = "";
    this.cursor = 0;
    this.#historyIndex = this.#history.length;
    this.#draft = "";
  }

  /** Moves between lines of a multi-line prompt, or through the history at its first/last line. */
  #vertical(direction: -1 | 1): EditOutcome {
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    const column = this.cursor - lineStart;
    if (direction < 0 && lineStart > 0) {
      const previousStart = this.text.lastIndexOf("\n", lineStart - 2) + 1;
      this.cursor = Math.min(previousStart + column, lineStart - 1);
      return "changed";
    }
    const lineEnd = this.text.indexOf("\n", this.cursor);
    if (direction > 0 && lineEnd !== -1) {
      const nextEnd = this.text.indexOf("\n", lineEnd + 1);
      this.cursor = Math.min(lineEnd + 1 + column, nextEnd === -1 ? this.text.length : nextEnd);
      return "changed";
    }
    if (this.#historyIndex === this.#history.length) this.#draft = this.text;
    const index = this.#historyIndex + direction;
    if (index < 0 || index > this.#history.length) return "changed";
    this.#historyIndex = index;
    this.text = index === this.#history.length ? this.#draft : (this.#history[index] ?? "");
    this.cursor = this.text.length;
    return "changed";
  }
}

function wordStart(text: string, cursor: number): number {
  const match = /\S+\s*$/.exec(text.slice(0, cursor));
  return match === null ? 0 : cursor - match[0].length;
}
