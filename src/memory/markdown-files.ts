/**
 * The Markdown files under a config folder (`commands/`, `agents/`), sub-folders included as Claude Code reads
 * them (`.claude/agents/review/security.md` is an agent like any other), in name order so the result does not
 * depend on the file system's order. Four levels deep at most: a folder tree deeper than that is not a
 * collection of commands or agents, and a symlink loop must not walk forever (symlinked folders are not
 * followed; a symlinked file is confined by the caller).
 */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import { join } from "node:path";

/** How many folders below the root are read. */
export const MARKDOWN_FOLDER_DEPTH = 4;

export async function markdownFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  async function walk(directory: string, depth: number): Promise<void> {
    let entries: Dirent[];
    try {
      entries = await readdir(directory, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
      const path = join(directory, entry.name);
      if (entry.isDirectory() && depth < MARKDOWN_FOLDER_DEPTH) await walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith(".md")) out.push(path);
    }
  }
  await walk(root, 0);
  return out;
}
