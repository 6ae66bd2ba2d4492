/** Glob: file paths matching a pattern, newest first. */
import { stat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { resolveWorkspacePath } from "../permissions/workspace-paths.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { DEFAULT_SKIPPED_DIRECTORIES, walkFiles } from "./file-walk.js";
import { globToRegExp, splitGlobBase } from "./glob-pattern.js";

/** Most paths returned; the rest are summarised in a note. */
export const DEFAULT_GLOB_RESULT_LIMIT = 100;

export const globInputSchema = z.strictObject({
  pattern: z.string().describe("The glob pattern to match files against"),
  path: z
    .string()
    .optional()
    .describe(
      "The directory to search in. If not specified, the current working directory will be used. IMPORTANT: " +
        'Omit this field to use the default directory. DO NOT enter "undefined" or "null" - simply omit it for ' +
        "the default behavior. Must be a valid directory path if provided.",
    ),
});
export type GlobInput = z.infer<typeof globInputSchema>;

const DESCRIPTION = `Fast file pattern matching.
- Supports glob patterns like "**/*.js" or "src/**/*.{ts,tsx}".
- Returns absolute paths sorted by modification time, newest first (at most ${DEFAULT_GLOB_RESULT_LIMIT}).
- .git and node_modules are skipped unless the pattern names them.`;

export const globTool: Tool<GlobInput> = {
  name: "Glob",
  description: DESCRIPTION,
  inputSchema: globInputSchema,
  isReadOnly: () => true,
  compactable: true,
  traits: {
    pathRule: { ruleNames: ["Read"], pathField: "path", searchesFolder: true },
    revealsMemoryFiles: true,
    terminal: { group: { verb: "Listed", noun: "pattern" } },
  },
  async call(input: GlobInput, context: ToolContext): Promise<ToolOutput> {
    const searchRoot = await resolveWorkspacePath(context, input.path ?? ".");
    const { base, rest } = splitGlobBase(input.pattern);
    const walkRoot = await resolveWorkspacePath(context, path.resolve(searchRoot, base));
    try {
      if (!(await stat(walkRoot)).isDirectory()) {
        return { content: `${walkRoot} is not a directory. Give Glob a directory as path.`, isError: true };
      }
    } catch {
      return { content: `Directory does not exist: ${walkRoot}. Check the path.`, isError: true };
    }
    const matcher = globToRegExp(rest);
    // A pattern that names a normally skipped directory (e.g. "node_modules/**") opts into it.
    const skip = new Set([...DEFAULT_SKIPPED_DIRECTORIES].filter((name) => !input.pattern.includes(name)));
    const matches: { file: string; mtimeMs: number }[] = [];
    for await (const file of walkFiles(walkRoot, { skip, signal: context.signal })) {
      if (!matcher.test(file.relative)) continue;
      try {
        matches.push({ file: file.absolute, mtimeMs: (await stat(file.absolute)).mtimeMs });
      } catch {
        // Deleted between the walk and the stat: not a match any more.
      }
    }
    if (matches.length === 0) return { content: "No files found" };
    matches.sort((left, right) => right.mtimeMs - left.mtimeMs || (left.file < right.file ? -1 : 1));
    const shown = matches.slice(0, DEFAULT_GLOB_RESULT_LIMIT).map((match) => match.file);
    const note =
      matches.length > shown.length
        ? `\n(Showing ${shown.length} of ${matches.length} matches, newest first. Use a more specific path or pattern to see the rest.)`
        : "";
    return { content: shown.join("\n") + note, display: { kind: "glob", total: matches.length } };
  },
};
