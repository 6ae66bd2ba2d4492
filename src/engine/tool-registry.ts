/**
 * The session's tools by name. Tools that arrive during the session (`QueryEngineOptions.extraTools`: an MCP
 * server that connected late, or came back after failing) are added at each turn start, and also when the loop
 * looks up a name it does not know yet, so a tool ToolSearch just found on such a server runs in the same turn.
 * Names are only ever added, never replaced or removed (docs/MCP.md).
 */
import type { AnyTool } from "../tools/types.js";

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
}
