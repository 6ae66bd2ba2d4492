/** "Did you mean" suggestions for a missing file, drawn from the names in its directory. */
import { readdir } from "node:fs/promises";
import path from "node:path";

/** Most suggestions offered. */
export const DEFAULT_MAX_SUGGESTIONS = 5;

function editDistance(left: string, right: string): number {
  let previous = Array.from({ length: right.length + 1 }, (_, index) => index);
  for (let i = 1; i <= left.length; i++) {
    const current = [i];
    for (let j = 1; j <= right.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (left[i - 1] === right[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[right.length] ?? 0;
}

function stem(name: string): string {
  const extension = path.extname(name);
  return (extension ? name.slice(0, -extension.length) : name).toLowerCase();
}

/**
 * Names in `directory` close to `wanted`'s base name: same name in another case, same stem with another
 * extension, or a small edit distance. Absolute paths, best first. Empty when the directory cannot be read.
 */
export async function similarNames(wanted: string, maxSuggestions = DEFAULT_MAX_SUGGESTIONS): Promise<string[]> {
  const directory = path.dirname(wanted);
  const base = path.basename(wanted);
  let names: string[];
  try {
    names = await readdir(directory);
  } catch {
    return [];
  }
  const scored: { name: string; score: number }[] = [];
  // one-ruler: an edit distance of a quarter of the name's length, not a token estimate.
  const threshold = Math.max(2, Math.floor(base.length / 4));
  for (const name of names) {
    let score: number;
    if (name.toLowerCase() === base.toLowerCase()) score = 0;
    else if (stem(name) === stem(base)) score = 1;
    else {
      const distance = editDistance(name.toLowerCase(), base.toLowerCase());
      if (distance > threshold) continue;
      score = 1 + distance;
    }
    scored.push({ name, score });
  }
  scored.sort((left, right) => left.score - right.score || left.name.localeCompare(right.name));
  return scored.slice(0, maxSuggestions).map((entry) => path.join(directory, entry.name));
}
