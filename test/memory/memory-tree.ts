/** A project laid out as a user would have it: a git repository with memory files, and a user home. */
import { mkdir, mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export interface MemoryTree {
  /** The repository root (the working directory). */
  repo: string;
  /** The user's home (its .claude/CLAUDE.md). */
  home: string;
  /** threadline's home. */
  threadlineHome: string;
}

/** Files of the tree, by path relative to the repo (`~/` for the user's home). */
export const TREE_FILES: Record<string, string> = {
  "~/.claude/CLAUDE.md": "User rule U1: answer in British English.\n",
  "CLAUDE.md": "Root rule R1: run npm test before committing.\n@docs/style.md\n",
  "docs/style.md": "Style rule S1: two-space indentation.\n",
  ".claude/CLAUDE.md": "Dot rule D1: never edit generated files.\n",
  "AGENTS.md": "Agents rule A1: keep functions under 40 lines.\n",
  "CLAUDE.local.md": "Local rule L1: my sandbox is at http://localhost:9999.\n",
  "src/x/CLAUDE.md": "Nested rule N1: x/ code is pure, no I/O.\n",
  "src/x/a.ts": "export const a = 1;\n",
  "src/y/b.ts": "export const b = 2;\n",
};

export async function writeTree(files: Record<string, string>, tree: MemoryTree): Promise<void> {
  for (const [relative, text] of Object.entries(files)) {
    const path = relative.startsWith("~/") ? join(tree.home, relative.slice(2)) : join(tree.repo, relative);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

/** A fresh tree: `git init`-like `.git` folder, the memory files of TREE_FILES (or `files`). */
export async function makeMemoryTree(files: Record<string, string> = TREE_FILES): Promise<MemoryTree> {
  const base = await mkdtemp(join(tmpdir(), "threadline-memory-"));
  const tree = {
    repo: join(base, "repo"),
    home: join(base, "home"),
    threadlineHome: join(base, "home", ".threadline"),
  };
  await mkdir(join(tree.repo, ".git"), { recursive: true });
  await mkdir(tree.threadlineHome, { recursive: true });
  await writeTree(files, tree);
  return tree;
}
