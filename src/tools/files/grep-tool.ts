/** Grep: regular-expression search over file contents, with ripgrep when available. */
import { stat } from "node:fs/promises";
import * as z from "zod";
import { checkNever } from "../../messages/index.js";
import { resolveWorkspacePath } from "../permissions/workspace-paths.js";
import { truncateMiddle } from "../shell/output-buffer.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { grepWithJavaScript } from "./grep-javascript.js";
import { findRipgrep, grepWithRipgrep } from "./grep-ripgrep.js";
import type { GrepQuery, GrepResult } from "./grep-search.js";
import { specialFileRefusal } from "./special-files.js";

/** Environment variable that, set to "1", makes Grep use the JavaScript engine even when rg is installed. */
export const NO_RIPGREP_ENVIRONMENT_VARIABLE = "THREADLINE_NO_RIPGREP";

export const grepInputSchema = z.strictObject({
  pattern: z.string().describe("The regular expression pattern to search for in file contents"),
  path: z
    .string()
    .optional()
    .describe("File or directory to search in (rg PATH). Defaults to current working directory."),
  glob: z.string().optional().describe('Glob pattern to filter files (e.g. "*.js", "*.{ts,tsx}") - maps to rg --glob'),
  output_mode: z
    .enum(["content", "files_with_matches", "count"])
    .optional()
    .describe(
      'Output mode: "content" shows matching lines (supports -A/-B/-C context, -n line numbers, head_limit), ' +
        '"files_with_matches" shows file paths (supports head_limit), "count" shows match counts (supports ' +
        'head_limit). Defaults to "files_with_matches".',
    ),
  "-B": z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Number of lines to show before each match (rg -B). Requires output_mode: "content", ignored otherwise.'),
  "-A": z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Number of lines to show after each match (rg -A). Requires output_mode: "content", ignored otherwise.'),
  "-C": z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe(
      'Number of lines to show before and after each match (rg -C). Requires output_mode: "content", ignored otherwise.',
    ),
  "-n": z
    .boolean()
    .optional()
    .describe(
      'Show line numbers in output (rg -n). Requires output_mode: "content", ignored otherwise. Defaults to true.',
    ),
  "-i": z.boolean().optional().describe("Case insensitive search (rg -i)"),
  type: z
    .string()
    .optional()
    .describe(
      "File type to search (rg --type). Common types: js, py, rust, go, java, etc. More efficient than include " +
        "for standard file types.",
    ),
  head_limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(
      'Limit output to first N lines/entries, equivalent to "| head -N". Works across all output modes: content ' +
        "(limits output lines), files_with_matches (limits file paths), count (limits count entries). Defaults to " +
        "no limit.",
    ),
  multiline: z
    .boolean()
    .optional()
    .describe(
      "Enable multiline mode where . matches newlines and patterns can span lines (rg -U --multiline-dotall). " +
        "Default: false.",
    ),
});
export type GrepInput = z.infer<typeof grepInputSchema>;

const DESCRIPTION = `A search tool built on ripgrep.
- Supports full regular expressions (e.g. "log.*Error", "function\\s+\\w+").
- Filter files with glob (e.g. "*.js", "**/*.tsx") or type (e.g. "js", "py").
- output_mode: "content" shows matching lines, "files_with_matches" (default) shows file paths newest first, "count" shows match counts.
- Use multiline: true for patterns that span lines. Always use Grep rather than grep or rg through Bash.`;

/** Which engine Grep uses: "auto" (rg when on PATH and not disabled by the environment), or a forced one. */
export type GrepEngine = "auto" | "ripgrep" | "javascript";

export interface GrepToolOptions {
  /** Default "auto". */
  engine?: GrepEngine;
}

async function runEngine(engine: GrepEngine, query: GrepQuery): Promise<GrepResult> {
  const disabled = process.env[NO_RIPGREP_ENVIRONMENT_VARIABLE] === "1";
  const ripgrep = engine === "javascript" || (engine === "auto" && disabled) ? undefined : await findRipgrep();
  if (engine === "ripgrep" && ripgrep === undefined) {
    return { kind: "error", message: "ripgrep (rg) is not installed on PATH." };
  }
  return ripgrep === undefined ? grepWithJavaScript(query) : grepWithRipgrep(ripgrep, query);
}

