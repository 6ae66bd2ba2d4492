/**
 * Tools as the API receives them: JSON Schema generated from each tool's zod schema, sorted by name so the
 * tools block (the very start of the cached prefix) never depends on registration order.
 */
import { z } from "zod";
import type { AnyTool } from "../tools/types.js";
import type { ToolDefinition } from "./types.js";

/** Code-unit order (not locale order, which depends on the machine's ICU data). */
export function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** `definitions` rebuilt in fixed key order (no cache_control), stably sorted by name. */
export function sortedToolDefinitions(definitions: readonly ToolDefinition[]): ToolDefinition[] {
  return definitions
    .map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema }))
    .sort((left, right) => compareNames(left.name, right.name));
}

/** API tool definitions for `tools`: zod → JSON Schema (without `$schema`), stably sorted by name. */
export function toolDefinitions(tools: readonly AnyTool[]): ToolDefinition[] {
  const definitions = tools.map((tool): ToolDefinition => {
    const { $schema: _ignored, ...schema } = z.toJSONSchema(tool.inputSchema) as Record<string, unknown>;
    return { name: tool.name, description: tool.description, input_schema: schema };
  });
  return sortedToolDefinitions(definitions);
}
