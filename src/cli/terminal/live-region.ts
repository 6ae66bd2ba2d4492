/**
 * The bottom of the terminal that is redrawn in place (spinner, prompt being typed, status line), with
 * finished output printed above it. Every write goes through here so the two never interleave: the region
 * is erased, the output written, the region drawn again. Rows are given already wrapped to the width.
 */
import { type TextSink, visibleWidth } from "./text.js";

export interface RegionBlock {
  rows: string[];
  /** Where the cursor rests (row within `rows`, column); default: the end of the last row. */
  cursor?: { row: number; column: number };
}

export class LiveRegion {
  readonly #out: TextSink;
  #block: RegionBlock = { rows: [] };
  /** Row of the region the terminal cursor is on. */
  #cursorRow = 0;
  #drawn = false;

  constructor(out: TextSink) {
    this.#out = out;
  }

  /** Replaces the region's content. */
  render(block: RegionBlock): void {
    this.#block = block;
    this.#out.write(this.#erase() + this.#draw());
  }

  /** Prints finished output above the region (a newline is added when missing). */
  printAbove(text: string): void {
    if (text === "") return;
    const body = text.endsWith("\n") ? text : `${text}\n`;
    this.#out.write(this.#erase() + body + this.#draw());
  }

  /** Erases the region and forgets it (before exit, or handing the terminal to something else). */
  clear(): void {
    this.#out.write(this.#erase());
    this.#block = { rows: [] };
    this.#drawn = false;
  }

  /** Forgets what is drawn without erasing (after the screen itself was cleared). */
  reset(): void {
    this.#drawn = false;
    this.#cursorRow = 0;
  }

  #erase(): string {
    if (!this.#drawn) return "";
    const up = this.#cursorRow > 0 ? `\x1b[${this.#cursorRow}A` : "";
    this.#drawn = false;
    this.#cursorRow = 0;
    return `${up}\r\x1b[J`;
  }

  #draw(): string {
    const rows = this.#block.rows;
    if (rows.length === 0) return "";
    const last = rows.length - 1;
    const target = this.#block.cursor ?? { row: last, column: visibleWidth(rows[last] ?? "") };
    const row = Math.max(0, Math.min(last, target.row));
    const up = last - row;
    let text = rows.join("\r\n");
    if (up > 0) text += `\x1b[${up}A`;
    text += "\r";
    if (target.column > 0) text += `\x1b[${target.column}C`;
    this.#cursorRow = row;
    this.#drawn = true;
    return text;
  }
}
