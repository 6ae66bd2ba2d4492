/**
 * Tools as the API receives them: JSON Schema generated from each tool's zod schema, sorted by name so the
 * tools block (the very start of the cached prefix) never depends on registration order.
 */
import * as z from "zod";
import type { ToolDefinition } from "./types.js";

/**
 * What a definition is made from: a tool's name, description and zod input schema. Every `Tool` of `tools/`
 * is one; the type lives here so request assembly (a lower floor) never imports the tools it describes.
 */
export interface ToolSchemaSource {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType;
  /**
   * The JSON Schema to send as it is, when the tool brings its own (an MCP server's `inputSchema`); the zod
   * schema then only validates. Default none: the schema is generated from `inputSchema`.
   */
  readonly inputJsonSchema?: Readonly<Record<string, unknown>>;
}

/** Code-unit order (not locale order, which depends on the machine's ICU data). */
function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Last sorted result per first definition: the inputs it was made from, and the output. */
interface SortedList {
  inputs: readonly ToolDefinition[];
  sorted: ToolDefinition[];
}

/** A plain WeakMap, not `memoizeByObject`: a different list that starts with the same definition replaces it. */
const sortedLists = new WeakMap<ToolDefinition, SortedList>();

/**
 * `definitions` rebuilt in fixed key order (no cache_control), stably sorted by name. Lists of the same
 * definition objects give the same output list (do not mutate it), so a session's tools are serialized and
 * fingerprinted once, not every turn.
 */
export function sortedToolDefinitions(definitions: readonly ToolDefinition[]): ToolDefinition[] {
  const first = definitions[0];
  if (first === undefined) return [];
  const known = sortedLists.get(first);
  if (
    known !== undefined &&
    known.inputs.length === definitions.length &&
    known.inputs.every((definition, index) => definition === definitions[index])
  )
    return known.sorted;
  const sorted = definitions
    .map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.input_schema }))
    .sort((left, right) => compareNames(left.name, right.name));
  sortedLists.set(first, { inputs: definitions.slice(), sorted });
  return sorted;
}

/**
 * Each tool's definition, by tool object, with the schema it was made from. Not a `DerivedCache`: it is made
 * again when any of three fields changes, one of them an object (the schema), which a string key cannot hold.
 */
const definitionsByTool = new WeakMap<ToolSchemaSource, { inputSchema: unknown; definition: ToolDefinition }>();

/**
 * API tool definitions for `tools`: zod → JSON Schema (without `$schema`), stably sorted by name. A tool's
 * definition is made again only when its name, description or schema object changed (a tool may update its
 * description mid-session; that must reach the request, and break detection must see it).
 */
export function toolDefinitions(tools: readonly ToolSchemaSource[]): ToolDefinition[] {
  const definitions = tools.map((tool): ToolDefinition => {
    const known = definitionsByTool.get(tool);
    if (
      known !== undefined &&
      known.inputSchema === (tool.inputJsonSchema ?? tool.inputSchema) &&
      known.definition.name === tool.name &&
      known.definition.description === tool.description
    )
      return known.definition;
    const definition = toolDefinition(tool);
    definitionsByTool.set(tool, { inputSchema: tool.inputJsonSchema ?? tool.inputSchema, definition });
    return definition;
  });
  return sortedToolDefinitions(definitions);
}

/**
 * The API definition of one tool: its own JSON Schema when it brings one (passed through untouched), else the
 * schema generated from zod without the `$schema` key.
 */
export function toolDefinition(tool: ToolSchemaSource): ToolDefinition {
  if (tool.inputJsonSchema !== undefined)
    return { name: tool.name, description: tool.description, input_schema: { ...tool.inputJsonSchema } };
  const { $schema: _ignored, ...inputSchema } = z.toJSONSchema(tool.inputSchema) as Record<string, unknown>;
  return { name: tool.name, description: tool.description, input_schema: inputSchema };
}
