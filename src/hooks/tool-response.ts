/**
 * `tool_response` on PostToolUse stdin in Claude Code's per-tool shapes (its SDK's `sdk-tools.d.ts`: BashOutput,
 * FileReadOutput, FileWriteOutput, FileEditOutput), built from what threadline's tools report. Where threadline
 * does not keep a field the value is stated plainly rather than guessed (docs/HOOKS.md "tool_response"). Other
 * tools keep the one shape `{filePath?, success, content}`.
 */
import { contentText } from "../messages/index.js";
import type { ToolOutput } from "../tools/index.js";

type Fields = Record<string, unknown>;

function text(output: ToolOutput): string {
  return typeof output.content === "string" ? output.content : contentText(output.content);
}

function field<T>(value: unknown, key: string, check: (item: unknown) => item is T): T | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const item = (value as Fields)[key];
  return check(item) ? item : undefined;
}

const isString = (item: unknown): item is string => typeof item === "string";
const isNumber = (item: unknown): item is number => typeof item === "number";
const isBoolean = (item: unknown): item is boolean => typeof item === "boolean";

/** Read's numbered lines (`     7\tconst x`) back to the file's text. */
function unnumbered(numbered: string, lines: number): string {
  return numbered
    .split("\n")
    .slice(0, lines)
    .map((line) => line.replace(/^\s*\d+\t/, ""))
    .join("\n");
}

export function toolResponse(toolName: string, input: unknown, output: ToolOutput): Fields {
  const display = output.display;
  const kind = field(display, "kind", isString);
  if (toolName === "Bash" && kind === "bash") {
    const shown = text(output);
    // threadline's Bash reads stdout and stderr interleaved from one pipe: both arrive in `stdout`.
    return {
      stdout: shown === "(no output)" ? "" : shown,
      stderr: "",
      interrupted: field(display, "ending", isString) === "aborted",
      isImage: false,
    };
  }
  if (toolName === "Bash" && kind === "bash-background")
    return {
      stdout: "",
      stderr: "",
      interrupted: false,
      isImage: false,
      backgroundTaskId: field(display, "taskId", isString) ?? "",
    };
  if (toolName === "Read" && kind === "text") {
    const numLines = field(display, "lineCount", isNumber) ?? 0;
    const startLine = field(display, "firstLine", isNumber) ?? 1;
    return {
      type: "text",
      file: {
        filePath: field(display, "filePath", isString) ?? field(input, "file_path", isString) ?? "",
        content: unnumbered(text(output), numLines),
        numLines,
        startLine,
        // The lines read so far: threadline's Read does not count the rest of a long file.
        totalLines: startLine + numLines - 1,
      },
    };
  }
  if (toolName === "Write" && kind === "write")
    return {
      type: field(display, "created", isBoolean) === true ? "create" : "update",
      filePath: field(display, "filePath", isString) ?? field(input, "file_path", isString) ?? "",
      content: field(input, "content", isString) ?? "",
      // threadline keeps no copy of the file before the write: no patch, no original.
      structuredPatch: [],
      originalFile: null,
    };
  if (toolName === "Edit" && kind === "edit")
    return {
      filePath: field(display, "filePath", isString) ?? field(input, "file_path", isString) ?? "",
      oldString: field(input, "old_string", isString) ?? "",
      newString: field(input, "new_string", isString) ?? "",
      originalFile: null,
      structuredPatch: [],
      userModified: false,
      replaceAll: field(input, "replace_all", isBoolean) ?? false,
    };
  const path = field(input, "file_path", isString);
  return { ...(path !== undefined ? { filePath: path } : {}), success: output.isError !== true, content: text(output) };
}
