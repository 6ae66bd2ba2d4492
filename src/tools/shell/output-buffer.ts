/**
 * Bounded capture of a long output: keeps the head and the tail and counts what was dropped in between, so a
 * command printing gigabytes costs a fixed amount of memory and the model still sees how it started and ended.
 */

/** Most characters of tool output the model receives (head + tail + the cut notice). */
export const DEFAULT_MAX_OUTPUT_CHARS = 30_000;

/** Room reserved for the cut notice inside the cap. */
const NOTICE_RESERVE = 200;

export class OutputBuffer {
  readonly #maxChars: number;
  readonly #headChars: number;
  readonly #tailChars: number;
  #head = "";
  #tail = "";
  #total = 0;

  /** @param maxChars the cap on `text()`'s length (default `DEFAULT_MAX_OUTPUT_CHARS`). */
  constructor(maxChars: number = DEFAULT_MAX_OUTPUT_CHARS) {
    this.#maxChars = maxChars;
    const kept = Math.max(0, maxChars - NOTICE_RESERVE);
    this.#headChars = Math.ceil(kept / 2);
    this.#tailChars = Math.floor(kept / 2);
  }

  /** Characters appended so far. */
  get totalChars(): number {
    return this.#total;
  }

  append(chunk: string): void {
    if (chunk.length === 0) return;
    this.#total += chunk.length;
    // Until the cap is reached everything lives in `head`; after that `head` is frozen and `tail` rolls.
    if (this.#tail.length === 0 && this.#head.length + chunk.length <= this.#maxChars) {
      this.#head += chunk;
      return;
    }
    if (this.#head.length > this.#headChars) {
      this.#tail = this.#head.slice(this.#headChars);
      this.#head = this.#head.slice(0, this.#headChars);
    }
    const roomInHead = this.#headChars - this.#head.length;
    if (roomInHead > 0) {
      this.#head += chunk.slice(0, roomInHead);
      chunk = chunk.slice(roomInHead);
    }
    this.#tail = (this.#tail + chunk).slice(-this.#tailChars);
  }

  /** The captured text, with a line saying how much was cut when the output exceeded the cap. */
  text(): string {
    if (this.#total <= this.#maxChars) return this.#head + this.#tail;
    const cut = this.#total - this.#head.length - this.#tail.length;
    return (
      `${this.#head}\n\n... [${cut} characters truncated from the middle of ${this.#total}; ` +
      `showing the first ${this.#head.length} and the last ${this.#tail.length}] ...\n\n${this.#tail}`
    );
  }
}

/** `text` capped at `maxChars` (default `DEFAULT_MAX_OUTPUT_CHARS`), keeping head and tail. */
export function truncateMiddle(text: string, maxChars: number = DEFAULT_MAX_OUTPUT_CHARS): string {
  const buffer = new OutputBuffer(maxChars);
  buffer.append(text);
  return buffer.text();
}
