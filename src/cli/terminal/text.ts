/**
 * What every terminal module shares about text on screen: where it goes (a sink), the escape codes that take
 * no columns, and how wide the rest is. One module, so the live region, the renderer and markdown read the
 * same pattern and none of them imports another to get it.
 */

/** Where rendered text goes (a process stream or a test buffer). */
export interface TextSink {
  write(text: string): unknown;
  isTTY?: boolean;
}

/** ANSI escape sequences (colours, cursor moves, OSC titles and links), which take no columns. */
export const ANSI_PATTERN = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07/g;

/** `text` with every escape sequence removed. */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_PATTERN, "");
}

/** Columns `text` takes on screen (escape codes take none; one column a code point). */
export function visibleWidth(text: string): number {
  return [...stripAnsi(text)].length;
}
