/**
 * Per-block rules: allowed fields for each block type, which role may carry it, non-empty text,
 * media limits, tool_result content and `is_error`, and cache-editing blocks.
 */
import { checkCacheControl } from "./cache-control-rules.js";
import type { ValidationContext } from "./context.js";
import { imageDimensions } from "./image-size.js";
import {
  ASSISTANT_ONLY_BLOCKS,
  BETA_BLOCKS,
  BLOCK_KEYS,
  CACHE_EDITS_BLOCK_KEYS,
  NOT_IN_ASSISTANT,
  TOOL_CHANGE_BETA_REFERENCES,
  TOOL_CHANGE_REFERENCE_KEYS,
  TOOL_RESULT_CONTENT_KEYS,
  USER_ONLY_BLOCKS,
  unlocks,
} from "./known-fields.js";
import { checkExtraKeys, invalid, isRecord } from "./violation.js";

/** Largest base64 image payload the API accepts (5 MB). */
export const MAX_IMAGE_BASE64_BYTES = 5 * 1024 * 1024;
/** Largest PDF page count the API accepts. */
export const MAX_PDF_PAGES = 100;

const IMAGE_MEDIA_TYPES: ReadonlySet<string> = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

const TOOL_RESULT_WITH_REFERENCE: ReadonlySet<string> = new Set([...BLOCK_KEYS.tool_result!, "cache_reference"]);
const NO_TAG = "does not match any of the expected tags";

/** Checks one content block of a message; returns its `type` when it is a known, well-formed tag. */
export function checkMessageBlock(
  block: unknown,
  path: string,
  role: "user" | "assistant" | "system",
  context: ValidationContext,
): string | undefined {
  const out = context.out;
  if (!isRecord(block)) {
    out.push(invalid(path, "Input should be a valid dictionary"));
    return undefined;
  }
  const type = block.type;
  const cacheEdits = type === "cache_edits" && context.cacheEditing && role === "user";
  if (typeof type !== "string" || (!Object.hasOwn(BLOCK_KEYS, type) && !cacheEdits)) {
    out.push(invalid(`${path}.type`, `Input tag '${String(type)}' found using 'type' ${NO_TAG}`));
    return undefined;
  }
  const misplaced =
    role === "assistant" ? USER_ONLY_BLOCKS.has(type) || NOT_IN_ASSISTANT.has(type) : ASSISTANT_ONLY_BLOCKS.has(type);
  if (misplaced) {
    out.push(invalid(path, `\`${type}\` blocks are not allowed in \`${role}\` messages`));
    return type;
  }
  const betas = context.options.betas;
  if (betas !== undefined && BETA_BLOCKS.has(type) && !unlocks(betas, BETA_BLOCKS.get(type))) {
    out.push(invalid(`${path}.type`, `Input tag '${type}' found using 'type' ${NO_TAG}`));
    return undefined;
  }
  switch (type) {
    case "text":
      checkTextBlock(block, path, context);
      break;
    case "image":
      checkImageBlock(block, path, context);
      break;
    case "document":
      checkDocumentBlock(block, path, context);
      break;
    case "thinking":
      checkExtraKeys(block, BLOCK_KEYS.thinking!, path, out);
      if (typeof block.thinking !== "string") out.push(invalid(`${path}.thinking`, "Field required"));
      if (typeof block.signature !== "string" || block.signature.length === 0) {
        out.push(invalid(`${path}.signature`, "Field required: thinking blocks must carry their original signature"));
      }
      break;
    case "redacted_thinking":
      checkExtraKeys(block, BLOCK_KEYS.redacted_thinking!, path, out);
      if (typeof block.data !== "string" || block.data.length === 0)
        out.push(invalid(`${path}.data`, "Field required"));
      break;
    case "tool_use":
      checkExtraKeys(block, BLOCK_KEYS.tool_use!, path, out);
      if (typeof block.id !== "string" || block.id.length === 0) out.push(invalid(`${path}.id`, "Field required"));
      if (typeof block.name !== "string" || block.name.length === 0)
        out.push(invalid(`${path}.name`, "Field required"));
      if (!isRecord(block.input)) out.push(invalid(`${path}.input`, "Input should be a valid dictionary"));
      checkCacheControl(block, path, context);
      break;
    case "tool_result":
      checkToolResultBlock(block, path, context);
      break;
    case "cache_edits":
      checkCacheEditsBlock(block, path, context);
      break;
    case "tool_addition":
    case "tool_removal":
      checkExtraKeys(block, BLOCK_KEYS[type]!, path, out);
      checkToolChangeReference(block.tool, type, `${path}.tool`, context);
      checkCacheControl(block, path, context);
      break;
    default:
      // Server-tool, MCP, search-result and beta blocks: their fields and cache marker.
      checkExtraKeys(block, BLOCK_KEYS[type] ?? new Set(), path, out);
      checkCacheControl(block, path, context);
  }
  return type;
}

