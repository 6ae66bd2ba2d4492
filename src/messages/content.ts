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

/** Blocks an assistant response can contain. */
export type AssistantContentBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | CompactionBlock;

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
