/**
 * Lines typed at the prompt, one consumer at a time: the REPL asks for the next prompt, a permission
 * question asks for its answer. Lines typed while nobody asks (during a turn) wait in order.
 */
import type { Interface } from "node:readline";

export class LineReader {
  readonly #rl: Interface;
  readonly #echo: ((line: string) => void) | undefined;
  readonly #buffered: string[] = [];
  #waiter: ((line: string | null) => void) | undefined;
  #closed = false;

  /** `echo` is called with each consumed line when the terminal does not echo it itself (non-TTY input). */
  constructor(rl: Interface, echo?: (line: string) => void) {
    this.#rl = rl;
    this.#echo = echo;
    rl.on("line", (line) => {
      const waiter = this.#waiter;
      if (waiter === undefined) {
        this.#buffered.push(line);
        return;
      }
      this.#waiter = undefined;
      waiter(line);
    });
    rl.on("close", () => {
      this.#closed = true;
      const waiter = this.#waiter;
      this.#waiter = undefined;
      waiter?.(null);
    });
  }

  get closed(): boolean {
    return this.#closed && this.#buffered.length === 0;
  }

  /** Whether someone is waiting for a line. */
  get waiting(): boolean {
    return this.#waiter !== undefined;
  }

  /** The next line (null at end of input), showing `prompt` on a TTY. */
  next(prompt: string): Promise<string | null> {
    const buffered = this.#buffered.shift();
    if (buffered !== undefined) {
      this.#echo?.(`${prompt}${buffered}`);
      return Promise.resolve(buffered);
    }
    if (this.#closed) return Promise.resolve(null);
    this.#rl.setPrompt(prompt);
    if (this.#echo === undefined) this.#rl.prompt();
    return new Promise((resolve) => {
      this.#waiter = (line) => {
        if (line !== null) this.#echo?.(`${prompt}${line}`);
        resolve(line);
      };
    });
  }

  /** Answers the pending `next` with `line` (Ctrl-C at a question answers it). */
  cancel(line: string | null): void {
    const waiter = this.#waiter;
    this.#waiter = undefined;
    waiter?.(line);
  }

  /** Clears the line being edited (Ctrl-C at the prompt). */
  clearInput(): boolean {
    const had = this.#rl.line.length > 0;
    if (had) this.#rl.write(null, { ctrl: true, name: "u" });
    return had;
  }

  close(): void {
    this.#rl.close();
  }
}