/** The `tool` of a tool change: a reference by name (or MCP server), or an inline definition under its beta. */
function checkToolChangeReference(tool: unknown, change: string, path: string, context: ValidationContext): void {
  const out = context.out;
  const keys = isRecord(tool) && typeof tool.type === "string" ? TOOL_CHANGE_REFERENCE_KEYS[tool.type] : undefined;
  if (!isRecord(tool) || keys === undefined || typeof tool.type !== "string") {
    out.push(
      invalid(`${path}.type`, `Input tag '${String(isRecord(tool) ? tool.type : tool)}' found using 'type' ${NO_TAG}`),
    );
    return;
  }
  const betas = context.options.betas;
  const unlocking = TOOL_CHANGE_BETA_REFERENCES.get(tool.type);
  // Only an addition may carry a definition; a removal names what is already there.
  if (
    (unlocking !== undefined && betas !== undefined && !unlocks(betas, unlocking)) ||
    (tool.type === "tool_definition" && change === "tool_removal")
  ) {
    out.push(invalid(`${path}.type`, `Input tag '${tool.type}' found using 'type' ${NO_TAG}`));
    return;
  }
  checkExtraKeys(tool, keys, path, out);
  if (tool.type === "tool_definition") {
    if (!isRecord(tool.definition)) out.push(invalid(`${path}.definition`, "Input should be a valid dictionary"));
    return;
  }
  if (tool.type !== "mcp_toolset_reference" && (typeof tool.name !== "string" || tool.name.length === 0))
    out.push(invalid(`${path}.name`, "Field required"));
  if (tool.type !== "tool_reference" && (typeof tool.server_name !== "string" || tool.server_name.length === 0))
    out.push(invalid(`${path}.server_name`, "Field required"));
}

function checkTextBlock(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  checkExtraKeys(block, BLOCK_KEYS.text!, path, context.out);
  const text = block.text;
  if (typeof text !== "string") {
    context.out.push(invalid(`${path}.text`, "Field required"));
    return;
  }
  if (text.length === 0) context.out.push(invalid(path, "text content blocks must be non-empty"));
  else if (text.trim().length === 0)
    context.out.push(invalid(path, "text content blocks must contain non-whitespace text"));
  checkCacheControl(block, path, context);
}

function checkImageBlock(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  checkExtraKeys(block, BLOCK_KEYS.image!, path, context.out);
  context.mediaCount++;
  checkCacheControl(block, path, context);
  const source = block.source;
  if (!isRecord(source)) {
    context.out.push(invalid(`${path}.source`, "Field required"));
    return;
  }
  if (source.type === "url") {
    if (typeof source.url !== "string") context.out.push(invalid(`${path}.source.url`, "Field required"));
    return;
  }
  if (source.type !== "base64") {
    context.out.push(invalid(`${path}.source.type`, "Input should be 'base64' or 'url'"));
    return;
  }
  const mediaType = source.media_type;
  if (typeof mediaType !== "string" || !IMAGE_MEDIA_TYPES.has(mediaType)) {
    context.out.push(
      invalid(`${path}.source.media_type`, "Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'"),
    );
    return;
  }
  const data = source.data;
  if (typeof data !== "string" || data.length === 0) {
    context.out.push(invalid(`${path}.source.data`, "Field required"));
    return;
  }
  if (data.length > MAX_IMAGE_BASE64_BYTES) {
    context.out.push(
      invalid(
        `${path}.source.base64`,
        `image exceeds 5 MB maximum: ${data.length} bytes > ${MAX_IMAGE_BASE64_BYTES} bytes`,
      ),
    );
    return;
  }
  const size = imageDimensions(data, mediaType);
  if (size) context.images.push({ path, width: size.width, height: size.height });
}

