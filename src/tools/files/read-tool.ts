/** Read: a text file with `cat -n` numbering, or an image as an image block. */
import { createReadStream } from "node:fs";
import { open, readFile, stat } from "node:fs/promises";
import * as z from "zod";
import { imageBlock } from "../../messages/index.js";
import { resolveWorkspacePath } from "../permissions/workspace-paths.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { DEFAULT_SNIFF_BYTES, formatBytes, looksBinary, sniffImageType } from "./file-sniff.js";
import { DEFAULT_MAX_LINE_CHARS, numberLines } from "./line-numbering.js";
import { looksLikePdf, readNotebookFile, readPdf } from "./read-documents.js";
import { similarNames } from "./similar-names.js";
import { specialFileRefusal } from "./special-files.js";

/** Lines returned when no `limit` is given. */
export const DEFAULT_READ_LINE_LIMIT = 2000;
/** Largest file read whole; bigger files need `offset`/`limit`. */
export const DEFAULT_MAX_READ_BYTES = 256 * 1024;
/** Largest image sent, measured as its base64 length (the API's per-image limit). */
export const DEFAULT_MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;

export const readInputSchema = z.strictObject({
  file_path: z.string().describe("The absolute path to the file to read"),
  offset: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe("The line number to start reading from. Only provide if the file is too large to read at once"),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("The number of lines to read. Only provide if the file is too large to read at once."),
  pages: z
    .string()
    .optional()
    .describe(
      'Page range for PDF files (e.g., "1-5", "3", "10-20"). Only applicable to PDF files. Maximum 20 pages per request.',
    ),
});
export type ReadInput = z.infer<typeof readInputSchema>;

const DESCRIPTION = `Reads a file from the local filesystem.
- file_path may be absolute or relative to the workspace; it must be inside the workspace.
- By default reads up to ${DEFAULT_READ_LINE_LIMIT} lines from the start; use offset (1-based line number) and limit for long files.
- Lines longer than 2000 characters are truncated. Output is numbered like \`cat -n\`.
- Images (PNG, JPEG, GIF, WebP) are returned as images. PDFs are returned as documents: use pages (e.g. "1-5", at most 20 per call; required for PDFs over 10 pages).
- Jupyter notebooks (.ipynb) are shown as cells with their outputs. Other binary files are refused.`;

async function missingFileOutput(filePath: string): Promise<ToolOutput> {
  const suggestions = await similarNames(filePath);
  const hint = suggestions.length > 0 ? ` Did you mean: ${suggestions.join(", ")}?` : "";
  return { content: `File does not exist: ${filePath}.${hint}`, isError: true };
}

async function readHead(filePath: string): Promise<Uint8Array> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(DEFAULT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

interface LineWindow {
  lines: string[];
  /** Each line's full length (`lines` keeps at most the characters Read shows, plus one). */
  lengths: number[];
  /** Whether the file has lines after the window. */
  more: boolean;
  /** Lines seen in all (exact only when the whole file was scanned, i.e. `more` is false). */
  linesSeen: number;
}

/** Thrown inside `readLineWindow` when the bytes are not UTF-8; the file is read again as Latin-1. */
class NotUtf8 extends Error {}

/**
 * Streams the file and keeps lines [first, first + count); stops reading once it knows more follow. Bytes
 * that are not UTF-8 are not turned into replacement characters: the window is read as Latin-1 instead
 * (every byte a character, as ISO-8859-1 and most legacy exports mean it), and `latin1` says so.
 */
async function readLineWindow(
  filePath: string,
  first: number,
  count: number,
): Promise<LineWindow & { latin1: boolean }> {
  try {
    return { ...(await readLineWindowAs(filePath, first, count, "utf-8")), latin1: false };
  } catch (error) {
    if (!(error instanceof NotUtf8)) throw error;
    return { ...(await readLineWindowAs(filePath, first, count, "latin1")), latin1: true };
  }
}

async function readLineWindowAs(
  filePath: string,
  first: number,
  count: number,
  encoding: "utf-8" | "latin1",
): Promise<LineWindow> {
  const stream = createReadStream(filePath);
  const decoder = new TextDecoder(encoding, { fatal: true });
  const decode = (chunk: Buffer | undefined): string => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new NotUtf8();
    }
  };
  // Time linear in the bytes read, whatever the line lengths (docs/EXACTLY-ONCE.md, "Linear reads"): a line
  // is never rebuilt from its pieces; only its first characters are kept (Read shows no more) and its length.
  const keep = DEFAULT_MAX_LINE_CHARS + 1;
  const lines: string[] = [];
  const lengths: number[] = [];
  let lineNumber = 0;
  let more = false;
  let head: string[] = [];
  let headChars = 0;
  let length = 0;
  let lastChar = "";
  const piece = (text: string): void => {
    if (text.length === 0) return;
    length += text.length;
    lastChar = text[text.length - 1] ?? "";
    if (lineNumber + 1 < first || headChars >= keep) return;
    const part = text.slice(0, keep - headChars);
    head.push(part);
    headChars += part.length;
  };
  const take = (): boolean => {
    lineNumber++;
    if (lineNumber >= first + count) {
      more = true;
      return false;
    }
    if (lineNumber >= first) {
      let line = head.join("");
      let full = length;
      if (lastChar === "\r") {
        full--;
        if (line.length === full + 1) line = line.slice(0, -1);
      }
      lines.push(line);
      lengths.push(full);
    }
    head = [];
    headChars = 0;
    length = 0;
    lastChar = "";
    return true;
  };
  const feed = (text: string): boolean => {
    let start = 0;
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      piece(text.slice(start, end));
      if (!take()) return false;
      start = end + 1;
    }
    piece(text.slice(start));
    return true;
  };
  try {
    for await (const chunk of stream) if (!feed(decode(chunk as Buffer))) break;
    if (!more) feed(decode(undefined));
    if (!more && length > 0) take();
  } finally {
    stream.destroy();
  }
  return { lines, lengths, more, linesSeen: lineNumber };
}

