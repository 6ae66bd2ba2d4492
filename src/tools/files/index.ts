/** Files: Read, Write, Edit, Glob, Grep, NotebookEdit, and the walking, sniffing and numbering they share. The names used outside src/tools/. */
export { editTool } from "./edit-tool.js";
export { walkFiles } from "./file-walk.js";
export { globTool } from "./glob-tool.js";
export { grepTool } from "./grep-tool.js";
export { readTool } from "./read-tool.js";
export { writeTool } from "./write-tool.js";
