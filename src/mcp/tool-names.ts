/**
 * `mcp__<server>__<tool>`, Claude Code's naming, made to fit the API's tool-name rule `^[a-zA-Z0-9_-]{1,128}$`
 * and the stricter 64-character limit of some platforms: other characters become `_`, and an over-long name
 * keeps its start and ends in a short hash of the whole, so two long names never collide by being cut.
 */
import { createHash } from "node:crypto";

/** Longest tool name made (Bedrock's limit; the first-party API allows 128). */
export const DEFAULT_MCP_TOOL_NAME_CHARS = 64;

/** The prefix of every MCP tool's name. */
export const MCP_TOOL_PREFIX = "mcp__";

/** `text` with every character outside `[a-zA-Z0-9_-]` replaced by `_`. */
export function sanitizeNamePart(text: string): string {
  return text.replace(/[^a-zA-Z0-9_-]/g, "_");
}

/** The tool's name in the request. */
export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_TOOL_PREFIX}${sanitizeNamePart(server)}__${sanitizeNamePart(tool)}`;
  if (full.length <= DEFAULT_MCP_TOOL_NAME_CHARS) return full;
  const hash = createHash("sha256").update(`${server}\0${tool}`).digest("hex").slice(0, 8);
  return `${full.slice(0, DEFAULT_MCP_TOOL_NAME_CHARS - hash.length - 1)}_${hash}`;
}

/** The `mcp__<server>` prefix of a server's tools (a permission rule naming the whole server). */
export function mcpServerRuleName(server: string): string {
  return `${MCP_TOOL_PREFIX}${sanitizeNamePart(server)}`;
}
