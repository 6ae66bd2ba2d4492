/**
 * NotebookEdit on real .ipynb files, Read of notebooks (cells shown) and Read `pages` of PDFs (document blocks
 * of the chosen pages, checked by loading the returned PDF again with pdf-lib).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { notebookEditTool } from "../../src/tools/files/notebook-edit-tool.js";
import { readTool } from "../../src/tools/files/read-tool.js";
import { runTool } from "../../src/tools/run-tool.js";
import { BYPASS, makeContext, makeTempDirectory, outputText, removeDirectory } from "./tool-test-context.js";

let workspace: string;
beforeEach(async () => {
  workspace = await makeTempDirectory();
});
afterEach(() => removeDirectory(workspace));

const NOTEBOOK = {
  cells: [
    { cell_type: "markdown", id: "intro", metadata: {}, source: ["# Title\n", "Some words"] },
    {
      cell_type: "code",
      id: "calc",
      metadata: { tags: ["keep"] },
      execution_count: 3,
      source: ["x = 1\n", "print(x + 1)"],
      outputs: [{ output_type: "stream", name: "stdout", text: ["2\n"] }],
    },
  ],
  metadata: { language_info: { name: "python" } },
  nbformat: 4,
  nbformat_minor: 5,
};

async function notebookFile(): Promise<string> {
  const file = path.join(workspace, "n.ipynb");
  await writeFile(file, JSON.stringify(NOTEBOOK));
  return file;
}

const edit = (input: Record<string, unknown>) => runTool(notebookEditTool, input, makeContext(workspace), BYPASS);
const read = (input: Record<string, unknown>) => runTool(readTool, input, makeContext(workspace), BYPASS);
const onDisk = async (file: string) => JSON.parse(await readFile(file, "utf8"));

describe("Read of a notebook", () => {
  it("shows each cell with its id and type, and its outputs", async () => {
    const file = await notebookFile();
    const text = outputText((await read({ file_path: file })).content);
    expect(text).toBe(
      '<cell id="intro"><cell_type>markdown</cell_type># Title\nSome words</cell id="intro">\n\n' +
        '<cell id="calc"><cell_type>code</cell_type><language>python</language>x = 1\nprint(x + 1)</cell id="calc">\n' +
        '<outputs cell="calc">\n2\n\n</outputs>',
    );
  });
});

describe("NotebookEdit", () => {
  it("replaces a cell's source, keeping its metadata and dropping its stale outputs", async () => {
    const file = await notebookFile();
    const output = await edit({ notebook_path: file, cell_id: "calc", new_source: "y = 2\nprint(y)" });
    expect(output.isError).toBeUndefined();
    const notebook = await onDisk(file);
    expect(notebook.cells[1]).toEqual({
      cell_type: "code",
      id: "calc",
      metadata: { tags: ["keep"] },
      execution_count: null,
      source: ["y = 2\n", "print(y)"],
      outputs: [],
    });
    expect(notebook.cells[0]).toEqual(NOTEBOOK.cells[0]);
  });

  it("inserts after a cell (or first without cell_id), with a new id; cell_type is required", async () => {
    const file = await notebookFile();
    const missing = await edit({ notebook_path: file, cell_id: "intro", new_source: "z", edit_mode: "insert" });
    expect(missing).toMatchObject({ isError: true });
    expect((await onDisk(file)).cells).toHaveLength(2);
    await edit({
      notebook_path: file,
      cell_id: "intro",
      new_source: "middle",
      edit_mode: "insert",
      cell_type: "markdown",
    });
    await edit({ notebook_path: file, new_source: "first", edit_mode: "insert", cell_type: "code" });
    const cells = (await onDisk(file)).cells;
    expect(cells.map((cell: { source: string[] }) => cell.source.join(""))).toEqual([
      "first",
      "# Title\nSome words",
      "middle",
      "x = 1\nprint(x + 1)",
    ]);
    expect(cells[0].id).toMatch(/^[0-9a-f]{8}$/);
    expect(cells[0]).toMatchObject({ cell_type: "code", outputs: [], execution_count: null });
  });

  it("deletes a cell; an unknown id changes nothing and says so in one line", async () => {
    const file = await notebookFile();
    const before = await readFile(file, "utf8");
    const unknown = await edit({ notebook_path: file, cell_id: "nope", new_source: "", edit_mode: "delete" });
    expect(unknown.content).toBe(
      `No cell with id "nope" in ${file}; Read the notebook to see the cell ids. Nothing was changed.`,
    );
    expect(await readFile(file, "utf8")).toBe(before);
    await edit({ notebook_path: file, cell_id: "intro", new_source: "", edit_mode: "delete" });
    expect((await onDisk(file)).cells.map((cell: { id: string }) => cell.id)).toEqual(["calc"]);
  });

  it("addresses cells of a notebook without ids as cell-N", async () => {
    const file = path.join(workspace, "old.ipynb");
    const old = { ...NOTEBOOK, nbformat_minor: 2, cells: NOTEBOOK.cells.map(({ id: _id, ...cell }) => cell) };
    await writeFile(file, JSON.stringify(old));
    expect(outputText((await read({ file_path: file })).content)).toContain('<cell id="cell-1">');
    await edit({ notebook_path: file, cell_id: "cell-0", new_source: "# New", cell_type: "markdown" });
    expect((await onDisk(file)).cells[0]).toEqual({ cell_type: "markdown", metadata: {}, source: ["# New"] });
  });
});

async function pdfFile(pages: number): Promise<string> {
  const document = await PDFDocument.create();
  const font = await document.embedFont(StandardFonts.Helvetica);
  for (let index = 1; index <= pages; index++)
    document.addPage([200, 200]).drawText(`Page ${index}`, { x: 20, y: 100, size: 12, font });
  const file = path.join(workspace, `doc-${pages}.pdf`);
  await writeFile(file, await document.save());
  return file;
}

async function pagesOf(content: unknown): Promise<{ count: number; title: string }> {
  const block = (content as { type: string; source: { data: string }; title: string }[])[0];
  expect(block?.type).toBe("document");
  const loaded = await PDFDocument.load(Buffer.from(block?.source.data ?? "", "base64"));
  return { count: loaded.getPageCount(), title: block?.title ?? "" };
}

describe("Read of a PDF", () => {
  it("returns a short PDF whole as a document block", async () => {
    const file = await pdfFile(3);
    expect(await pagesOf((await read({ file_path: file })).content)).toEqual({ count: 3, title: `${file} (3 pages)` });
  });

  // Mutation caught: ignoring `pages` sends all 30 pages.
  it("returns only the pages named, cut out of the file", async () => {
    const file = await pdfFile(30);
    const output = await read({ file_path: file, pages: "4-6" });
    expect(await pagesOf(output.content)).toEqual({ count: 3, title: `${file}, pages 4-6 of 30` });
    expect(await pagesOf((await read({ file_path: file, pages: "30" })).content)).toEqual({
      count: 1,
      title: `${file}, page 30 of 30`,
    });
  });

  it("asks for pages on a long PDF, and refuses more than 20 or a bad range, each in one line", async () => {
    const file = await pdfFile(30);
    expect((await read({ file_path: file })).content).toBe(
      `${file} has 30 pages; give pages (for example pages="1-5", at most 20 per call) to read part of it.`,
    );
    expect((await read({ file_path: file, pages: "1-21" })).content).toBe(
      'pages "1-21" names 21 pages; Read returns at most 20 pages per call.',
    );
    expect((await read({ file_path: file, pages: "five" })).content).toBe(
      'pages "five" is not a page range; use a form like "3" or "1-5".',
    );
    expect((await read({ file_path: file, pages: "31-32" })).content).toBe(
      `${file} has 30 pages; pages "31-32" starts past the end.`,
    );
  });
});
