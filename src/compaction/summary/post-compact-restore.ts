/**
 * After a compaction, the files read most recently are attached again, as Claude Code does
 * (createPostCompactFileAttachments: up to 5 files, 5,000 tokens each, 50,000 in all; files whose read is
 * still in the kept tail are skipped). The contents come from disk through `CompactionInput.restoreFile`
 * (the engine reads them with its own Read tool), so an edited file comes back as it is now.
 */
import type { MessageEntry } from "../../messages/index.js";
import { charsForTokens, estimateTextTokens } from "../../messages/index.js";
import type { ArtifactTrail } from "./artifact-trail.js";

/** Most files re-attached after a compaction: 5. */
export const DEFAULT_POST_COMPACT_MAX_FILES = 5;
/** Most tokens of one re-attached file (longer files are cut at a line): 5,000. */
export const DEFAULT_POST_COMPACT_MAX_TOKENS_PER_FILE = 5_000;

/**
 * Share of the effective window re-attached files may take at most, whatever the token setting says: 10 %
 * (Claude Code's fixed 50,000 would refill a small window right after emptying it).
 */
export const DEFAULT_POST_COMPACT_RESTORE_WINDOW_RATIO = 0.1;

export interface RestoredFiles {
  /** The attachment text (one block per file). */
  text: string;
  files: string[];
  tokens: number;
}

/** Paths whose Read is in `tail` (already visible verbatim after the compaction). */
function pathsReadIn(tail: readonly MessageEntry[]): Set<string> {
  const paths = new Set<string>();
  for (const entry of tail) {
    if (entry.type !== "assistant") continue;
    for (const block of entry.message.content) {
      if (block.type !== "tool_use" || block.name !== "Read") continue;
      const path = (block.input as Record<string, unknown> | null)?.file_path;
      if (typeof path === "string") paths.add(path);
    }
  }
  return paths;
}

/** `content` cut at a line boundary to at most `maxTokens`. */
function cut(content: string, maxTokens: number): string {
  if (estimateTextTokens(content) <= maxTokens) return content;
  const lines = content.split("\n");
  const kept: string[] = [];
  let size = 0;
  for (const line of lines) {
    if (size + line.length + 1 > charsForTokens(maxTokens) - 200) break;
    kept.push(line);
    size += line.length + 1;
  }
  return `${kept.join("\n")}\n(cut after ${kept.length} of ${lines.length} lines; Read with an offset for the rest)`;
}

/**
 * The recently read files to attach, within `budgetTokens` (0: none). `read` returns a file as the Read tool
 * shows it, or undefined when it cannot be read now (deleted, outside the workspace): such files are skipped.
 */
export async function restoreRecentFiles(
  trail: ArtifactTrail,
  tail: readonly MessageEntry[],
  read: (path: string) => Promise<string | undefined>,
  budgetTokens: number,
): Promise<RestoredFiles | undefined> {
  if (budgetTokens <= 0) return undefined;
  const visible = pathsReadIn(tail);
  const candidates = trail.files
    .filter((file) => file.read && !visible.has(file.path))
    .sort((left, right) => right.lastReadOrder - left.lastReadOrder)
    .slice(0, DEFAULT_POST_COMPACT_MAX_FILES);
  const blocks: string[] = [];
  const files: string[] = [];
  let tokens = 0;
  for (const file of candidates) {
    const content = await read(file.path);
    if (content === undefined) continue;
    const block = `<file path=${JSON.stringify(file.path)}>\n${cut(content, DEFAULT_POST_COMPACT_MAX_TOKENS_PER_FILE)}\n</file>`;
    const size = estimateTextTokens(block);
    if (tokens + size > budgetTokens) continue;
    blocks.push(block);
    files.push(file.path);
    tokens += size;
  }
  if (blocks.length === 0) return undefined;
  const text = `Files read before the compaction, attached again as they are now:\n\n${blocks.join("\n\n")}`;
  return { text, files, tokens: estimateTextTokens(text) };
}
