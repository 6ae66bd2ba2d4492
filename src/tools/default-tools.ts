/** The built-in tool set, in the fixed order sent to the API. */
import { bashTool } from "./bash-tool.js";
import { editTool } from "./edit-tool.js";
import { globTool } from "./glob-tool.js";
import { grepTool } from "./grep-tool.js";
import { readTool } from "./read-tool.js";
import type { AnyTool } from "./types.js";
import { writeTool } from "./write-tool.js";

/** Bash, Glob, Grep, Read, Edit, Write — a stable order keeps the tools' prompt-cache prefix stable. */
export function defaultTools(): AnyTool[] {
  return [bashTool, globTool, grepTool, readTool, editTool, writeTool];
}
