/**
 * How a memory file's text begins once request assembly wrapped it (docs/MEMORY.md "What the model sees").
 * Shared by `memory/`, which writes it, and `request/`, which must keep it out of tool results: a tool result
 * can be deleted later by a cache edit, and the memory text must never go with it.
 */

/** The header before each memory file's text ("Contents of <path> (<kind>):"). */
export const MEMORY_FILE_HEADER = "Contents of ";

/** The first line of the session-start memory attachment. */
export const MEMORY_LEAD =
  "Instructions from the user's memory files (CLAUDE.md, AGENTS.md) follow. Follow them: they take precedence over your defaults, and a later file is more specific than an earlier one.";

/** Whether an attachment's text is memory-file text. */
export function isMemoryText(text: string): boolean {
  return text.startsWith(MEMORY_FILE_HEADER) || text.startsWith(MEMORY_LEAD);
}
