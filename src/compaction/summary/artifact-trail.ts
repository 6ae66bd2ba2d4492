/**
 * The artifact trail: a deterministic ledger of the files the session read, wrote and edited (path, line
 * ranges read, a hash of the content at the last read) and the commands it ran with their exit codes, built
 * from the timeline's tool_use / tool_result pairs. Summaries are lossy ("which files were touched" is what
 * every summarizer forgets first), so the trail is never summarized: it goes into every summary request as
 * context and is attached verbatim after the summary by the client itself.
 */
import { createHash } from "node:crypto";
import type { TimelineEntry, ToolResultBlock, ToolUseBlock } from "../../messages/index.js";
import { contentText, estimateTextTokens } from "../../messages/index.js";

/** Most commands the rendered trail lists (the most recent ones; the count of older ones is stated): 40. */
export const DEFAULT_TRAIL_MAX_COMMANDS = 40;
/** Most files the rendered trail lists (the most recently touched; the count of older ones is stated): 200. */
export const DEFAULT_TRAIL_MAX_FILES = 200;

/** What the session did to one file. */
export interface FileArtifact {
  path: string;
  read: boolean;
  written: boolean;
  edited: boolean;
  /** Line ranges read, merged and sorted (1-based, inclusive). */
  ranges: Array<[number, number]>;
  /** First 12 hex digits of the SHA-256 of the last successful Read's result. */
  hashAtLastRead?: string;
  /** Order (position among all tool results) of the last successful Read, and of the last touch of any kind. */
  lastReadOrder: number;
  lastTouchOrder: number;
}

/** One command run (Bash), with its exit code (null: killed, timed out or interrupted). */
export interface CommandArtifact {
  command: string;
  exitCode: number | null;
}

export interface ArtifactTrail {
  files: FileArtifact[];
  commands: CommandArtifact[];
}

interface ReadDisplay {
  kind: "text";
  firstLine: number;
  lineCount: number;
}
interface BashDisplay {
  kind: "bash";
  exitCode: number | null;
  ending?: string;
}

function isReadDisplay(value: unknown): value is ReadDisplay {
  const record = value as Partial<ReadDisplay> | null;
  return (
    typeof record === "object" &&
    record !== null &&
    record.kind === "text" &&
    typeof record.firstLine === "number" &&
    typeof record.lineCount === "number"
  );
}

function isBashDisplay(value: unknown): value is BashDisplay {
  const record = value as Partial<BashDisplay> | null;
  return typeof record === "object" && record !== null && record.kind === "bash" && "exitCode" in record;
}

function stringField(input: unknown, field: string): string | undefined {
  const value = (input as Record<string, unknown> | null)?.[field];
  return typeof value === "string" && value !== "" ? value : undefined;
}

