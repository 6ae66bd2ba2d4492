/**
 * Rebuild blocks in one fixed key order with only the fields the API accepts. Entries may come from
 * JSONL written by other clients (extra fields such as `citations: null`, any key order); rebuilding makes
 * the serialized bytes depend only on the values, so a resumed session produces the same request bytes.
 * Stored `cache_control`, `cache_reference` and `cache_edits` are dropped: breakpoint placement owns them.
 */
import type {
  ContentBlock,
  DocumentBlock,
  ImageBlock,
  TextBlock,
  TextCitation,
  ToolResultBlock,
  ToolResultContentBlock,
  WebSearchResultLocation,
} from "../../messages/index.js";
import { checkNever, webSearchResultBlock } from "../../messages/index.js";
import { isBlank } from "./working-message.js";

function canonicalText(block: TextBlock): TextBlock {
  const copy: TextBlock = { type: "text", text: block.text };
  // Web search citations go back as the server sent them (docs/API-SURFACE.md, "Server tools"); `null`, an empty
  // list and kinds threadline never receives are dropped, so another client's `citations: null` changes no byte.
  const citations = (block.citations ?? []).flatMap(canonicalCitation);
  if (citations.length > 0) copy.citations = citations;
  return copy;
}

function canonicalCitation(citation: TextCitation): WebSearchResultLocation[] {
  if (citation.type !== "web_search_result_location") return [];
  const location = citation as WebSearchResultLocation;
  return [
    {
      type: "web_search_result_location",
      url: location.url,
      title: location.title,
      cited_text: location.cited_text,
      encrypted_index: location.encrypted_index,
    },
  ];
}

function canonicalImage(block: ImageBlock): ImageBlock {
  const source = block.source;
  if (source.type === "url") return { type: "image", source: { type: "url", url: source.url } };
  return { type: "image", source: { type: "base64", media_type: source.media_type, data: source.data } };
}

function canonicalDocument(block: DocumentBlock): DocumentBlock {
  const source = block.source;
  const copy: DocumentBlock = {
    type: "document",
    source:
      source.type === "url"
        ? { type: "url", url: source.url }
        : ({ type: source.type, media_type: source.media_type, data: source.data } as DocumentBlock["source"]),
  };
  if (block.title !== undefined) copy.title = block.title;
  return copy;
}

/** A tool_result's inner block, or undefined for blank text (the API rejects it). */
function canonicalInner(block: ToolResultContentBlock): ToolResultContentBlock | undefined {
  switch (block.type) {
    case "text":
      return isBlank(block.text) ? undefined : canonicalText(block);
    case "image":
      return canonicalImage(block);
    case "document":
      return canonicalDocument(block);
    default:
      return checkNever(block);
  }
}

function canonicalToolResult(block: ToolResultBlock): ToolResultBlock {
  const copy: ToolResultBlock = { type: "tool_result", tool_use_id: block.tool_use_id };
  if (typeof block.content === "string") copy.content = block.content;
  else if (Array.isArray(block.content)) {
    const inner: ToolResultContentBlock[] = [];
    for (const part of block.content) {
      const kept = canonicalInner(part);
      if (kept) inner.push(kept);
    }
    copy.content = inner;
  }
  if (block.is_error === true) copy.is_error = true;
  return copy;
}

/** The block rebuilt in canonical key order, or undefined when it must not be sent as stored. */
export function canonicalBlock(block: ContentBlock): ContentBlock | undefined {
  switch (block.type) {
    case "text":
      return canonicalText(block);
    case "image":
      return canonicalImage(block);
    case "document":
      return canonicalDocument(block);
    case "thinking":
      return { type: "thinking", thinking: block.thinking, signature: block.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: block.data };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: block.name, input: block.input };
    case "tool_result":
      return canonicalToolResult(block);
    case "cache_edits":
      return undefined;
    case "server_tool_use":
      return { type: "server_tool_use", id: block.id, name: block.name, input: block.input };
    case "web_search_tool_result":
      return webSearchResultBlock(block);
    case "compaction":
      // Sent back byte-identically, in the SDK's key order (docs/API-SURFACE.md).
      return { type: "compaction", content: block.content, encrypted_content: block.encrypted_content };
    default:
      return checkNever(block);
  }
}

/** A tool_result with new content, rebuilt in canonical key order (any cache_reference is kept last). */
export function toolResultWithContent(
  block: ToolResultBlock,
  content: string | ToolResultContentBlock[] | undefined,
): ToolResultBlock {
  const copy: ToolResultBlock = { type: "tool_result", tool_use_id: block.tool_use_id };
  if (content !== undefined) copy.content = content;
  if (block.is_error === true) copy.is_error = true;
  if (block.cache_reference !== undefined) copy.cache_reference = block.cache_reference;
  return copy;
}
