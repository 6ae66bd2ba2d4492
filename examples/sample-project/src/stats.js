/** Arithmetic mean of a non-empty list of numbers. */
export function mean(values) {
  if (values.length === 0) throw new Error("mean of an empty list");
  return values.reduce((sum, value) => sum + value, 0) / values.length;
}

/** Middle value of a non-empty list of numbers (average of the two middle values for even lengths). */
export function median(values) {
  if (values.length === 0) throw new Error("median of an empty list");
  const sorted = [...values].sort();
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