function checkDocumentBlock(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  checkExtraKeys(block, BLOCK_KEYS.document!, path, context.out);
  context.mediaCount++;
  checkCacheControl(block, path, context);
  const source = block.source;
  if (!isRecord(source)) {
    context.out.push(invalid(`${path}.source`, "Field required"));
    return;
  }
  if (source.type === "base64" && source.media_type === "application/pdf" && typeof source.data === "string") {
    const pages = countPdfPages(source.data);
    if (pages > MAX_PDF_PAGES) {
      context.out.push(invalid(`${path}.source`, `A maximum of ${MAX_PDF_PAGES} PDF pages may be provided.`));
    }
  }
}

/** Counts `/Type /Page` objects (not `/Pages`): enough for the page limit without a PDF parser. */
function countPdfPages(base64: string): number {
  const text = Buffer.from(base64, "base64").toString("latin1");
  const matches = text.match(/\/Type\s*\/Page(?![a-zA-Z])/g);
  return matches ? matches.length : 0;
}

function checkToolResultBlock(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  const out = context.out;
  checkExtraKeys(block, context.cacheEditing ? TOOL_RESULT_WITH_REFERENCE : BLOCK_KEYS.tool_result!, path, out);
  if (typeof block.tool_use_id !== "string" || block.tool_use_id.length === 0) {
    out.push(invalid(`${path}.tool_use_id`, "Field required"));
  }
  if (context.cacheEditing && block.cache_reference !== undefined) {
    if (typeof block.cache_reference !== "string" || block.cache_reference.length === 0) {
      out.push(invalid(`${path}.cache_reference`, "Input should be a non-empty string"));
    } else context.toolResultReferences.add(block.cache_reference);
  }
  checkCacheControl(block, path, context);
  const content = block.content;
  const isError = block.is_error === true;
  if (block.is_error !== undefined && typeof block.is_error !== "boolean") {
    out.push(invalid(`${path}.is_error`, "Input should be a valid boolean"));
  }
  if (content === undefined || (typeof content === "string" && content.length === 0)) {
    if (isError) out.push(invalid(path, "content cannot be empty if `is_error` is true"));
    return;
  }
  if (typeof content === "string") return;
  if (!Array.isArray(content)) {
    out.push(invalid(`${path}.content`, "Input should be a valid string or list"));
    return;
  }
  if (isError && content.length === 0) out.push(invalid(path, "content cannot be empty if `is_error` is true"));
  for (let index = 0; index < content.length; index++) {
    const inner: unknown = content[index];
    const innerPath = `${path}.content.${index}`;
    if (!isRecord(inner)) {
      out.push(invalid(innerPath, "Input should be a valid dictionary"));
      continue;
    }
    if (isError && inner.type !== "text") {
      out.push(invalid(innerPath, "`is_error` tool results may only contain text content"));
      continue;
    }
    if (inner.type === "text") checkTextBlock(inner, innerPath, context);
    else if (inner.type === "image") checkImageBlock(inner, innerPath, context);
    else if (inner.type === "document") checkDocumentBlock(inner, innerPath, context);
    else if (typeof inner.type === "string" && Object.hasOwn(TOOL_RESULT_CONTENT_KEYS, inner.type)) {
      checkExtraKeys(inner, TOOL_RESULT_CONTENT_KEYS[inner.type] ?? new Set(), innerPath, out);
      checkCacheControl(inner, innerPath, context);
    } else {
      out.push(
        invalid(
          `${innerPath}.type`,
          `Input tag '${String(inner.type)}' found using 'type' does not match any of the expected tags`,
        ),
      );
    }
  }
}

function checkCacheEditsBlock(block: Record<string, unknown>, path: string, context: ValidationContext): void {
  checkExtraKeys(block, CACHE_EDITS_BLOCK_KEYS, path, context.out);
  const edits = block.edits;
  if (!Array.isArray(edits) || edits.length === 0) {
    context.out.push(invalid(`${path}.edits`, "Input should be a non-empty list"));
    return;
  }
  for (let index = 0; index < edits.length; index++) {
    const edit: unknown = edits[index];
    const editPath = `${path}.edits.${index}`;
    if (!isRecord(edit) || edit.type !== "delete" || typeof edit.cache_reference !== "string") {
      context.out.push(invalid(editPath, "Input should be {type: 'delete', cache_reference: string}"));
      continue;
    }
    context.cacheEditDeletes.push({ path: editPath, reference: edit.cache_reference });
  }
}
