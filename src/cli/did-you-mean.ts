/**
 * "Did you mean": the closest known word to a typo, by optimal-string-alignment distance (Levenshtein
 * plus adjacent transpositions, so `inpsect` is one edit from `inspect`).
 */

/** Largest edit distance still taken for a typo (short words allow one edit, see `maxDistanceFor`). */
export const DEFAULT_MAX_TYPO_DISTANCE = 2;

/** Edit distance with adjacent transpositions counted as one edit. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table: number[][] = Array.from({ length: rows }, (_, row) =>
    Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)),
  );
  const at = (row: number, column: number): number => table[row]?.[column] ?? Number.POSITIVE_INFINITY;
  for (let row = 1; row < rows; row++) {
    for (let column = 1; column < columns; column++) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(at(row - 1, column) + 1, at(row, column - 1) + 1, at(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, at(row - 2, column - 2) + 1);
      }
      (table[row] as number[])[column] = best;
    }
  }
  return at(a.length, b.length);
}

/** Short words tolerate one edit, longer ones `DEFAULT_MAX_TYPO_DISTANCE` (so `do` is never `demo`). */
function maxDistanceFor(word: string): number {
  if (word.length <= 3) return 0;
  return word.length < 6 ? 1 : DEFAULT_MAX_TYPO_DISTANCE;
}

/** The closest candidate within the allowed distance (ties: the first listed), or undefined. */
export function closestMatch<T extends string>(word: string, candidates: readonly T[]): T | undefined {
  const limit = maxDistanceFor(word);
  let best: T | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && distance < bestDistance && distance > 0) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
