/**
 * Raw terminal input to keys: printable text, editing keys, Alt/Shift-Enter where the terminal sends a
 * distinct sequence, and bracketed paste (ESC[200~ … ESC[201~, possibly split across reads) as one key.
 * Pure: feed it chunks, get keys.
 */

export type Key =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | { type: "enter" }
  /** Alt-Enter, Shift-Enter (CSI u / modifyOtherKeys) or Ctrl-J: a newline inside the prompt. */
  | { type: "newline" }
  | { type: "backspace" }
  | { type: "delete" }
  | { type: "left" }
  | { type: "right" }
  | { type: "up" }
  | { type: "down" }
  | { type: "home" }
  | { type: "end" }
  | { type: "word-left" }
  | { type: "word-right" }
  | { type: "delete-word" }
  | { type: "kill-line-before" }
  | { type: "kill-line-after" }
  | { type: "interrupt" }
  | { type: "eof" }
  | { type: "escape" }
  | { type: "clear-screen" }
  /** Ctrl-O: show the calls behind the last grouped tool line. */
  | { type: "expand" }
  | { type: "tab" }
  /** Shift-Tab (back-tab, ESC [ Z): cycles the permission mode. */
  | { type: "back-tab" };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

/** Escape sequences with a fixed meaning. */
const SEQUENCES: ReadonlyArray<[string, Key]> = [
  ["\x1b[13;2u", { type: "newline" }],
  ["\x1b[13;3u", { type: "newline" }],
  ["\x1b[27;2;13~", { type: "newline" }],
  ["\x1b[27;3;13~", { type: "newline" }],
  ["\x1b\r", { type: "newline" }],
  ["\x1b\n", { type: "newline" }],
  ["\x1b[A", { type: "up" }],
  ["\x1b[B", { type: "down" }],
  ["\x1b[C", { type: "right" }],
  ["\x1b[D", { type: "left" }],
  ["\x1bOA", { type: "up" }],
  ["\x1bOB", { type: "down" }],
  ["\x1bOC", { type: "right" }],
  ["\x1bOD", { type: "left" }],
  ["\x1b[H", { type: "home" }],
  ["\x1b[F", { type: "end" }],
  ["\x1bOH", { type: "home" }],
  ["\x1bOF", { type: "end" }],
  ["\x1b[1~", { type: "home" }],
  ["\x1b[4~", { type: "end" }],
  ["\x1b[7~", { type: "home" }],
  ["\x1b[8~", { type: "end" }],
  ["\x1b[3~", { type: "delete" }],
  ["\x1b[1;5C", { type: "word-right" }],
  ["\x1b[1;5D", { type: "word-left" }],
  ["\x1b[1;3C", { type: "word-right" }],
  ["\x1b[1;3D", { type: "word-left" }],
  ["\x1bf", { type: "word-right" }],
  ["\x1bb", { type: "word-left" }],
  ["\x1b\x7f", { type: "delete-word" }],
  ["\x1b[Z", { type: "back-tab" }],
];

const CONTROL_KEYS: Readonly<Record<string, Key>> = {
  "\r": { type: "enter" },
  "\n": { type: "newline" },
  "\x7f": { type: "backspace" },
  "\b": { type: "backspace" },
  "\x01": { type: "home" },
  "\x05": { type: "end" },
  "\x02": { type: "left" },
  "\x06": { type: "right" },
  "\x10": { type: "up" },
  "\x0e": { type: "down" },
  "\x03": { type: "interrupt" },
  "\x04": { type: "eof" },
  "\x15": { type: "kill-line-before" },
  "\x0b": { type: "kill-line-after" },
  "\x17": { type: "delete-word" },
  "\x0c": { type: "clear-screen" },
  "\x0f": { type: "expand" },
  "\t": { type: "tab" },
};

export class KeyDecoder {
  /** Text of a paste still waiting for its end marker. */
  #paste: string | undefined;
  /** An incomplete escape sequence held until the next chunk. */
  #pending = "";

  /** Keys in `chunk` (with anything held from the previous one). A read of ESC alone is the Escape key. */
  feed(chunk: string): Key[] {
    let input = this.#pending + chunk;
    this.#pending = "";
    const keys: Key[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") keys.push({ type: "text", text });
      text = "";
    };
    while (input.length > 0) {
      if (this.#paste !== undefined) {
        const end = input.indexOf(PASTE_END);
        if (end === -1) {
          // Keep a possible partial end marker for the next chunk.
          const keep = partialSuffix(input, PASTE_END);
          this.#paste += input.slice(0, input.length - keep);
          this.#pending = input.slice(input.length - keep);
          return keys;
        }
        keys.push({ type: "paste", text: normalizeNewlines(this.#paste + input.slice(0, end)) });
        this.#paste = undefined;
        input = input.slice(end + PASTE_END.length);
        continue;
      }
      if (input.startsWith(PASTE_START)) {
        flush();
        this.#paste = "";
        input = input.slice(PASTE_START.length);
        continue;
      }
      const character = input[0] as string;
      if (character === "\x1b") {
        flush();
        const known = SEQUENCES.find(([sequence]) => input.startsWith(sequence));
        if (known !== undefined) {
          keys.push(known[1]);
          input = input.slice(known[0].length);
          continue;
        }
        if (input.length === 1) {
          // The Esc key arrives alone; an ESC ending a longer read is more likely a sequence cut in two.
          if (chunk === "\x1b") keys.push({ type: "escape" });
          else this.#pending = input;
          return keys;
        }
        const unknown = /^\x1b(\[[0-9;?]*[ -/]*[@-~]|O.|.)/s.exec(input);
        if (unknown === null || (input.length < 8 && isPrefixOfKnown(input))) {
          // An escape sequence cut by the read: wait for the rest.
          this.#pending = input;
          return keys;
        }
        input = input.slice(unknown[0].length); // an unknown sequence: dropped, never typed as text
        continue;
      }
      const control = CONTROL_KEYS[character];
      if (control !== undefined) {
        flush();
        keys.push(control);
        input = input.slice(1);
        continue;
      }
      if (character < " ") {
        input = input.slice(1); // other control characters are ignored
        continue;
      }
      text += character;
      input = input.slice(1);
    }
    flush();
    return keys;
  }
}

function isPrefixOfKnown(input: string): boolean {
  return (
    PASTE_START.startsWith(input) ||
    SEQUENCES.some(([sequence]) => sequence.length > input.length && sequence.startsWith(input))
  );
}

/** Length of the longest suffix of `text` that is a proper prefix of `marker`. */
function partialSuffix(text: string, marker: string): number {
  for (let length = Math.min(marker.length - 1, text.length); length > 0; length--) {
    if (marker.startsWith(text.slice(text.length - length))) return length;
  }
  return 0;
}

function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, "\n");
}
