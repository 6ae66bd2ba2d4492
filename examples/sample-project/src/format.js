import { mean, median } from "./stats.js";

/** One-line summary of a list of numbers, e.g. "3 values, mean 7, median 9". */
export function summarize(values) {
  return `${values.length} values, mean ${round(mean(values))}, median ${round(median(values))}`;
}

function round(value) {
  return Math.round(value * 100) / 100;
}
