/**
 * Jupyter notebooks (.ipynb, nbformat 4) as Read shows them and NotebookEdit changes them: cells by `id`
 * (nbformat 4.5) or, in older notebooks without ids, by Claude Code's `cell-N` (N = 0-based index).
 */
import { randomBytes } from "node:crypto";

export interface NotebookCell {
  cell_type: string;
  id?: string;
  source: string | string[];
  metadata?: Record<string, unknown>;
  outputs?: NotebookOutput[];
  execution_count?: number | null;
  [other: string]: unknown;
}

interface NotebookOutput {
  output_type?: string;
  text?: string | string[];
  data?: Record<string, unknown>;
  ename?: string;
  evalue?: string;
}

export interface Notebook {
  cells: NotebookCell[];
  metadata?: { language_info?: { name?: string } } & Record<string, unknown>;
  nbformat?: number;
  nbformat_minor?: number;
  [other: string]: unknown;
}

/** Most characters of one cell's outputs shown by Read (outputs can be megabytes of logs). */
export const NOTEBOOK_OUTPUT_CHARS = 10_000;

/** Parses notebook JSON; a one-line reason when it is not a notebook. */
export function parseNotebook(text: string, path: string): Notebook | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return `${path} is not valid notebook JSON (${(error as Error).message}); it was not changed.`;
  }
  const cells = (parsed as { cells?: unknown } | null)?.cells;
  if (typeof parsed !== "object" || parsed === null || !Array.isArray(cells))
    return `${path} has no "cells" list, so it is not a Jupyter notebook (nbformat 4); it was not changed.`;
  return parsed as Notebook;
}

export function joinSource(source: string | string[] | undefined): string {
  return Array.isArray(source) ? source.join("") : (source ?? "");
}

/** Source as nbformat stores it on disk: lines, each but the last keeping its newline. */
export function splitSource(text: string): string[] {
  return text === "" ? [] : (text.match(/[^\n]*\n|[^\n]+$/g) ?? []);
}

/** The id a cell is addressed by: its own, or `cell-N`. */
export function cellId(cell: NotebookCell, index: number): string {
  return typeof cell.id === "string" && cell.id !== "" ? cell.id : `cell-${index}`;
}

/** The index of the cell `id` names, or -1. */
export function findCell(notebook: Notebook, id: string): number {
  const byId = notebook.cells.findIndex((cell, index) => cellId(cell, index) === id);
  if (byId >= 0) return byId;
  const numbered = /^cell-(\d+)$/.exec(id);
  const index = numbered === null ? -1 : Number(numbered[1]);
  return index >= 0 && index < notebook.cells.length ? index : -1;
}

/** Whether new cells get an `id` (nbformat 4.5 and later). */
export function usesCellIds(notebook: Notebook): boolean {
  return (notebook.nbformat ?? 4) > 4 || ((notebook.nbformat ?? 4) === 4 && (notebook.nbformat_minor ?? 0) >= 5);
}

export function newCellId(): string {
  return randomBytes(4).toString("hex");
}

function outputText(output: NotebookOutput): string {
  if (output.output_type === "error") return `${output.ename ?? "Error"}: ${output.evalue ?? ""}`;
  if (output.text !== undefined) return joinSource(output.text);
  const data = output.data ?? {};
  const plain = data["text/plain"];
  if (plain !== undefined) return joinSource(plain as string | string[]);
  const kinds = Object.keys(data).join(", ");
  return kinds === "" ? "" : `(${kinds} output not shown)`;
}

/** The notebook as Read shows it: each cell tagged with its id and type, then its outputs as text. */
export function renderNotebook(notebook: Notebook): string {
  const language = notebook.metadata?.language_info?.name ?? "python";
  const parts = notebook.cells.map((cell, index) => {
    const id = cellId(cell, index);
    const head = `<cell id="${id}"><cell_type>${cell.cell_type}</cell_type>${cell.cell_type === "code" ? `<language>${language}</language>` : ""}`;
    let text = `${head}${joinSource(cell.source)}</cell id="${id}">`;
    const outputs = (cell.outputs ?? []).map(outputText).filter((line) => line !== "");
    if (outputs.length > 0) {
      let shown = outputs.join("\n");
      if (shown.length > NOTEBOOK_OUTPUT_CHARS)
        shown = `${shown.slice(0, NOTEBOOK_OUTPUT_CHARS)}\n(outputs cut at ${NOTEBOOK_OUTPUT_CHARS} characters of ${shown.length})`;
      text += `\n<outputs cell="${id}">\n${shown}\n</outputs>`;
    }
    return text;
  });
  return parts.length === 0 ? "(The notebook has no cells.)" : parts.join("\n\n");
}
