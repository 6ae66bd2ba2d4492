/**
 * A small line-based unified diff (the `diff -u` format), enough to show what changed in a system prompt or a
 * tool list between two requests. Common head and tail are trimmed first, so the quadratic LCS only runs over
 * the changed middle; a middle too large for it is shown as a whole replacement.
 */

/** Lines of unchanged context around each change. */
export const DEFAULT_DIFF_CONTEXT_LINES = 3;

/** Largest (before × after) middle the LCS table is built for; larger middles are shown as replaced. */
export const DEFAULT_MAX_LCS_CELLS = 4_000_000;

type Operation = { kind: " " | "-" | "+"; line: string };

/** Unified diff of two texts; empty string when they are equal. */
export function unifiedDiff(
  before: string,
  after: string,
  labels: { before: string; after: string },
  contextLines = DEFAULT_DIFF_CONTEXT_LINES,
): string {
  if (before === after) return "";
  const operations = diffLines(splitLines(before), splitLines(after));
  const output = [`--- ${labels.before}`, `+++ ${labels.after}`];
  for (const hunk of hunks(operations, contextLines)) output.push(...hunk);
  return output.join("\n") + "\n";
}

/** Empty text has no lines (not one empty line), as `diff` sees an empty file. */
function splitLines(text: string): string[] {
  return text === "" ? [] : text.split("\n");
}

function diffLines(before: readonly string[], after: readonly string[]): Operation[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (
    tail < before.length - head &&
    tail < after.length - head &&
    before[before.length - 1 - tail] === after[after.length - 1 - tail]
  )
    tail++;
  const operations: Operation[] = [];
  for (let index = 0; index < head; index++) operations.push({ kind: " ", line: before[index] ?? "" });
  operations.push(...diffMiddle(before.slice(head, before.length - tail), after.slice(head, after.length - tail)));
  for (let index = before.length - tail; index < before.length; index++)
    operations.push({ kind: " ", line: before[index] ?? "" });
  return operations;
}

function diffMiddle(before: readonly string[], after: readonly string[]): Operation[] {
  const rows = before.length;
  const columns = after.length;
  if (rows * columns > DEFAULT_MAX_LCS_CELLS) {
    return [
      ...before.map((line): Operation => ({ kind: "-", line })),
      ...after.map((line): Operation => ({ kind: "+", line })),
    ];
  }
  // lengths[i][j] = LCS length of before[i..] and after[j..], flattened.
  const width = columns + 1;
  const lengths = new Uint32Array((rows + 1) * width);
  for (let i = rows - 1; i >= 0; i--) {
    for (let j = columns - 1; j >= 0; j--) {
      lengths[i * width + j] =
        before[i] === after[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const operations: Operation[] = [];
  let i = 0;
  let j = 0;
  while (i < rows || j < columns) {
    if (i < rows && j < columns && before[i] === after[j]) {
      operations.push({ kind: " ", line: before[i] ?? "" });
      i++;
      j++;
    } else if (
      i < rows &&
      (j === columns || (lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0))
    ) {
      operations.push({ kind: "-", line: before[i] ?? "" });
      i++;
    } else {
      operations.push({ kind: "+", line: after[j] ?? "" });
      j++;
    }
  }
  return operations;
}

function hunks(operations: readonly Operation[], contextLines: number): string[][] {
  const changed: number[] = [];
  operations.forEach((operation, index) => {
    if (operation.kind !== " ") changed.push(index);
  });
  const result: string[][] = [];
  let cursor = 0;
  while (cursor < changed.length) {
    const first = changed[cursor] ?? 0;
    let last = first;
    // Extend the hunk while the next change is within two context windows of this one.
    while (cursor + 1 < changed.length && (changed[cursor + 1] ?? 0) - last <= 2 * contextLines + 1) {
      cursor++;
      last = changed[cursor] ?? last;
    }
    cursor++;
    const start = Math.max(0, first - contextLines);
    const end = Math.min(operations.length, last + contextLines + 1);
    result.push(renderHunk(operations, start, end));
  }
  return result;
}

function renderHunk(operations: readonly Operation[], start: number, end: number): string[] {
  let beforeLine = 1;
  let afterLine = 1;
  for (let index = 0; index < start; index++) {
    const kind = operations[index]?.kind;
    if (kind !== "+") beforeLine++;
    if (kind !== "-") afterLine++;
  }
  const lines: string[] = [];
  let beforeCount = 0;
  let afterCount = 0;
  for (let index = start; index < end; index++) {
    const operation = operations[index];
    if (operation === undefined) continue;
    if (operation.kind !== "+") beforeCount++;
    if (operation.kind !== "-") afterCount++;
    lines.push(operation.kind + operation.line);
  }
  // diff -u writes the line before an empty range as its start.
  const beforeStart = beforeCount === 0 ? beforeLine - 1 : beforeLine;
  const afterStart = afterCount === 0 ? afterLine - 1 : afterLine;
  return [`@@ -${beforeStart},${beforeCount} +${afterStart},${afterCount} @@`, ...lines];
}