function numberField(input: unknown, field: string): number | undefined {
  const value = (input as Record<string, unknown> | null)?.[field];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** The lines a Read returned: from its display record, else from its input and result. */
function readRange(use: ToolUseBlock, result: ToolResultBlock, display: unknown): [number, number] {
  if (isReadDisplay(display)) return [display.firstLine, display.firstLine + Math.max(0, display.lineCount - 1)];
  const first = Math.max(1, numberField(use.input, "offset") ?? 1);
  const text = typeof result.content === "string" ? result.content : contentText(result.content ?? []);
  const lines = text.split("\n").filter((line) => /^\s*\d+\t/.test(line)).length;
  return [first, first + Math.max(0, lines - 1)];
}

function mergeRange(ranges: Array<[number, number]>, range: [number, number]): Array<[number, number]> {
  const all = [...ranges, range].sort((left, right) => left[0] - right[0]);
  const merged: Array<[number, number]> = [];
  for (const [start, end] of all) {
    const last = merged.at(-1);
    if (last !== undefined && start <= last[1] + 1) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

function resultText(result: ToolResultBlock): string {
  return typeof result.content === "string" ? result.content : contentText(result.content ?? []);
}

/** Exit code of a Bash result: the display record when there is one, else 0 unless the result is an error. */
function exitCodeOf(result: ToolResultBlock, display: unknown): number | null {
  if (isBashDisplay(display)) return display.exitCode;
  if (result.is_error !== true) return 0;
  const match = /\bExit code (\d+)\b/.exec(resultText(result));
  return match ? Number(match[1]) : null;
}

/** The trail of `entries` (the whole timeline: entries before a compact boundary count too). */
export function buildArtifactTrail(entries: readonly TimelineEntry[]): ArtifactTrail {
  const uses = new Map<string, ToolUseBlock>();
  const seenResults = new Set<string>();
  const files = new Map<string, FileArtifact>();
  const commands: CommandArtifact[] = [];
  let order = 0;
  const fileOf = (path: string): FileArtifact => {
    let file = files.get(path);
    if (file === undefined) {
      file = { path, read: false, written: false, edited: false, ranges: [], lastReadOrder: -1, lastTouchOrder: -1 };
      files.set(path, file);
    }
    return file;
  };
  for (const entry of entries) {
    if (entry.type === "assistant" && entry.isSidechain !== true) {
      for (const block of entry.message.content) if (block.type === "tool_use") uses.set(block.id, block);
      continue;
    }
    if (entry.type !== "user" || entry.isSidechain === true || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content) {
      if (block.type !== "tool_result" || seenResults.has(block.tool_use_id)) continue;
      const use = uses.get(block.tool_use_id);
      if (use === undefined) continue;
      // Compaction copies recent entries after its boundary: the same tool id is one event.
      seenResults.add(block.tool_use_id);
      order++;
      const path = stringField(use.input, "file_path");
      if (use.name === "Bash") {
        const command = stringField(use.input, "command");
        if (command !== undefined) commands.push({ command, exitCode: exitCodeOf(block, entry.toolUseResult) });
        continue;
      }
      if (path === undefined || block.is_error === true) continue;
      const file = fileOf(path);
      file.lastTouchOrder = order;
      if (use.name === "Read") {
        file.read = true;
        file.ranges = mergeRange(file.ranges, readRange(use, block, entry.toolUseResult));
        file.hashAtLastRead = createHash("sha256").update(resultText(block)).digest("hex").slice(0, 12);
        file.lastReadOrder = order;
      } else if (use.name === "Write") file.written = true;
      else if (use.name === "Edit") file.edited = true;
    }
  }
  return { files: [...files.values()], commands };
}

function describeFile(file: FileArtifact): string {
  const what: string[] = [];
  if (file.read) {
    const ranges = file.ranges.map(([start, end]) => (start === end ? `${start}` : `${start}-${end}`)).join(", ");
    what.push(`read lines ${ranges}${file.hashAtLastRead !== undefined ? ` (sha256 ${file.hashAtLastRead})` : ""}`);
  }
  if (file.edited) what.push("edited");
  if (file.written) what.push("written");
  return `- ${file.path}: ${what.join("; ")}`;
}

/**
 * The trail as text: files (most recently touched first), then commands (in order); "" when empty. With
 * `maxTokens` (estimate units) it lists fewer — the most recent files and commands, stating how many older ones
 * are left out — until it fits; "" when not even the frame fits. A compaction's room can be smaller than the whole
 * trail: a 40K window counted ×10 leaves the conversation ~1,400 characters after a compaction, and a 25-file trail
 * alone took 1,300 of them, so every first request after a compaction came back over its target
 * (docs/CONTEXT-BUDGET.md "The artifact trail").
 */
export function renderArtifactTrail(trail: ArtifactTrail, maxTokens = Number.POSITIVE_INFINITY): string {
  if (trail.files.length === 0 && trail.commands.length === 0) return "";
  const files = [...trail.files].sort((left, right) => right.lastTouchOrder - left.lastTouchOrder);
  let fileLimit = Math.min(files.length, DEFAULT_TRAIL_MAX_FILES);
  let commandLimit = Math.min(trail.commands.length, DEFAULT_TRAIL_MAX_COMMANDS);
  for (;;) {
    const text = renderLimited(files, trail.commands, fileLimit, commandLimit);
    if (estimateTextTokens(text) <= maxTokens) return text;
    if (fileLimit === 0 && commandLimit === 0) return "";
    // Shorten the longer list by a fifth (at least one line): a few renders, not one per line.
    if (fileLimit >= commandLimit) fileLimit -= Math.max(1, Math.ceil(fileLimit / 5));
    else commandLimit -= Math.max(1, Math.ceil(commandLimit / 5));
  }
}

/** The trail with at most `fileLimit` files and the last `commandLimit` commands listed. */
function renderLimited(
  files: readonly FileArtifact[],
  commands: readonly CommandArtifact[],
  fileLimit: number,
  commandLimit: number,
): string {
  const lines = ["<artifact-trail>", "Files this session touched (most recent first):"];
  for (const file of files.slice(0, fileLimit)) lines.push(describeFile(file));
  if (files.length > fileLimit) lines.push(`- … and ${files.length - fileLimit} more`);
  if (files.length === 0) lines.push("- (none)");
  lines.push("Commands run (exit code):");
  const skipped = commands.length - commandLimit;
  if (skipped > 0) lines.push(`- … ${skipped} earlier commands`);
  for (const command of commands.slice(skipped))
    lines.push(`- ${JSON.stringify(command.command)} → ${command.exitCode === null ? "killed" : command.exitCode}`);
  if (commands.length === 0) lines.push("- (none)");
  lines.push("</artifact-trail>");
  return lines.join("\n");
}
