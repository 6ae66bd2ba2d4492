/** The results table printed by run-all and written into bench/README.md. */
import type { BenchResult } from "./result.js";

/** One row: a result, or a script that produced none (missing or failed). */
export type TableRow = { kind: "result"; result: BenchResult } | { kind: "absent"; bench: string; reason: string };

/** Numbers with thousands separators and at most three significant decimals. */
export function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 || Number.isInteger(value) ? 0 : Math.abs(value) >= 1 ? 2 : 3;
  const text = value.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 });
  return unit === "" ? text : `${text} ${unit}`;
}

function escapeCell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** A Markdown table with padded columns (the layout biome's formatter keeps), readable in a terminal too. */
export function renderTable(rows: readonly TableRow[]): string {
  const cells: string[][] = [["bench", "metric", "value", "target", "note"]];
  for (const row of rows) {
    if (row.kind === "absent") {
      cells.push([row.bench, "—", row.reason, "", ""]);
      continue;
    }
    const { result } = row;
    cells.push([
      result.bench,
      result.metric,
      formatValue(result.value, result.unit),
      result.target ?? "",
      result.note ?? "",
    ]);
  }
  const [header, ...body] = cells;
  return renderMarkdownTable(header ?? [], body);
}

/** A Markdown table of `header` and `rows` (cells escaped), padded as biome's formatter keeps it. */
export function renderMarkdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = [header, ...rows].map((line) => line.map(escapeCell));
  const widths = header.map((_, column) => Math.max(3, ...cells.map((line) => width(line[column] ?? ""))));
  const render = (line: readonly string[]): string =>
    `| ${line.map((cell, column) => cell + " ".repeat((widths[column] ?? 0) - width(cell))).join(" | ")} |`;
  const [top, ...body] = cells;
  return [render(top ?? []), render(widths.map((size) => "-".repeat(size))), ...body.map(render)].join("\n");
}

/** Display width in code points (the table holds no wide characters). */
function width(text: string): number {
  return [...text].length;
}
