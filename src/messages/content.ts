/**
 * API content blocks, exactly as the Anthropic Messages API spells them on the wire.
 * The timeline stores these blocks verbatim so request assembly never has to translate.
 */

/** `cache_control` marker; `ttl` defaults to "5m" on the server when absent. */
export interface CacheControl {
  type: "ephemeral";
  ttl?: "5m" | "1h";
}

export interface TextBlock {
  type: "text";
  text: string;
  /**
   * Where the text came from, as the server cited it (web search answers cite `web_search_result_location`s;
   * SDK `TextCitation`). Kept verbatim and sent back as received; threadline never writes one.
   */
  citations?: TextCitation[] | null;
  cache_control?: CacheControl;
}

/** A citation of a web search result (SDK `CitationsWebSearchResultLocation`); other kinds are kept as received. */
export interface WebSearchResultLocation {
  type: "web_search_result_location";
  url: string;
  title: string | null;
  cited_text: string;
  encrypted_index: string;
}

/** A citation on a text block: web search locations typed, the API's other kinds carried opaquely. */
export type TextCitation = WebSearchResultLocation | { type: string; [field: string]: unknown };

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

/**
 * A call of a tool the server runs itself (SDK `ServerToolUseBlock`); threadline declares only `web_search`
 * (docs/API-SURFACE.md, "Server tools"). Its result follows in the same assistant message.
 */
export interface ServerToolUseBlock {
  type: "server_tool_use";
  id: string;
  name: string;
  input: unknown;
  cache_control?: CacheControl;
}

/** One result of a server web search (SDK `WebSearchResultBlock`): `encrypted_content` must go back verbatim. */
export interface WebSearchResult {
  type: "web_search_result";
  url: string;
  title: string;
  encrypted_content: string;
  page_age?: string | null;
}

/** Why a server web search found nothing (SDK `WebSearchToolResultErrorCode`). */
export interface WebSearchToolResultError {
  type: "web_search_tool_result_error";
  error_code: string;
}

/** The server's answer to a `web_search` call (SDK `WebSearchToolResultBlock`), in the assistant message. */
export interface WebSearchToolResultBlock {
  type: "web_search_tool_result";
  tool_use_id: string;
  content: WebSearchResult[] | WebSearchToolResultError;
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
  /** Server tool calls the response made, each billed on its own (SDK `ServerToolUsage`). */
  server_tool_use?: ServerToolUsage | null;
}

/** Server tool calls in one response (SDK `ServerToolUsage`; `web_fetch_requests` is not used by threadline). */
export interface ServerToolUsage {
  web_search_requests: number;
  web_fetch_requests?: number;
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

/**
 * A web search result block in the SDK's key order, unknown fields (`caller`) left out: what the stream reducer
 * keeps and what request assembly sends back (`encrypted_content` untouched: the API checks it).
 */
export function webSearchResultBlock(start: {
  tool_use_id: string;
  content:
    | { type: "web_search_tool_result_error"; error_code: string }
    | Array<{ url: string; title: string; encrypted_content: string; page_age?: string | null | undefined }>;
}): WebSearchToolResultBlock {
  const content = start.content;
  return {
    type: "web_search_tool_result",
    tool_use_id: start.tool_use_id,
    content: Array.isArray(content)
      ? content.map((result) => ({
          type: "web_search_result" as const,
          url: result.url,
          title: result.title,
          encrypted_content: result.encrypted_content,
          ...(result.page_age !== undefined ? { page_age: result.page_age } : {}),
        }))
      : { type: "web_search_tool_result_error", error_code: content.error_code },
  };
}
