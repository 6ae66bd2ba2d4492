/** The set of tools offered to the model, by name. */
import { z } from "zod";
import type { ToolDefinition } from "../request/types.js";
import type { AnyTool } from "./types.js";

/** The API's rule for tool names. */
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,128}$/;

export class ToolRegistry {
  readonly #tools = new Map<string, AnyTool>();

  /** Throws on an invalid or duplicate name: both would make the API reject every request. */
  constructor(tools: readonly AnyTool[]) {
    for (const tool of tools) {
      if (!TOOL_NAME.test(tool.name)) throw new Error(`Invalid tool name ${JSON.stringify(tool.name)}`);
      if (this.#tools.has(tool.name)) throw new Error(`Duplicate tool name ${JSON.stringify(tool.name)}`);
      this.#tools.set(tool.name, tool);
    }
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** Tools in registration order (the order sent to the API, which the prompt cache depends on). */
  list(): AnyTool[] {
    return [...this.#tools.values()];
  }
}

/** The API definition of a tool: its JSON Schema, generated from the zod schema without the `$schema` key. */
export function toolDefinition(tool: AnyTool): ToolDefinition {
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, input_schema: inputSchema };
}
