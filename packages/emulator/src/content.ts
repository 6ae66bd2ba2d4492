/**
 * API content blocks, exactly as the Anthropic Messages API spells them on the wire: the emulator's own
 * vocabulary (the package imports nothing of the client's src/).
 */

/** `cache_control` marker; `ttl` defaults to "5m" on the server when absent. */
export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface TextBlock {
  type: "text";
  text: string;
  /** Where the text came from (SDK `TextCitation`); the emulator writes web search result locations. */
  citations?: object[] | null;
  cache_control?: CacheControl;
}

export type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export interface Base64ImageSource {
  type: "base64";
  media_type: ImageMediaType;
  data: string;
}

export interface UrlSource {
  type: "url";
  url: string;
}

export interface ImageBlock {
  type: "image";
  source: Base64ImageSource | UrlSource;
  cache_control?: CacheControl;
}

export interface Base64PdfSource {
  type: "base64";
  media_type: "application/pdf";
  data: string;
}

export interface PlainTextSource {
  type: "text";
  media_type: "text/plain";
  data: string;
}

export interface DocumentBlock {
  type: "document";
  source: Base64PdfSource | PlainTextSource | UrlSource;
  title?: string;
  cache_control?: CacheControl;
}

export interface ThinkingBlock {
  type: "thinking";
  thinking: string;
  signature: string;
}

export interface RedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

export interface ToolUseBlock {
  type: "tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

/** What a tool_result may contain besides a plain string. */
export type ToolResultContentBlock = TextBlock | ImageBlock | DocumentBlock;

export interface ToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content?: string | ToolResultContentBlock[];
  is_error?: boolean;
  cache_control?: CacheControl;
  /** Cache-editing extension: names this result so a later `cache_edits` delete can drop it server-side. */
  cache_reference?: string;
}

/** One cache edit: drop a referenced tool_result from the server-side cached prefix. */
export interface CacheEditDelete {
  type: "delete";
  cache_reference: string;
}

/** Cache-editing extension block, placed in a user message and pinned to its message index. */
export interface CacheEditsBlock {
  type: "cache_edits";
  edits: CacheEditDelete[];
}

/**
 * Server-side compaction's summary (beta compact-2026-01-12, SDK `BetaCompactionBlock`): the server put it first in
 * a response when the request was over the compact edit's trigger. Stored verbatim and sent back byte-identically;
 * the server ignores everything before it (docs/API-SURFACE.md, "Server-side compaction").
 */
export interface CompactionBlock {
  type: "compaction";
  content: string | null;
  encrypted_content: string | null;
}

/** A call of a server-run tool (SDK `ServerToolUseBlock`); the emulator runs `web_search` only. */
export interface ServerToolUseBlock {
  type: "server_tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

/** One search hit (SDK `WebSearchResultBlock`). */
export interface WebSearchResult {
  type: "web_search_result";
  url: string;
  title: string;
  encrypted_content: string;
  page_age?: string | null;
}

/** A server web search's answer (SDK `WebSearchToolResultBlock`): hits, or an error object. */
export interface WebSearchToolResultBlock {
  type: "web_search_tool_result";
  tool_use_id: string;
  content: WebSearchResult[] | { type: "web_search_tool_result_error"; error_code: string };
  cache_control?: CacheControl;
}

/** Blocks an assistant response can contain. */
export type AssistantContentBlock =
  | TextBlock
  | ThinkingBlock
  | RedactedThinkingBlock
  | ToolUseBlock
  | CompactionBlock
  | ServerToolUseBlock
  | WebSearchToolResultBlock;

/** Blocks a user message can contain. */
export type UserContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolResultBlock | CacheEditsBlock;

/** Any block that may appear in a request's `messages[].content`. */
export type ContentBlock = AssistantContentBlock | UserContentBlock;

/** Every `stop_reason` the API documents. */
export const STOP_REASONS = [
  "end_turn",
  "max_tokens",
  "stop_sequence",
  "tool_use",
  "pause_turn",
  "refusal",
  "model_context_window_exceeded",
  "compaction",
] as const;

export type StopReason = (typeof STOP_REASONS)[number];

export interface CacheCreationUsage {
  ephemeral_5m_input_tokens: number;
  ephemeral_1h_input_tokens: number;
}

/** Token usage as the API reports it; `input_tokens` is the uncached tail only. */
export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation?: CacheCreationUsage | null;
  /**
   * Server-side compaction's passes, each billed (SDK `BetaIterationsUsage`): the compaction pass read the whole
   * request and wrote the summary; the top-level fields are the message pass only. Absent when nothing compacted.
   */
  iterations?: UsageIteration[] | null;
}

/** One billed pass of a response (SDK `BetaCompactionIterationUsage` / `BetaMessageIterationUsage`). */
export interface UsageIteration {
  type: "compaction" | "message";
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

/** A wire message: what `messages[]` in a request holds. */
export interface ApiMessage {
  role: "user" | "assistant";
  content: string | ContentBlock[];
}

/** Text of a content value (string or blocks), text blocks joined by newlines. */
export function contentText(content: string | readonly ContentBlock[]): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const block of content) if (block.type === "text") parts.push(block.text);
  return parts.join("\n");
}

/** Exhaustiveness check for discriminated-union switches. */
export function checkNever(value: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(value)}`);
}