async function readImage(
  filePath: string,
  size: number,
  mediaType: "image/png" | "image/jpeg" | "image/gif" | "image/webp",
): Promise<ToolOutput> {
  const base64Length = 4 * Math.ceil(size / 3);
  if (base64Length > DEFAULT_MAX_IMAGE_BASE64_BYTES) {
    return {
      content:
        `Image ${filePath} is too large to send: ${formatBytes(size)} on disk, ${formatBytes(base64Length)} as ` +
        `base64, over the ${formatBytes(DEFAULT_MAX_IMAGE_BASE64_BYTES)} limit. Resize or compress it first ` +
        "(for example with Bash), then Read the smaller copy.",
      isError: true,
    };
  }
  const data = (await readFile(filePath)).toString("base64");
  return {
    content: [imageBlock(mediaType, data)],
    display: { kind: "image", filePath, mediaType, bytes: size },
  };
}

async function readText(filePath: string, size: number, input: ReadInput): Promise<ToolOutput> {
  if (size > DEFAULT_MAX_READ_BYTES && input.offset === undefined && input.limit === undefined) {
    return {
      content:
        `File ${filePath} is ${formatBytes(size)}, over the ${formatBytes(DEFAULT_MAX_READ_BYTES)} limit for ` +
        "reading a whole file. Read a part of it with the offset and limit parameters (for example offset=1, " +
        "limit=500), or use Grep to find the lines you need.",
      isError: true,
    };
  }
  if (size === 0) return { content: `(File ${filePath} exists but is empty.)` };
  const first = Math.max(1, input.offset ?? 1);
  const count = input.limit ?? DEFAULT_READ_LINE_LIMIT;
  const window = await readLineWindow(filePath, first, count);
  if (window.lines.length === 0) {
    return {
      content: `File ${filePath} has ${window.linesSeen} lines; offset ${first} is past the end. Use an offset from 1 to ${window.linesSeen}.`,
      isError: true,
    };
  }
  // A window of long lines can still be huge; stop at the size limit on a line boundary.
  const numbered = numberLines(window.lines, first, window.lengths).split("\n");
  let kept = 0;
  let keptChars = 0;
  while (
    kept < numbered.length &&
    (kept === 0 || keptChars + (numbered[kept]?.length ?? 0) + 1 <= DEFAULT_MAX_READ_BYTES)
  ) {
    keptChars += (numbered[kept]?.length ?? 0) + 1;
    kept++;
  }
  let text = numbered.slice(0, kept).join("\n");
  if (window.more || kept < numbered.length) {
    const next = first + kept;
    text += `\n\n(Showing lines ${first}-${next - 1}. The file continues; call Read with offset=${next} to read more.)`;
  }
  if (window.latin1)
    text += "\n\n(The file is not valid UTF-8; it was read as Latin-1 (ISO-8859-1), one character per byte.)";
  const lineCount = kept;
  return { content: text, display: { kind: "text", filePath, firstLine: first, lineCount } };
}

export const readTool: Tool<ReadInput> = {
  name: "Read",
  description: DESCRIPTION,
  inputSchema: readInputSchema,
  isReadOnly: () => true,
  compactable: true,
  traits: {
    pathRule: { ruleNames: ["Read"], pathField: "file_path" },
    revealsMemoryFiles: true,
    terminal: { group: { verb: "Read", noun: "file" } },
  },
  async call(input: ReadInput, context: ToolContext): Promise<ToolOutput> {
    // A background command's output file lives outside the workspace; the session's own files may be read.
    const filePath =
      context.runtime?.background?.outputFileFor(input.file_path) ??
      (await resolveWorkspacePath(context, input.file_path));
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(filePath);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return missingFileOutput(filePath);
      throw error;
    }
    const special = specialFileRefusal("Read", filePath, info);
    if (special !== undefined) return { content: special, isError: true };
    if (info.isDirectory()) {
      return {
        content: `${filePath} is a directory, not a file. Use Glob or Bash (ls) to list its contents.`,
        isError: true,
      };
    }
    const head = await readHead(filePath);
    if (looksLikePdf(head)) return readPdf(filePath, input.pages);
    if (input.pages !== undefined)
      return {
        content: `pages applies to PDF files only; ${filePath} is not a PDF. Use offset and limit.`,
        isError: true,
      };
    if (filePath.endsWith(".ipynb") && input.offset === undefined && input.limit === undefined)
      return readNotebookFile(filePath);
    const imageType = sniffImageType(head);
    if (imageType !== undefined) return readImage(filePath, info.size, imageType);
    if (looksBinary(head)) {
      return {
        content:
          `Cannot read ${filePath}: it is a binary file (${formatBytes(info.size)}). Read shows text files and ` +
          "PNG/JPEG/GIF/WebP images only; inspect binary files with Bash (for example `file` or `xxd | head`).",
        isError: true,
      };
    }
    return readText(filePath, info.size, input);
  },
};
