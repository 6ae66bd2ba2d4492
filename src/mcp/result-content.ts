/**
 * An MCP `tools/call` result as a tool result: text, image, audio, embedded resource and resource_link content
 * mapped to the API's blocks; `isError` to `is_error`; output over the cap written to a file the model can
 * Read, with a placeholder saying where (Claude Code caps MCP output at 25,000 tokens, `MAX_MCP_OUTPUT_TOKENS`;
 * docs/MCP.md).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  charsForTokens,
  estimateTextTokens,
  type ImageMediaType,
  MEDIA_BLOCK_TOKENS,
  type ToolResultContentBlock,
} from "../messages/index.js";
import type { ToolOutput } from "../tools/index.js";

/** Tokens of MCP output kept inline; more is spilled to a file. Claude Code's default. */
export const DEFAULT_MCP_OUTPUT_TOKENS = 25_000;

/** Environment variable that overrides `DEFAULT_MCP_OUTPUT_TOKENS` (Claude Code's name for it). */
export const MCP_OUTPUT_TOKENS_ENV = "MAX_MCP_OUTPUT_TOKENS";

/** Tokens an image counts for against the cap: the pipeline's estimate for media (messages/tokens.ts). */
const IMAGE_TOKENS = MEDIA_BLOCK_TOKENS;

/** Characters of a spilled result shown inline before the placeholder, so the model sees how it starts. */
export const DEFAULT_SPILL_PREVIEW_CHARS = 2_000;

const IMAGE_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

/** What `tools/call` answers (its content typed loosely: servers send what they send). */
export interface McpCallResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: boolean | undefined;
}

export interface ResultLimits {
  /** Tokens kept inline; default `DEFAULT_MCP_OUTPUT_TOKENS`. */
  maxTokens: number;
  /** Where a result over the cap is written; without it the result is cut instead. */
  spillDirectory?: string;
  /** The file's name (unique per call: the tool_use id). */
  spillName: string;
  /** Applied to text before it is written to disk (secrets must not reach the file either). */
  redact: (text: string) => string;
}

function field(value: unknown, name: string): unknown {
  return typeof value === "object" && value !== null ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown, name: string): string | undefined {
  const found = field(value, name);
  return typeof found === "string" ? found : undefined;
}

/** One MCP content item as API blocks (text for anything the API has no block for). */
function mapItem(item: unknown): ToolResultContentBlock {
  const type = text(item, "type");
  switch (type) {
    case "text":
      return { type: "text", text: text(item, "text") ?? "" };
    case "image": {
      const mimeType = text(item, "mimeType") ?? "";
      const data = text(item, "data") ?? "";
      if (IMAGE_TYPES.has(mimeType) && data !== "")
        return { type: "image", source: { type: "base64", media_type: mimeType as ImageMediaType, data } };
      return { type: "text", text: `[image of type ${mimeType || "unknown"} that the model cannot read]` };
    }
    case "audio":
      return { type: "text", text: `[audio (${text(item, "mimeType") ?? "unknown type"}) not shown]` };
    case "resource": {
      const resource = field(item, "resource");
      const uri = text(resource, "uri") ?? "";
      const body = text(resource, "text");
      if (body !== undefined) return { type: "text", text: `Resource ${uri}:\n${body}` };
      const mimeType = text(resource, "mimeType") ?? "";
      const blob = text(resource, "blob");
      if (blob !== undefined && IMAGE_TYPES.has(mimeType))
        return { type: "image", source: { type: "base64", media_type: mimeType as ImageMediaType, data: blob } };
      return { type: "text", text: `[binary resource ${uri} (${mimeType || "unknown type"}) not shown]` };
    }
    case "resource_link": {
      const uri = text(item, "uri") ?? "";
      const name = text(item, "name") ?? uri;
      const description = text(item, "description");
      const mimeType = text(item, "mimeType");
      return {
        type: "text",
        text: `Resource link: ${name} <${uri}>${mimeType ? ` (${mimeType})` : ""}${description ? ` — ${description}` : ""}`,
      };
    }
    default:
      return { type: "text", text: JSON.stringify(item) ?? "" };
  }
}

function blockTokens(block: ToolResultContentBlock): number {
  return block.type === "text" ? estimateTextTokens(block.text) : IMAGE_TOKENS;
}

/** The result's blocks; `structuredContent` as JSON text when the server sent no content. */
export function mapContent(result: McpCallResult): ToolResultContentBlock[] {
  const items = Array.isArray(result.content) ? result.content : [];
  const blocks = items.map(mapItem).filter((block) => block.type !== "text" || block.text !== "");
  if (blocks.length === 0 && result.structuredContent !== undefined)
    blocks.push({ type: "text", text: JSON.stringify(result.structuredContent) });
  return blocks;
}

/**
 * The tool output for `result`: text-only results as one string, others as blocks; over `limits.maxTokens` the
 * whole text goes to a file (images are kept inline only when under the cap) and the model gets the first
 * `DEFAULT_SPILL_PREVIEW_CHARS` characters and where the rest is.
 */
export function mapCallResult(result: McpCallResult, limits: ResultLimits): ToolOutput {
  const blocks = mapContent(result);
  const isError = result.isError === true;
  const tokens = blocks.reduce((sum, block) => sum + blockTokens(block), 0);
  const onlyText = blocks.every((block) => block.type === "text");
  const joined = blocks.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n");
  if (tokens <= limits.maxTokens) {
    if (blocks.length === 0) return { content: isError ? "" : "(no output)", ...(isError ? { isError } : {}) };
    return { content: onlyText || isError ? joined : blocks, ...(isError ? { isError } : {}) };
  }
  const headline = `Output too large (~${tokens.toLocaleString("en-US")} tokens, over the ${limits.maxTokens.toLocaleString("en-US")}-token limit for MCP output).`;
  if (limits.spillDirectory === undefined) {
    const kept = joined.slice(0, charsForTokens(limits.maxTokens));
    return { content: `${kept}\n\n[${headline} Cut to the limit.]`, ...(isError ? { isError } : {}) };
  }
  mkdirSync(limits.spillDirectory, { recursive: true });
  const path = join(limits.spillDirectory, `${limits.spillName}.txt`);
  writeFileSync(path, limits.redact(joined));
  const preview = joined.slice(0, DEFAULT_SPILL_PREVIEW_CHARS);
  return {
    content: `${preview}\n\n[${headline} The full output was saved to ${path}; read it with the Read tool (offset and limit) or search it with Grep.]`,
    ...(isError ? { isError } : {}),
  };
}
