/**
 * What Read does with documents that are not plain text: a PDF becomes a `document` block (the pages `pages`
 * names, cut out with pdf-lib), a Jupyter notebook becomes its cells as text (notebook.ts).
 */
import { readFile } from "node:fs/promises";
import type { PDFDocument } from "pdf-lib";
import type { DocumentBlock } from "../../messages/index.js";
import type { ToolOutput } from "../types.js";
import { formatBytes } from "./file-sniff.js";
import { parseNotebook, renderNotebook } from "./notebook.js";

/** Most pages one Read of a PDF returns (Claude Code's limit). */
export const MAX_PDF_PAGES_PER_READ = 20;
/** A PDF with more pages than this must be read with `pages`. */
export const PDF_PAGES_WITHOUT_RANGE = 10;
/** Largest PDF document sent, in bytes before base64 (the API takes 32 MB requests; base64 adds a third). */
export const DEFAULT_MAX_PDF_BYTES = 20 * 1024 * 1024;

/** Whether the file starts like a PDF. */
export function looksLikePdf(head: Uint8Array): boolean {
  return Buffer.from(head.subarray(0, 5)).toString("latin1") === "%PDF-";
}

/** `"1-5"`, `"3"`, `"10-20"` as 1-based first/last; a one-line reason when it is not such a range. */
export function parsePageRange(pages: string): { first: number; last: number } | string {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(pages);
  if (match === null) return `pages "${pages}" is not a page range; use a form like "3" or "1-5".`;
  const first = Number(match[1]);
  const last = match[2] === undefined ? first : Number(match[2]);
  if (first < 1 || last < first) return `pages "${pages}" is not a page range: pages count from 1, first before last.`;
  if (last - first + 1 > MAX_PDF_PAGES_PER_READ)
    return `pages "${pages}" names ${last - first + 1} pages; Read returns at most ${MAX_PDF_PAGES_PER_READ} pages per call.`;
  return { first, last };
}

function pdfBlock(bytes: Uint8Array, title: string): DocumentBlock {
  return {
    type: "document",
    source: { type: "base64", media_type: "application/pdf", data: Buffer.from(bytes).toString("base64") },
    title,
  };
}

function tooLarge(filePath: string, bytes: number, what: string, maxBytes: number): ToolOutput {
  return {
    content: `${what} of ${filePath} is ${formatBytes(bytes)}, over the ${formatBytes(maxBytes)} limit for one document; read fewer pages.`,
    isError: true,
  };
}

/** A PDF, whole (up to PDF_PAGES_WITHOUT_RANGE pages) or the pages `pages` names, as one document block. */
export async function readPdf(
  filePath: string,
  pages: string | undefined,
  maxBytes: number = DEFAULT_MAX_PDF_BYTES,
): Promise<ToolOutput> {
  const bytes = await readFile(filePath);
  // pdf-lib (~500 KB with its fonts) is loaded by the first PDF read, not by every start (docs/PERFORMANCE.md).
  const { PDFDocument: Pdf } = await import("pdf-lib");
  let source: PDFDocument;
  try {
    source = await Pdf.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  } catch (error) {
    return { content: `Cannot read ${filePath} as a PDF: ${(error as Error).message.split("\n")[0]}.`, isError: true };
  }
  const count = source.getPageCount();
  if (pages === undefined) {
    if (count > PDF_PAGES_WITHOUT_RANGE)
      return {
        content: `${filePath} has ${count} pages; give pages (for example pages="1-5", at most ${MAX_PDF_PAGES_PER_READ} per call) to read part of it.`,
        isError: true,
      };
    if (bytes.byteLength > maxBytes) return tooLarge(filePath, bytes.byteLength, "The whole file", maxBytes);
    return {
      content: [pdfBlock(bytes, `${filePath} (${count} pages)`)],
      display: { kind: "pdf", filePath, pages: count, bytes: bytes.byteLength },
    };
  }
  const range = parsePageRange(pages);
  if (typeof range === "string") return { content: range, isError: true };
  if (range.first > count)
    return { content: `${filePath} has ${count} pages; pages "${pages}" starts past the end.`, isError: true };
  const last = Math.min(range.last, count);
  const cut = await Pdf.create();
  const indices = Array.from({ length: last - range.first + 1 }, (_, offset) => range.first - 1 + offset);
  for (const page of await cut.copyPages(source, indices)) cut.addPage(page);
  const out = await cut.save();
  const label = range.first === last ? `page ${last}` : `pages ${range.first}-${last}`;
  if (out.byteLength > maxBytes) return tooLarge(filePath, out.byteLength, `The ${label}`, maxBytes);
  return {
    content: [pdfBlock(out, `${filePath}, ${label} of ${count}`)],
    display: { kind: "pdf", filePath, pages: last - range.first + 1, bytes: out.byteLength },
  };
}

/** A notebook's cells as text; a one-line reason when the file is not a notebook. */
export async function readNotebookFile(filePath: string): Promise<ToolOutput> {
  const notebook = parseNotebook(await readFile(filePath, "utf8"), filePath);
  if (typeof notebook === "string") return { content: notebook.replace("; it was not changed.", "."), isError: true };
  return {
    content: renderNotebook(notebook),
    display: { kind: "notebook", filePath, cells: notebook.cells.length },
  };
}
