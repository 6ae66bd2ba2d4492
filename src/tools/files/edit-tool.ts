/** Edit: exact string replacement in a file, refusing ambiguous or missing matches. */
import { readFile, stat } from "node:fs/promises";
import * as z from "zod";
import { resolveWorkspaceWritePath } from "../permissions/workspace-paths.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { writeFileAtomic } from "./atomic-write.js";
import { numberLines } from "./line-numbering.js";
import { decodeRoundTrip } from "./text-round-trip.js";
import { writeTool } from "./write-tool.js";

/** Lines of context shown around an edit in the returned snippet. */
export const DEFAULT_SNIPPET_CONTEXT_LINES = 4;

export const editInputSchema = z.strictObject({
  file_path: z.string().describe("The absolute path to the file to modify"),
  old_string: z.string().describe("The text to replace"),
  new_string: z.string().describe("The text to replace it with (must be different from old_string)"),
  replace_all: z.boolean().optional().describe("Replace all occurences of old_string (default false)"),
});
export type EditInput = z.infer<typeof editInputSchema>;

const DESCRIPTION = `Performs exact string replacements in files.
- old_string must match the file exactly, including whitespace and indentation.
- The edit fails if old_string is not found, or if it occurs more than once and replace_all is false: add surrounding context to make it unique, or set replace_all to true to change every occurrence.
- An empty old_string on a file that does not exist creates the file with new_string.`;

function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let index = haystack.indexOf(needle); index !== -1; index = haystack.indexOf(needle, index + needle.length)) {
    count++;
  }
  return count;
}

/** Lines around [start, start + length) of `text`, numbered like `cat -n`. */
function snippetAround(text: string, start: number, length: number): string {
  const lines = text.split("\n").map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
  const firstLine = text.slice(0, start).split("\n").length;
  const lastLine = firstLine + text.slice(start, start + length).split("\n").length - 1;
  const from = Math.max(1, firstLine - DEFAULT_SNIPPET_CONTEXT_LINES);
  const to = Math.min(lines.length, lastLine + DEFAULT_SNIPPET_CONTEXT_LINES);
  return numberLines(lines.slice(from - 1, to), from);
}

export const editTool: Tool<EditInput> = {
  name: "Edit",
  description: DESCRIPTION,
  inputSchema: editInputSchema,
  isReadOnly: () => false,
  compactable: true,
  traits: {
    pathRule: { ruleNames: ["Edit"], pathField: "file_path" },
    changesFiles: { kind: "file", pathField: "file_path", acceptEdits: true },
    revealsMemoryFiles: true,
    terminal: { diff: "edit" },
  },
  async call(input: EditInput, context: ToolContext): Promise<ToolOutput> {
    const filePath = await resolveWorkspaceWritePath(context, input.file_path);
    if (input.old_string === input.new_string) {
      return {
        content: "No changes to make: old_string and new_string are exactly the same. Give a different new_string.",
        isError: true,
      };
    }
    let original: string;
    try {
      if ((await stat(filePath)).isDirectory()) {
        return { content: `${filePath} is a directory; Edit works on files.`, isError: true };
      }
      const decoded = decodeRoundTrip(await readFile(filePath), filePath);
      if ("refusal" in decoded) return { content: decoded.refusal, isError: true };
      original = decoded.text;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      if (input.old_string === "") return writeTool.call({ file_path: filePath, content: input.new_string }, context);
      return {
        content: `File does not exist: ${filePath}. Check the path, or use Write to create a new file.`,
        isError: true,
      };
    }
    if (input.old_string === "") {
      if (original.length > 0) {
        return {
          content: `old_string is empty but ${filePath} already has content. Give the exact text to replace, or use Write to replace the whole file.`,
          isError: true,
        };
      }
      await writeFileAtomic(filePath, input.new_string);
      return { content: `Wrote ${filePath} (it was empty).` };
    }
    let oldString = input.old_string;
    let newString = input.new_string;
    let matches = countOccurrences(original, oldString);
    // Models write "\n"; a CRLF file needs "\r\n" to match. Retry with the file's line endings before failing.
    if (matches === 0 && original.includes("\r\n") && oldString.includes("\n") && !oldString.includes("\r")) {
      oldString = oldString.replaceAll("\n", "\r\n");
      newString = newString.replaceAll("\n", "\r\n");
      matches = countOccurrences(original, oldString);
    }
    if (matches === 0) {
      return {
        content:
          `String to replace not found in ${filePath}. old_string must match the file exactly, including ` +
          "whitespace, indentation and line breaks. Read the file again and copy the exact text.",
        isError: true,
      };
    }
    const replaceAll = input.replace_all ?? false;
    if (matches > 1 && !replaceAll) {
      return {
        content:
          `Found ${matches} matches of old_string in ${filePath}, but replace_all is false. To replace every ` +
          "occurrence set replace_all to true; to replace just one, include more surrounding lines in " +
          "old_string so that it matches exactly once.",
        isError: true,
      };
    }
    const firstIndex = original.indexOf(oldString);
    // split/join and slicing avoid String.replace's special `$` patterns in new_string.
    const updated = replaceAll
      ? original.split(oldString).join(newString)
      : original.slice(0, firstIndex) + newString + original.slice(firstIndex + oldString.length);
    await writeFileAtomic(filePath, updated);
    const what = replaceAll && matches > 1 ? `All ${matches} occurrences were replaced. ` : "";
    return {
      content:
        `The file ${filePath} has been updated. ${what}Here is the result of running \`cat -n\` on a snippet ` +
        `of the edited file:\n${snippetAround(updated, firstIndex, newString.length)}`,
      display: { kind: "edit", filePath, replacements: replaceAll ? matches : 1 },
    };
  },
};
