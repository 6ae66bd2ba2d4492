/** The tools, in rooms by what they are; each room's index.ts is its face. */

export * from "./agents/index.js";
export { builtinToolTraits, defaultTools, deferredBuiltinTools } from "./default-tools.js";
export * from "./files/index.js";
export * from "./permissions/index.js";
export * from "./questions/index.js";
export { INTERRUPTED_MESSAGE, runTool } from "./run-tool.js";
export * from "./schedule/index.js";
export * from "./shell/index.js";
export {
  type CreatedToolRuntime,
  createToolRuntime,
  defaultToolRuntime,
  type SandboxStatus,
  sandboxNotice,
  type ToolRuntimeOptions,
} from "./tool-runtime.js";
export type {
  AnyTool,
  PlanModeControl,
  SideQuery,
  Tool,
  ToolContext,
  ToolOutput,
  ToolRuntime,
  ToolSessionAccess,
  WebSearchAnswer,
  WebSearchQuery,
  WorkspaceScope,
} from "./types.js";
export * from "./web/index.js";
export * from "./worktree/index.js";
