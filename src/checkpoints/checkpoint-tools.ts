/**
 * The session's tools with checkpoints around the ones that change files (docs/REWIND.md): Write, Edit and
 * NotebookEdit keep the file they name before their call; Bash runs inside the workspace watch. The tool
 * itself is untouched (a proxy answers for it), so its definition and so the request stay byte-for-byte the same.
 */
import { isAbsolute, join } from "node:path";
import type { AnyTool, ToolContext } from "../tools/index.js";
import type { Checkpoints } from "./checkpoints.js";

/** The file a call names, by the input field its tool declares (`traits.changesFiles.pathField`). */
function pathOf(field: string, input: unknown, cwd: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[field];
  if (typeof value !== "string" || value === "") return undefined;
  return isAbsolute(value) ? value : join(cwd, value);
}

/** The tools, those that change files checkpointed by `checkpoints` (all as they are when it is undefined). */
export function withCheckpoints(tools: readonly AnyTool[], checkpoints: Checkpoints | undefined): AnyTool[] {
  if (checkpoints === undefined) return tools.slice();
  return tools.map((tool) => checkpointed(tool, () => checkpoints));
}

/** `tool`, its calls checkpointed when it changes files; any other tool as it is. */
function checkpointed(tool: AnyTool, checkpoints: () => Checkpoints | undefined): AnyTool {
  const changes = tool.traits?.changesFiles;
  if (changes === undefined) return tool;
  const call = async (input: unknown, context: ToolContext) => {
    const store = checkpoints();
    if (store === undefined) return tool.call(input, context);
    if (changes.kind === "command") return store.aroundCommand(() => tool.call(input, context));
    const path = pathOf(changes.pathField, input, context.cwd);
    if (path !== undefined) {
      try {
        await store.beforeFileChange(path, tool.name);
      } catch (error) {
        // The checkpoint could not be kept (checkpointFailure's line): the call is refused, not run without one.
        return { content: error instanceof Error ? error.message : String(error), isError: true };
      }
    }
    return tool.call(input, context);
  };
  return new Proxy(tool, {
    get(target, property) {
      if (property === "call") return call;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
