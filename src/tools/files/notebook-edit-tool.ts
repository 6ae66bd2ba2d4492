/**
 * NotebookEdit, with Claude Code's name and schema: replaces, inserts or deletes one cell of a Jupyter notebook.
 * The notebook is written back in Jupyter's own layout (one-space indent, sources as line lists), every other
 * field kept as it was. Deferred behind ToolSearch, as in Claude Code.
 */
import { readFile, writeFile } from "node:fs/promises";
import * as z from "zod";
import { resolveWorkspacePath } from "../permissions/workspace-paths.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { findCell, type NotebookCell, newCellId, parseNotebook, splitSource, usesCellIds } from "./notebook.js";

export const notebookEditInputSchema = z.strictObject({
  notebook_path: z
    .string()
    .describe("The absolute path to the Jupyter notebook file to edit (must be absolute, not relative)"),
  cell_id: z
    .string()
    .optional()
    .describe(
      "The ID of the cell to edit. When inserting a new cell, the new cell will be inserted after the cell with this ID, or at the beginning if not specified.",
    ),
  new_source: z.string().describe("The new source for the cell"),
  cell_type: z
    .enum(["code", "markdown"])
    .optional()
    .describe(
      "The type of the cell (code or markdown). If not specified, it defaults to the current cell type. If using edit_mode=insert, this is required.",
    ),
  edit_mode: z
    .enum(["replace", "insert", "delete"])
    .optional()
    .describe("The type of edit to make (replace, insert, delete). Defaults to replace."),
});
export type NotebookEditInput = z.infer<typeof notebookEditInputSchema>;

const DESCRIPTION = `Replaces, inserts, or deletes a single cell in a Jupyter notebook (.ipynb file).

- \`cell_id\` is the \`id\` shown in the Read tool's \`<cell id="...">\` output. It is required for \`replace\` and \`delete\`.
- \`edit_mode\` defaults to \`replace\`. Use \`insert\` to add a new cell after the cell with the given \`cell_id\` (or at the beginning of the notebook if \`cell_id\` is omitted) — \`cell_type\` is required when inserting. Use \`delete\` to remove the cell.
- A code cell whose source changes loses its old outputs (they belonged to the old source).`;

function refuse(message: string): ToolOutput {
  return { content: message, isError: true };
}

/** A fresh cell of `type` holding `source`. */
function newCell(type: "code" | "markdown", source: string, withId: boolean): NotebookCell {
  const cell: NotebookCell = {
    cell_type: type,
    ...(withId ? { id: newCellId() } : {}),
    metadata: {},
    source: splitSource(source),
  };
  if (type === "code") {
    cell.execution_count = null;
    cell.outputs = [];
  }
  return cell;
}

export const notebookEditTool: Tool<NotebookEditInput> = {
  name: "NotebookEdit",
  description: DESCRIPTION,
  inputSchema: notebookEditInputSchema,
  deferLoading: true,
  isReadOnly: () => false,
  compactable: false,
  traits: {
    pathRule: { ruleNames: ["Edit"], pathField: "notebook_path" },
    changesFiles: { kind: "file", pathField: "notebook_path", acceptEdits: false },
  },
  async call(input: NotebookEditInput, context: ToolContext): Promise<ToolOutput> {
    const path = await resolveWorkspacePath(context, input.notebook_path);
    if (!path.endsWith(".ipynb")) return refuse(`${path} is not a .ipynb file; use Edit for other files.`);
    let text: string;
    try {
      text = await readFile(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return refuse(`Notebook does not exist: ${path}.`);
      throw error;
    }
    const notebook = parseNotebook(text, path);
    if (typeof notebook === "string") return refuse(notebook);
    const mode = input.edit_mode ?? "replace";
    const index = input.cell_id === undefined ? -1 : findCell(notebook, input.cell_id);
    if (input.cell_id !== undefined && index < 0)
      return refuse(
        `No cell with id "${input.cell_id}" in ${path}; Read the notebook to see the cell ids. Nothing was changed.`,
      );
    let summary: string;
    if (mode === "insert") {
      if (input.cell_type === undefined)
        return refuse("cell_type (code or markdown) is required when edit_mode is insert. Nothing was changed.");
      const cell = newCell(input.cell_type, input.new_source, usesCellIds(notebook));
      notebook.cells.splice(index + 1, 0, cell);
      summary = `Inserted a ${input.cell_type} cell${cell.id !== undefined ? ` with id "${cell.id}"` : ""} at position ${index + 2}`;
    } else {
      if (input.cell_id === undefined)
        return refuse(`cell_id is required when edit_mode is ${mode}. Nothing was changed.`);
      if (mode === "delete") {
        notebook.cells.splice(index, 1);
        summary = `Deleted cell "${input.cell_id}"`;
      } else {
        const old = notebook.cells[index] as NotebookCell;
        const type = input.cell_type ?? (old.cell_type === "markdown" ? "markdown" : old.cell_type);
        const cell: NotebookCell = { ...old, cell_type: type, source: splitSource(input.new_source) };
        if (type === "code") {
          cell.execution_count = null;
          cell.outputs = [];
        } else {
          delete cell.execution_count;
          delete cell.outputs;
        }
        notebook.cells[index] = cell;
        summary = `Replaced cell "${input.cell_id}" (${type})`;
      }
    }
    await writeFile(path, `${JSON.stringify(notebook, null, 1)}\n`, "utf8");
    return {
      content: `${summary} in ${path}; the notebook now has ${notebook.cells.length} cells.`,
      display: { kind: "notebook-edit", filePath: path, mode, cells: notebook.cells.length },
    };
  },
};
