/**
 * How compaction reads a file again to re-attach it after a summary: through the session's own Read tool
 * (same confinement, same line-numbered form the model saw), outside any turn's tool accounting.
 */
import type { AnyTool } from "../../tools/index.js";

/** A reader for `CompactionInput.restoreFile`; undefined when the session has no Read tool. */
export function restoreFileReader(
  tools: ReadonlyMap<string, AnyTool>,
  cwd: string,
  additionalDirectories: readonly string[],
  signal: AbortSignal,
): ((path: string) => Promise<string | undefined>) | undefined {
  const read = tools.get("Read");
  if (read === undefined) return undefined;
  return async (path) => {
    try {
      const output = await read.call(
        { file_path: path },
        { cwd, additionalDirectories, signal, toolUseId: "post-compact-restore", onProgress: () => {} },
      );
      return output.isError === true || typeof output.content !== "string" ? undefined : output.content;
    } catch {
      // A file that cannot be read now is simply not re-attached.
      return undefined;
    }
  };
}
