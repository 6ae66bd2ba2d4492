/**
 * The tools a session starts with when `QueryEngineOptions.tools` is not given: Claude Code's core set (plus
 * Snip when it is on), and with `deferredTools` its deferred built-ins (WebFetch, NotebookEdit) behind a
 * ToolSearch that finds every deferred tool the session has (MCP tools too). Deferred tools stay out of the
 * tools block until ToolSearch returns them (mcp/tool-search.ts), so the block stays small and byte-stable.
 */
import { createSnipTool } from "../compaction/index.js";
import { createToolSearchTool, TOOL_SEARCH_NAME } from "../mcp/index.js";
import { type AnyTool, defaultTools, deferredBuiltinTools } from "../tools/index.js";
import type { QueryEngineOptions } from "./engine-options.js";

/**
 * The session's starting tools. `registered` lists the session's tools when ToolSearch runs (MCP tools that
 * arrived late included). When `extraTools` brings its own ToolSearch (an MCP session's, which reconnects failed
 * servers before searching and also searches these built-ins: cli/modes/mcp-session.ts), that one is used.
 */
export function sessionTools(
  options: QueryEngineOptions,
  snip: boolean,
  registered: () => readonly AnyTool[],
  webSearch?: boolean,
): AnyTool[] {
  if (options.tools !== undefined) return options.tools;
  const tools = [...defaultTools(), ...(snip ? [createSnipTool()] : [])];
  if (options.deferredTools !== true) return tools;
  // WebSearch only where the server runs the web_search server tool (docs/TOOLS.md, "WebSearch").
  const deferred = deferredBuiltinTools({ webSearch: webSearch === true });
  const extra = options.extraTools?.() ?? [];
  if (extra.some((tool) => tool.name === TOOL_SEARCH_NAME)) return [...tools, ...deferred];
  const atStart = [...deferred, ...extra.filter((tool) => tool.deferLoading === true)];
  const toolSearch = createToolSearchTool({ catalog: registered, atStart });
  return [...tools, ...deferred, toolSearch];
}
