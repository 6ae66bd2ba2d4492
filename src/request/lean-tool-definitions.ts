/**
 * Lean tool definitions for a window the tools block would crowd out (docs/CONTEXT-BUDGET.md "The fixed
 * prefix"). Every name, type, enum, default and required field stays as it is — so the model's calls, the
 * transcripts, permission rules and hooks written for the full definitions apply unchanged — but each tool's
 * description is cut to its first sentence and the JSON Schema `description` keywords are left out. The full
 * block of the built-in tools is ~11,000 characters; lean, ~3,700. On a server that counts ~4× the estimate
 * (llama-server's tokenizer, issue 38) that is ~11,100 of a 16,384 window against ~4,700.
 */
import type { ToolDefinition } from "./types.js";

/** A tool description's first sentence is cut here at most (characters): 200. */
export const LEAN_DESCRIPTION_MAX_CHARS = 200;

/** The first sentence (or line) of `description`, at most LEAN_DESCRIPTION_MAX_CHARS characters. */
export function leanDescription(description: string): string {
  const trimmed = description.trim();
  const end = /[.!?](?=\s)|\n/.exec(trimmed);
  const sentence = end === null ? trimmed : trimmed.slice(0, end.index + (end[0] === "\n" ? 0 : 1));
  return sentence.length <= LEAN_DESCRIPTION_MAX_CHARS
    ? sentence
    : `${sentence.slice(0, LEAN_DESCRIPTION_MAX_CHARS - 1).trimEnd()}…`;
}

/** Keys whose value is a map from names to schemas (a property called `description` is a name, not a keyword). */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

/** `schema` without its `description` and `examples` keywords, at every depth. */
function leanSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(leanSchema);
  if (schema === null || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "description" || key === "examples") continue;
    if (SCHEMA_MAPS.has(key) && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const map: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) map[name] = leanSchema(member);
      out[key] = map;
    } else out[key] = leanSchema(value);
  }
  return out;
}

/** Last lean list per input list: the same input gives the same objects, so the block serializes once. */
const leanLists = new WeakMap<readonly ToolDefinition[], ToolDefinition[]>();

/** `definitions` made lean (same order, same names and schemas' structure). */
export function leanToolDefinitions(definitions: readonly ToolDefinition[]): ToolDefinition[] {
  const known = leanLists.get(definitions);
  if (known !== undefined) return known;
  const lean = definitions.map(
    (definition): ToolDefinition => ({
      ...definition,
      description: leanDescription(definition.description),
      input_schema: leanSchema(definition.input_schema) as ToolDefinition["input_schema"],
    }),
  );
  leanLists.set(definitions, lean);
  return lean;
}
