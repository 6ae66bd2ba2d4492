/**
 * Identity prefixes: the timeline only grows and its entries are never mutated (docs/INVARIANTS.md #1), so a
 * per-turn pass over it can keep last turn's result and continue from where the two lists stop being the
 * same objects. Comparing references touches only the arrays, never the entries, which is what makes the
 * check cheap next to the pass it saves.
 */
import { memoizeByObject } from "./identity-memo.js";

/** How many leading elements `left` and `right` share, compared by identity. */
export function sharedPrefixLength<T>(left: readonly T[], right: readonly T[]): number {
  const end = Math.min(left.length, right.length);
  let index = 0;
  while (index < end && left[index] === right[index]) index++;
  return index;
}

/** Last call's input for one predicate and one timeline, and the positions of the entries it kept. */
interface Filtered {
  entries: unknown[];
  keptAt: number[];
}

/** By predicate, then by the list's first element: each timeline keeps its own, updated in place. */
const filteredBy = memoizeByObject((_keep: object) =>
  memoizeByObject((_first: object): Filtered => ({ entries: [], keptAt: [] })),
);

/**
 * `entries.filter(keep)`, continuing from last call with the same `keep` over the elements shared with it
 * (the same objects, from the start): a timeline that grew by a few entries costs a few calls of `keep`.
 * `keep` must be a pure function of its argument and a stable (module-level) function, or nothing is reused.
 */
export function filterGrowing<T extends object, S extends T>(
  entries: readonly T[],
  keep: (entry: T) => entry is S,
): S[];
export function filterGrowing<T extends object>(entries: readonly T[], keep: (entry: T) => boolean): T[];
export function filterGrowing<T extends object>(entries: readonly T[], keep: (entry: T) => boolean): T[] {
  const first = entries[0];
  if (first === undefined) return [];
  const memo = filteredBy(keep)(first);
  const known = memo.entries as T[];
  const shared = sharedPrefixLength(known, entries);
  known.length = shared;
  while (memo.keptAt.length > 0 && memo.keptAt[memo.keptAt.length - 1]! >= shared) memo.keptAt.pop();
  for (let index = shared; index < entries.length; index++) {
    const entry = entries[index]!;
    known.push(entry);
    if (keep(entry)) memo.keptAt.push(index);
  }
  return memo.keptAt.map((index) => known[index]!);
}
