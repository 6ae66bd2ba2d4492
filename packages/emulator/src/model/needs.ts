/**
 * A scenario step's `needs`: facts the scripted model must see before it can take the step (an Edit's
 * `old_string`, a number a final answer quotes), each with the file it can be read again from. A fact is
 * visible when every non-blank line of it, trimmed, occurs in the effective request's text — line by line
 * because a file comes back line-numbered (`cat -n`), so a multi-line fact is never one substring.
 */

/** A fact a step needs, and where it can be read again. */
export interface Need {
  /** The exact text (one or more lines; write distinctive lines, a bare `}` is always "visible"). */
  text: string;
  /** The file a `Read` brings it back from. */
  file: string;
}

/** Re-reads of a step's missing facts before they count as lost and the step is served anyway: 2. */
export const DEFAULT_MAX_REREADS = 2;

/** Whether `need` can be seen in `visible` (the effective request's text). */
export function isNeedVisible(need: Need, visible: string): boolean {
  for (const line of need.text.split("\n")) {
    const trimmed = line.trim();
    if (trimmed !== "" && !visible.includes(trimmed)) return false;
  }
  return true;
}

/** The needs not visible in `visible`, in order. */
export function missingNeeds(needs: readonly Need[], visible: string): Need[] {
  return needs.filter((need) => !isNeedVisible(need, visible));
}

/** The distinct files of `needs`, in first-seen order. */
export function filesOf(needs: readonly Need[]): string[] {
  return [...new Set(needs.map((need) => need.file))];
}