async function newestFirst(files: readonly string[]): Promise<string[]> {
  const stamped = await Promise.all(
    files.map(async (file) => ({
      file,
      mtimeMs: await stat(file).then(
        (info) => info.mtimeMs,
        () => 0,
      ),
    })),
  );
  stamped.sort((left, right) => right.mtimeMs - left.mtimeMs || (left.file < right.file ? -1 : 1));
  return stamped.map((entry) => entry.file);
}

function limitNote(shown: number, total: number, what: string): string {
  return shown < total ? `\n(Showing the first ${shown} of ${total} ${what}; raise head_limit to see more.)` : "";
}

async function formatResult(lines: string[], input: GrepInput): Promise<string> {
  const limit = input.head_limit ?? Number.POSITIVE_INFINITY;
  const mode = input.output_mode ?? "files_with_matches";
  switch (mode) {
    case "files_with_matches": {
      if (lines.length === 0) return "No files found";
      const files = (await newestFirst(lines)).slice(0, limit);
      const count = `Found ${lines.length} file${lines.length === 1 ? "" : "s"}`;
      return `${count}\n${files.join("\n")}${limitNote(files.length, lines.length, "files")}`;
    }
    case "count": {
      if (lines.length === 0) return "No matches found";
      const total = lines.reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(":") + 1)), 0);
      const shown = lines.slice(0, limit);
      return (
        `${shown.join("\n")}${limitNote(shown.length, lines.length, "files")}\n\n` +
        `Found ${total} matching line${total === 1 ? "" : "s"} across ${lines.length} file${lines.length === 1 ? "" : "s"}.`
      );
    }
    case "content": {
      if (lines.length === 0) return "No matches found";
      const shown = lines.slice(0, limit);
      return `${shown.join("\n")}${limitNote(shown.length, lines.length, "lines")}`;
    }
    default:
      return checkNever(mode);
  }
}

/** A Grep tool using `options.engine` (default "auto"). */
export function createGrepTool(options: GrepToolOptions = {}): Tool<GrepInput> {
  const engine = options.engine ?? "auto";
  return {
    name: "Grep",
    description: DESCRIPTION,
    inputSchema: grepInputSchema,
    isReadOnly: () => true,
    compactable: true,
    traits: {
      pathRule: { ruleNames: ["Read"], pathField: "path", searchesFolder: true },
      revealsMemoryFiles: true,
      terminal: { group: { verb: "Searched", noun: "pattern" } },
    },
    async call(input: GrepInput, context: ToolContext): Promise<ToolOutput> {
      const searchPath = await resolveWorkspacePath(context, input.path ?? ".");
      let info: Awaited<ReturnType<typeof stat>>;
      try {
        info = await stat(searchPath);
      } catch {
        return { content: `Path does not exist: ${searchPath}. Check the path parameter.`, isError: true };
      }
      const special = specialFileRefusal("Grep", searchPath, info);
      if (special !== undefined) return { content: special, isError: true };
      const contextLines = input["-C"] ?? 0;
      const query: GrepQuery = {
        pattern: input.pattern,
        path: searchPath,
        outputMode: input.output_mode ?? "files_with_matches",
        caseInsensitive: input["-i"] ?? false,
        lineNumbers: input["-n"] ?? true,
        before: input["-B"] ?? contextLines,
        after: input["-A"] ?? contextLines,
        multiline: input.multiline ?? false,
        signal: context.signal,
      };
      if (context.runtime !== undefined) query.env = context.runtime.secrets.toolEnv;
      if (input.glob !== undefined) query.glob = input.glob;
      if (input.type !== undefined) query.type = input.type;
      const result = await runEngine(engine, query);
      if (result.kind === "error") return { content: result.message, isError: true };
      return { content: truncateMiddle(await formatResult(result.lines, input)) };
    },
  };
}

/** Grep with the automatic engine choice (`THREADLINE_NO_RIPGREP=1` forces the JavaScript engine). */
export const grepTool: Tool<GrepInput> = createGrepTool();
