/** Recursive directory walk for Glob and Grep's JavaScript fallback. */
import type { Dirent } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";

/** Directories never entered unless asked for by name: version control and installed dependencies. */
export const DEFAULT_SKIPPED_DIRECTORIES: ReadonlySet<string> = new Set([".git", "node_modules"]);

export interface WalkedFile {
  absolute: string;
  /** Relative to the walk's root, `/`-separated. */
  relative: string;
}

export interface WalkOptions {
  /** Directory names not entered (default `DEFAULT_SKIPPED_DIRECTORIES`). */
  skip?: ReadonlySet<string>;
  /** Stops the walk early when aborted. */
  signal?: AbortSignal;
}

/**
 * Yields every regular file under `root`, depth-first with each directory's entries in name order (the order
 * `rg --sort path` prints). Symlinks are not followed (they could lead out of the workspace); unreadable
 * directories are skipped.
 */
export async function* walkFiles(root: string, options: WalkOptions = {}): AsyncGenerator<WalkedFile> {
  yield* walkDirectory(root, "", options.skip ?? DEFAULT_SKIPPED_DIRECTORIES, options.signal);
}

async function* walkDirectory(
  root: string,
  relativeDirectory: string,
  skip: ReadonlySet<string>,
  signal: AbortSignal | undefined,
): AsyncGenerator<WalkedFile> {
  if (signal?.aborted) return;
  let entries: Dirent[];
  try {
    entries = await readdir(path.join(root, relativeDirectory), { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((left, right) => (left.name < right.name ? -1 : left.name > right.name ? 1 : 0));
  for (const entry of entries) {
    const relative = relativeDirectory === "" ? entry.name : `${relativeDirectory}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!skip.has(entry.name)) yield* walkDirectory(root, relative, skip, signal);
    } else if (entry.isFile()) {
      yield { absolute: path.join(root, relative), relative };
    }
  }
}
