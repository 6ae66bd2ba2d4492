/**
 * The machine-readable line every bench script prints, so `bench/run-all.ts` can build one table:
 * `RESULT {"bench":"name","metric":"...","value":N,"unit":"ms","target":"≤ 5 ms"}`.
 */

/** Prefix of a machine line; run-all looks for it at the start of a stdout line. */
export const RESULT_PREFIX = "RESULT ";

export interface BenchResult {
  /** Script name, e.g. "pipeline-overhead". */
  bench: string;
  /** What was measured, e.g. "per-turn overhead @ 1,000 entries". */
  metric: string;
  value: number;
  /** "ms", "MB", "tokens", "count", … */
  unit: string;
  /** The goal, as text for the table ("≤ 5 ms"); omitted when there is none. */
  target?: string;
  /** A short remark shown beside the value. */
  note?: string;
}

/** Prints one `RESULT {...}` line on stdout. */
export function reportResult(result: BenchResult): void {
  process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(result)}\n`);
}

/** Parses a `RESULT {...}` line; undefined for any other line or a malformed one. */
export function parseResultLine(line: string): BenchResult | undefined {
  if (!line.startsWith(RESULT_PREFIX)) return undefined;
  try {
    const value: unknown = JSON.parse(line.slice(RESULT_PREFIX.length));
    if (typeof value !== "object" || value === null) return undefined;
    const record = value as Record<string, unknown>;
    if (typeof record.bench !== "string" || typeof record.metric !== "string") return undefined;
    if (typeof record.value !== "number" || typeof record.unit !== "string") return undefined;
    return {
      bench: record.bench,
      metric: record.metric,
      value: record.value,
      unit: record.unit,
      ...(typeof record.target === "string" ? { target: record.target } : {}),
      ...(typeof record.note === "string" ? { note: record.note } : {}),
    };
  } catch {
    return undefined;
  }
}

/** Median of a non-empty list of numbers. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
