/**
 * Grep without ripgrep: a directory walk plus JavaScript regular expressions, printing ripgrep's output format.
 * It skips .git and node_modules and binary files but does not read .gitignore.
 */
import { open, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { checkNever } from "../../messages/index.js";
import { DEFAULT_SNIFF_BYTES } from "./file-sniff.js";
import { type WalkedFile, walkFiles } from "./file-walk.js";
import { globToRegExp } from "./glob-pattern.js";
import { GREP_FILE_TYPES, type GrepQuery, type GrepResult } from "./grep-search.js";

async function hasNulByte(filePath: string): Promise<boolean> {
  const handle = await open(filePath, "r");
  try {
    const buffer = Buffer.alloc(DEFAULT_SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).includes(0);
  } finally {
    await handle.close();
  }
}

/** ripgrep's `--glob` rule: a pattern without `/` matches the base name, one with `/` the relative path. */
function globFilter(glob: string | undefined): (file: WalkedFile) => boolean {
  if (glob === undefined || glob === "") return () => true;
  const negated = glob.startsWith("!");
  const pattern = negated ? glob.slice(1) : glob;
  const matcher = globToRegExp(pattern.replace(/^\//, ""));
  const onBaseName = !pattern.includes("/");
  return (file) => {
    const subject = onBaseName ? path.posix.basename(file.relative) : file.relative;
    return matcher.test(subject) !== negated;
  };
}

function typeFilter(type: string | undefined): ((file: WalkedFile) => boolean) | string {
  if (type === undefined || type === "") return () => true;
  const extensions = GREP_FILE_TYPES[type];
  if (extensions === undefined) {
    return `Unknown file type "${type}" for Grep's type parameter. Known types: ${Object.keys(GREP_FILE_TYPES).join(", ")}. Or use glob instead (e.g. "*.ext").`;
  }
  return (file) => extensions.some((extension) => file.relative.endsWith(`.${extension}`));
}

/** 0-based indexes of the lines holding a match. */
function matchedLineIndexes(text: string, lines: readonly string[], query: GrepQuery, regex: RegExp): number[] {
  if (!query.multiline) {
    const found: number[] = [];
    lines.forEach((line, index) => {
      if (regex.test(line)) found.push(index);
    });
    return found;
  }
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of lines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const lineOf = (position: number): number => {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const middle = Math.ceil((low + high) / 2);
      if ((lineStarts[middle] ?? 0) <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  const found = new Set<number>();
  for (const match of text.matchAll(regex)) {
    const start = match.index;
    const end = start + Math.max(0, match[0].length - 1);
    for (let line = lineOf(start); line <= lineOf(end); line++) found.add(line);
  }
  return [...found].sort((left, right) => left - right);
}

function contentLines(file: string, lines: readonly string[], matched: readonly number[], query: GrepQuery): string[] {
  const matchedSet = new Set(matched);
  const shown = new Set<number>();
  for (const index of matched) {
    for (let line = index - query.before; line <= index + query.after; line++) {
      if (line >= 0 && line < lines.length) shown.add(line);
    }
  }
  const output: string[] = [];
  let previous: number | undefined;
  for (const index of [...shown].sort((left, right) => left - right)) {
    const withContext = query.before > 0 || query.after > 0;
    if (withContext && previous !== undefined && index > previous + 1) output.push("--");
    const separator = matchedSet.has(index) ? ":" : "-";
    const number = query.lineNumbers ? `${index + 1}${separator}` : "";
    output.push(`${file}${separator}${number}${lines[index] ?? ""}`);
    previous = index;
  }
  return output;
}

/** Runs `query` in JavaScript; same output lines as the ripgrep engine for the same files. */
export async function grepWithJavaScript(query: GrepQuery): Promise<GrepResult> {
  let regex: RegExp;
  try {
    const flags = `${query.caseInsensitive ? "i" : ""}${query.multiline ? "gms" : ""}`;
    regex = new RegExp(query.pattern, flags);
  } catch (error) {
    return {
      kind: "error",
      message: `Invalid regular expression ${JSON.stringify(query.pattern)}: ${(error as Error).message}`,
    };
  }
  const byType = typeFilter(query.type);
  if (typeof byType === "string") return { kind: "error", message: byType };
  const byGlob = globFilter(query.glob);
  const info = await stat(query.path);
  const files: AsyncIterable<WalkedFile> | WalkedFile[] = info.isDirectory()
    ? walkFiles(query.path, { signal: query.signal })
    : [{ absolute: query.path, relative: path.basename(query.path) }];
  const output: string[] = [];
  let groupsPrinted = false;
  for await (const file of files) {
    if (!byGlob(file) || !byType(file)) continue;
    let text: string;
    try {
      if (await hasNulByte(file.absolute)) continue;
      text = await readFile(file.absolute, "utf8");
    } catch {
      continue;
    }
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const withoutCarriageReturns = lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
    const matched = matchedLineIndexes(text, withoutCarriageReturns, query, regex);
    if (matched.length === 0) continue;
    switch (query.outputMode) {
      case "files_with_matches":
        output.push(file.absolute);
        break;
      case "count":
        output.push(`${file.absolute}:${matched.length}`);
        break;
      case "content": {
        if (groupsPrinted && (query.before > 0 || query.after > 0)) output.push("--");
        output.push(...contentLines(file.absolute, withoutCarriageReturns, matched, query));
        groupsPrinted = true;
        break;
      }
      default:
        checkNever(query.outputMode);
    }
  }
  return { kind: "lines", lines: output };
}
