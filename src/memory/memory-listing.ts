/** What `/memory` shows: each loaded memory file with its kind and size, read from the timeline's records. */
import { estimateCharTokens, type TimelineEntry } from "../messages/index.js";
import type { MemoryFileRecord } from "./memory-types.js";
import { loadedMemory } from "./reattach.js";

/** Every memory file loaded in the session, once each, in the order loaded. */
export function loadedMemoryFiles(entries: readonly TimelineEntry[]): MemoryFileRecord[] {
  const byPath = new Map<string, MemoryFileRecord>();
  for (const memory of loadedMemory(entries))
    for (const file of memory.memoryFiles) if (!byPath.has(file.path)) byPath.set(file.path, file);
  return [...byPath.values()];
}

/** The `/memory` text: one line per file, then the total (about 4 characters a token). */
export function formatMemoryListing(files: readonly MemoryFileRecord[], enabled: boolean): string {
  if (!enabled) return "Memory files are off (--no-memory, THREADLINE_DISABLE_MEMORY=1 or memoryFiles: false).";
  if (files.length === 0)
    return "No memory files loaded (looked for CLAUDE.md, CLAUDE.local.md, .claude/CLAUDE.md, AGENTS.md).";
  const lines = files.map(
    (file) =>
      `  ${file.path} (${file.scope}) ${file.chars.toLocaleString("en-US")} chars, ~${estimateCharTokens(file.chars).toLocaleString("en-US")} tokens`,
  );
  const total = files.reduce((sum, file) => sum + file.chars, 0);
  return [
    `Memory files loaded (${files.length}):`,
    ...lines,
    `  total ${total.toLocaleString("en-US")} chars, ~${estimateCharTokens(total).toLocaleString("en-US")} tokens`,
  ].join("\n");
}
