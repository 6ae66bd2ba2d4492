/**
 * The `@path` imports of a memory file: a token starting with `@` at the start of a line or after whitespace,
 * outside fenced code blocks and inline code spans (so `@decorator` in a code sample is never read as a path).
 * Trailing sentence punctuation is not part of the path. See docs/MEMORY.md "Imports".
 */

const FENCE = /^\s*(```|~~~)/;
const INLINE_CODE = /`[^`]*`/g;
const IMPORT = /(?:^|\s)@([^\s`]+)/g;
const TRAILING_PUNCTUATION = /[),;:!?'"\]]+$/;

/** The import targets written in `text`, in order, as written (not yet resolved). */
export function importTargets(text: string): string[] {
  const targets: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (FENCE.test(line)) {
      fenced = !fenced;
      continue;
    }
    if (fenced) continue;
    for (const match of line.replace(INLINE_CODE, " ").matchAll(IMPORT)) {
      let target = match[1]!.replace(TRAILING_PUNCTUATION, "");
      if (target.endsWith(".") && target.length > 1) target = target.slice(0, -1);
      if (target.length > 0) targets.push(target);
    }
  }
  return targets;
}
