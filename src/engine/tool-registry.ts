/**
 * The session's tools by name. Tools that arrive during the session (`QueryEngineOptions.extraTools`: an MCP
 * server that connected late, or came back after failing) are added at each turn start, and also when the loop
 * looks up a name it does not know yet, so a tool ToolSearch just found on such a server runs in the same turn.
 * Names are only ever added, never replaced or removed (docs/MCP.md).
 */
import { type DeferredToolLoading, foundSinceBoundary, loadedToolNames, requestTools } from "../mcp/index.js";
import type { TimelineEntry } from "../messages/index.js";
import { type ToolDefinition, toolDefinitions } from "../request/index.js";
import type { AnyTool } from "../tools/index.js";

export class ToolRegistry extends Map<string, AnyTool> {
  readonly #extra: () => readonly AnyTool[];

  constructor(tools: readonly AnyTool[], extra: () => readonly AnyTool[]) {
    super(tools.map((tool) => [tool.name, tool]));
    this.#extra = extra;
    this.addExtraTools();
  }

  /** Adds the extra tools whose names are new. */
  addExtraTools(): void {
    for (const tool of this.#extra()) if (!this.has(tool.name)) this.set(tool.name, tool);
  }

  override get(name: string): AnyTool | undefined {
    const known = super.get(name);
    if (known !== undefined) return known;
    this.addExtraTools();
    return super.get(name);
  }

  /**
   * The tools block of the next request: every tool but the deferred ones ToolSearch has not loaded (at
   * `moment`) by the end of `entries`. Tools from `extraTools` that appeared since the last turn are added first.
   */
  requestDefinitions(entries: readonly TimelineEntry[], moment: DeferredToolLoading | undefined): ToolDefinition[] {
    this.addExtraTools();
    const tools = [...this.values()];
    if (!tools.some((tool) => tool.deferLoading === true)) return toolDefinitions(tools);
    return toolDefinitions(requestTools(tools, loadedToolNames(entries, moment)));
  }

  /** Definitions of the deferred tools ToolSearch found since the latest compaction (see loop/tools/tool-arrivals.ts). */
  lateDefinitions(entries: readonly TimelineEntry[]): ToolDefinition[] {
    const found = foundSinceBoundary(entries);
    if (found.size === 0) return [];
    return toolDefinitions([...this.values()].filter((tool) => tool.deferLoading === true && found.has(tool.name)));
  }
}
