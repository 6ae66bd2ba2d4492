/**
 * The coloured diff shown for every Edit and Write: in the permission question (before) and under the
 * tool's line once it ran (after). Computed with the `diff` library, loaded lazily by `loadDiff` (only the
 * interactive mode shows diffs). Edit diffs its old and new strings, placed at their line in the file when
 * the file still holds the old text; Write diffs the file as it was when asked against the new content.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { builtinToolTraits } from "../../../tools/index.js";
import type { Style } from "../../terminal/style.js";

/** Diff lines shown before the rest is summarised. */
export const DEFAULT_DIFF_LINES = 40;

/** Lines of context around each change. */
export const DEFAULT_DIFF_CONTEXT = 2;

type StructuredPatch = typeof import("diff").structuredPatch;
let structuredPatch: StructuredPatch | undefined;

/** Loads the diff library once. */
export async function loadDiff(): Promise<void> {
  if (structuredPatch !== undefined) return;
  structuredPatch = (await import("diff")).structuredPatch;
}

interface EditInput {
  file_path?: unknown;
  old_string?: unknown;
  new_string?: unknown;
  replace_all?: unknown;
  content?: unknown;
}

/** The before/after texts of an Edit or Write call, or undefined for other tools or odd input. */
export function changeOf(
  tool: string,
  input: unknown,
  cwd: string,
): { path: string; before: string; after: string; offsetLines: number } | undefined {
  const fields = (input ?? {}) as EditInput;
  if (typeof fields.file_path !== "string") return undefined;
  const path = isAbsolute(fields.file_path) ? fields.file_path : resolve(cwd, fields.file_path);
  const diff = builtinToolTraits(tool)?.terminal?.diff;
  if (diff === undefined) return undefined;
  const current = readOrEmpty(path);
  if (diff === "write" && typeof fields.content === "string") {
    return { path: fields.file_path, before: current, after: fields.content, offsetLines: 0 };
  }
  if (diff === "edit" && typeof fields.old_string === "string" && typeof fields.new_string === "string") {
    const at = current.indexOf(fields.old_string);
    const offsetLines = at === -1 ? 0 : current.slice(0, at).split("\n").length - 1;
    return { path: fields.file_path, before: fields.old_string, after: fields.new_string, offsetLines };
  }
  return undefined;
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** `+2 -1` and the coloured hunk lines (with line numbers), capped at `maxLines`. */
export function formatDiff(
  change: { before: string; after: string; offsetLines: number },
  style: Style,
  maxLines: number = DEFAULT_DIFF_LINES,
): { added: number; removed: number; lines: string[] } {
  const patch = structuredPatch;
  if (patch === undefined) return { added: 0, removed: 0, lines: [] };
  const hunks = patch("a", "b", withNewline(change.before), withNewline(change.after), "", "", {
    context: DEFAULT_DIFF_CONTEXT,
  }).hunks;
  let added = 0;
  let removed = 0;
  const lines: string[] = [];
  for (const hunk of hunks) {
    let oldLine = hunk.oldStart + change.offsetLines;
    let newLine = hunk.newStart + change.offsetLines;
    if (lines.length > 0) lines.push(style.dim("   ⋮"));
    for (const line of hunk.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === "+") {
        added++;
        lines.push(style.success(`${String(newLine++).padStart(4)} + ${text}`));
      } else if (mark === "-") {
        removed++;
        lines.push(style.error(`${String(oldLine++).padStart(4)} - ${text}`));
      } else if (mark === " ") {
        lines.push(style.dim(`${String(newLine++).padStart(4)}   ${text}`));
        oldLine++;
      }
    }
  }
  if (lines.length > maxLines) {
    const hidden = lines.length - maxLines;
    lines.length = maxLines;
    lines.push(style.dim(`     … ${hidden} more diff line${hidden === 1 ? "" : "s"}`));
  }
  return { added, removed, lines };
}

function withNewline(text: string): string {
  return text === "" || text.endsWith("\n") ? text : `${text}\n`;
}

/** The diff lines of an Edit/Write being asked about, remembered in `changes` so the same diff shows after it ran. */
export function describeChange(
  request: { tool: string; input: unknown },
  cwd: string,
  changes: Map<string, NonNullable<ReturnType<typeof changeOf>>>,
  key: string,
  style: Style,
): string[] {
  const change = changeOf(request.tool, request.input, cwd);
  if (change === undefined) return [];
  changes.set(key, change);
  const diff = formatDiff(change, style);
  return [style.dim(`  ${change.path} (+${diff.added} -${diff.removed})`), ...diff.lines.map((line) => `  ${line}`)];
}
