/** Human-readable text of an `InspectReport`: the request table, totals, breaks, compaction savings, problems. */
import type { InspectBreak, InspectReport, InspectRequest, TokenTotals } from "./inspect-types.js";

/** Malformed lines listed one by one before the rest are summarised by count. */
export const DEFAULT_MALFORMED_LINES_SHOWN = 20;

const COLUMNS = ["#", "scope", "model", "input", "cache read", "cache write", "output", "hit", "cost"] as const;

/** The report as text for a terminal. */
export function formatInspectReport(report: InspectReport, source?: string): string {
  const lines: string[] = [];
  const where = source === undefined ? "" : `${source}: `;
  lines.push(
    `${where}${report.format} transcript, ${count(report.records)} records, ${count(report.requests.length)} requests`,
  );
  lines.push("");
  lines.push(...table(report.requests));
  lines.push("");
  lines.push(`Total: ${totalsLine(report.totals)}`);
  if (report.scopes.length > 1)
    for (const scope of report.scopes) lines.push(`  [${scope.scope}] ${totalsLine(scope)}`);
  lines.push("");
  lines.push(report.breaks.length === 0 ? "Cache breaks: none" : `Cache breaks (${report.breaks.length}):`);
  for (const cacheBreak of report.breaks) lines.push(`  ${breakLine(cacheBreak)}`);
  lines.push("");
  lines.push("Compaction savings:");
  for (const tier of report.compaction)
    lines.push(
      `  ${tier.tier.padEnd(12)} ${count(tier.events).padStart(5)} events  ${count(tier.tokensSaved).padStart(12)} tokens`,
    );
  const skipped = Object.entries(report.skippedRecords);
  if (skipped.length > 0)
    lines.push("", `Skipped records: ${skipped.map(([type, number]) => `${type} ${count(number)}`).join(", ")}`);
  if (report.malformedLines.length > 0) {
    lines.push("", `Malformed lines (${report.malformedLines.length}):`);
    for (const malformed of report.malformedLines.slice(0, DEFAULT_MALFORMED_LINES_SHOWN))
      lines.push(`  line ${malformed.line}: ${malformed.error}`);
    const rest = report.malformedLines.length - DEFAULT_MALFORMED_LINES_SHOWN;
    if (rest > 0) lines.push(`  … and ${rest} more`);
  }
  return lines.join("\n") + "\n";
}

function table(requests: readonly InspectRequest[]): string[] {
  const rows: string[][] = [Array.from(COLUMNS)];
  for (const request of requests) {
    rows.push([
      String(request.index),
      request.scope,
      request.model,
      count(request.inputTokens),
      count(request.cacheReadTokens),
      count(request.cacheWriteTokens),
      count(request.outputTokens),
      percent(request.hitRatio),
      dollars(request.costUsd),
    ]);
  }
  const widths = COLUMNS.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length)));
  // Text columns (scope, model) align left, numbers right.
  return rows.map((row) =>
    row
      .map((cell, column) =>
        column === 1 || column === 2 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join("  ")
      .trimEnd(),
  );
}

function totalsLine(totals: TokenTotals): string {
  return (
    `${count(totals.requests)} requests, input ${count(totals.inputTokens)}, cache read ${count(totals.cacheReadTokens)}, ` +
    `cache write ${count(totals.cacheWriteTokens)}, output ${count(totals.outputTokens)}, ` +
    `hit ${percent(totals.hitRatio)}, cost ${dollars(totals.costUsd)}`
  );
}

function breakLine(cacheBreak: InspectBreak): string {
  const at = cacheBreak.requestIndex === null ? "recorded" : `request #${cacheBreak.requestIndex}`;
  const diff = cacheBreak.diffPath === undefined ? "" : ` (diff: ${cacheBreak.diffPath})`;
  return (
    `${at} [${cacheBreak.scope}] cache read ${count(cacheBreak.previousCacheRead)} → ${count(cacheBreak.cacheRead)} ` +
    `(-${count(cacheBreak.drop)}): ${cacheBreak.kind}: ${cacheBreak.causes.join("; ")}${diff}`
  );
}

function count(value: number): string {
  return value.toLocaleString("en-US");
}

function percent(ratio: number): string {
  return `${(ratio * 100).toFixed(1)}%`;
}

function dollars(value: number): string {
  return `$${value.toFixed(4)}`;
}
