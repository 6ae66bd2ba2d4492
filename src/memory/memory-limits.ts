/** The size caps on memory files (docs/MEMORY.md "Caps"). */

/** Most characters kept of one memory file (Claude Code's own cap is the same): 40,000. */
export const DEFAULT_MEMORY_FILE_MAX_CHARS = 40_000;

/** Most characters of memory files loaded in one session, all files together: 120,000 (about 30K tokens). */
export const DEFAULT_MEMORY_TOTAL_MAX_CHARS = 120_000;

/** Deepest `@path` import chain followed (a file imported by an imported file is depth 2): 5. */
export const DEFAULT_MEMORY_IMPORT_MAX_DEPTH = 5;

export interface MemoryLimits {
  /** Default DEFAULT_MEMORY_FILE_MAX_CHARS. */
  fileMaxChars: number;
  /** Default DEFAULT_MEMORY_TOTAL_MAX_CHARS. */
  totalMaxChars: number;
  /** Default DEFAULT_MEMORY_IMPORT_MAX_DEPTH. */
  importMaxDepth: number;
}

export const DEFAULT_MEMORY_LIMITS: MemoryLimits = {
  fileMaxChars: DEFAULT_MEMORY_FILE_MAX_CHARS,
  totalMaxChars: DEFAULT_MEMORY_TOTAL_MAX_CHARS,
  importMaxDepth: DEFAULT_MEMORY_IMPORT_MAX_DEPTH,
};
