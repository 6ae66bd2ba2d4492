/** Write: create or overwrite a file, creating parent directories. */
import { mkdir, stat } from "node:fs/promises";
import path from "node:path";
import * as z from "zod";
import { resolveWorkspaceWritePath } from "../permissions/workspace-paths.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { writeFileAtomic } from "./atomic-write.js";

export const writeInputSchema = z.strictObject({
  file_path: z.string().describe("The absolute path to the file to write (must be absolute, not relative)"),
  content: z.string().describe("The content to write to the file"),
});
export type WriteInput = z.infer<typeof writeInputSchema>;

const DESCRIPTION = `Writes a file to the local filesystem, overwriting it if it exists and creating missing parent directories.
- file_path must be inside the workspace.
- Prefer Edit for changing part of an existing file; Write replaces the whole content.`;

function lineCount(content: string): number {
  if (content.length === 0) return 0;
  const newlines = content.split("\n").length - 1;
  return content.endsWith("\n") ? newlines : newlines + 1;
}

export const writeTool: Tool<WriteInput> = {
  name: "Write",
  description: DESCRIPTION,
  inputSchema: writeInputSchema,
  isReadOnly: () => false,
  compactable: true,
  traits: {
    pathRule: { ruleNames: ["Edit", "Write"], pathField: "file_path" },
    changesFiles: { kind: "file", pathField: "file_path", acceptEdits: true },
    revealsMemoryFiles: true,
    terminal: { diff: "write" },
  },
  async call(input: WriteInput, context: ToolContext): Promise<ToolOutput> {
    const filePath = await resolveWorkspaceWritePath(context, input.file_path);
    let existed = false;
    try {
      const info = await stat(filePath);
      if (info.isDirectory()) {
        return { content: `${filePath} is a directory; give Write the path of a file.`, isError: true };
      }
      existed = true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
    await mkdir(path.dirname(filePath), { recursive: true });
    await writeFileAtomic(filePath, input.content);
    const lines = lineCount(input.content);
    const verb = existed ? "Updated" : "Created";
    return {
      content: `${verb} ${filePath} (${lines} line${lines === 1 ? "" : "s"}, ${Buffer.byteLength(input.content)} bytes).`,
      display: { kind: "write", filePath, created: !existed, lines },
    };
  },
};
