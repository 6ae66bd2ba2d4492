/** `cat -n` style numbering shared by Read and Edit's snippets. */

/** Longest line Read shows in full; longer lines are cut with a marker. */
export const DEFAULT_MAX_LINE_CHARS = 2000;

/** Width `cat -n` right-aligns line numbers to. */
const NUMBER_WIDTH = 6;

/** One line as `cat -n` prints it: the number right-aligned to six columns, a tab, the text (cut when too long). */
function numberLine(
  lineNumber: number,
  text: string,
  fullLength = text.length,
  maxLineChars: number = DEFAULT_MAX_LINE_CHARS,
): string {
  const shown =
    text.length > maxLineChars ? `${text.slice(0, maxLineChars)}... [line truncated: ${fullLength} characters]` : text;
  return `${String(lineNumber).padStart(NUMBER_WIDTH, " ")}\t${shown}`;
}

/**
 * Numbers `lines`, the first being line `firstLineNumber` (1-based). `fullLengths` gives the real length of
 * lines the caller kept only the start of (Read streams a huge line and keeps its first characters).
 */
export function numberLines(
  lines: readonly string[],
  firstLineNumber: number,
  fullLengths?: readonly number[],
): string {
  return lines.map((line, index) => numberLine(firstLineNumber + index, line, fullLengths?.[index])).join("\n");
}
