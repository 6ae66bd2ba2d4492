/**
 * A cheap upper bound on `JSON.stringify(value)`'s UTF-8 size, so the 413 check can skip serialising the
 * body when it cannot possibly be over the limit (nearly always).
 */

/** Bytes a number, boolean or null can take at most. */
const SCALAR_BYTES = 24;

/** At least the UTF-8 byte length of `JSON.stringify(value)`: each UTF-16 unit counts 6 (a `\uXXXX` escape). */
export function jsonSizeUpperBound(value: unknown): number {
  if (typeof value === "string") return 2 + value.length * 6;
  if (value === null || typeof value !== "object") return SCALAR_BYTES;
  if (Array.isArray(value)) {
    let total = 2 + value.length;
    for (const item of value) total += jsonSizeUpperBound(item);
    return total;
  }
  let total = 2;
  for (const key in value) total += 4 + key.length * 6 + jsonSizeUpperBound((value as Record<string, unknown>)[key]);
  return total;
}
