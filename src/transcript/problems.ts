/** What loading found wrong with a line: reported, skipped, never fatal. */

/** Longest excerpt of a bad line kept in a problem report. */
export const MAX_EXCERPT_CHARS = 120;

export interface LoadProblem {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
  /** The start of the line, at most `MAX_EXCERPT_CHARS` characters. */
  excerpt: string;
}

/** A problem for `line`, with the excerpt cut to `MAX_EXCERPT_CHARS`. */
export function lineProblem(line: number, reason: string, text: string): LoadProblem {
  const excerpt = text.length > MAX_EXCERPT_CHARS ? text.slice(0, MAX_EXCERPT_CHARS - 1) + "…" : text;
  return { line, reason, excerpt };
}

/** Adds one to `counts[key]`. */
export function countInto(counts: Record<string, number>, key: string): void {
  counts[key] = (counts[key] ?? 0) + 1;
}
