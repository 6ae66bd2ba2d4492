/**
 * The wire request shape threadline sends (a subset of the Messages API body it uses),
 * and the inputs request assembly is a pure function of.
 */

import type { ApiMessage, CacheControl, CacheEditsBlock, EffortLevel } from "../messages/index.js";
import type { CompactEdit } from "./server-compaction.js";

/** One segment of the system prompt. */
export interface SystemBlock {
  type: "text";
  text: string;
  cache_control?: CacheControl;
}

/** A tool as the API receives it (`input_schema` is JSON Schema generated from the tool's zod schema). */
export interface ToolDefinition {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
  cache_control?: CacheControl;
}

/**
 * The server's web search (SDK `WebSearchTool20250305`): declared in `tools`, run by the server, answered with
 * `server_tool_use` / `web_search_tool_result` blocks (docs/API-SURFACE.md, "Server tools"). Only sent to a server
 * whose capabilities declare web search.
 */
export interface WebSearchToolDefinition {
  type: "web_search_20250305";
  name: "web_search";
  max_uses?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
  cache_control?: CacheControl;
}

/** Tools the server runs itself. */
export type ServerToolDefinition = WebSearchToolDefinition;

/** Any entry of a request's `tools`. */
export type RequestTool = ToolDefinition | ServerToolDefinition;

export type ToolChoice =
  | { type: "auto"; disable_parallel_tool_use?: boolean }
  | { type: "any"; disable_parallel_tool_use?: boolean }
  | { type: "none" }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean };

/** What the server does with a thinking block whose prefix changed (SDK `BetaThinkingBlockBinding`). */
export interface ThinkingBlockBinding {
  prefix_mismatch_behavior: "error" | "drop_block";
}

export type ThinkingConfig =
  | { type: "enabled"; budget_tokens: number; block_binding?: ThinkingBlockBinding }
  | { type: "disabled" }
  | { type: "adaptive"; block_binding?: ThinkingBlockBinding };

export interface ClearToolUsesEdit {
  type: "clear_tool_uses_20250919";
  trigger?: { type: "input_tokens" | "tool_uses"; value: number };
  keep?: { type: "tool_uses"; value: number };
  clear_at_least?: { type: "input_tokens"; value: number };
  exclude_tools?: string[];
  clear_tool_inputs?: boolean | string[];
}

export interface ClearThinkingEdit {
  type: "clear_thinking_20251015";
  keep?: { type: "thinking_turns"; value: number } | "all";
}

export type ContextManagementEdit = ClearThinkingEdit | ClearToolUsesEdit | CompactEdit;

/** A `json_schema` output format (the pinned SDK's `JSONOutputFormat`). */
export interface JsonOutputFormat {
  type: "json_schema";
  schema: Record<string, unknown>;
}

/** The JSON body of `POST /v1/messages` as threadline builds it. Key order here is the serialization order. */
export interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: SystemBlock[];
  /** The conversation, with tool changes between its messages where the server declares them (tool-changes.ts). */
  messages: WireMessage[];
  tools?: RequestTool[];
  tool_choice?: ToolChoice;
  thinking?: ThinkingConfig;
  /**
   * The SDK's `OutputConfig`: effort, only for a model whose server declares that level (docs/TOOLS.md, "Agent
   * effort"); structured outputs, the answer JSON matching `format.schema` (docs/TOOLS.md, "Workflow").
   */
  output_config?: { effort?: EffortLevel; format?: JsonOutputFormat };
  metadata?: { user_id?: string };
  context_management?: { edits: ContextManagementEdit[] };
  /** Cache diagnostics: the previous response's id (`null` on the first turn), only where the server declares it. */
  diagnostics?: { previous_message_id: string | null };
  temperature?: number;
  stream?: boolean;
}

/** What assembly returns: the body, the beta headers to send, and the exact serialized bytes. */
export interface AssembledRequest {
  body: MessagesRequest;
  /** Sorted, de-duplicated `anthropic-beta` values (latched ones included). */
  betas: string[];
  /** `JSON.stringify(body)`: the bytes the cache key is computed over. */
  json: string;
}

/** A cache_edits block pinned to the request message index it was first placed at. */
export interface CacheEditPin {
  messageIndex: number;
  block: CacheEditsBlock;
}

/** A `role: "system"` message offering tools (SDK `BetaSystemMessageParam` with `tool_addition` blocks; made by tool-changes.ts). */
export interface ToolChangeMessage {
  role: "system";
  content: Array<{ type: "tool_addition"; tool: { type: "tool_definition"; definition: ToolDefinition } }>;
}

/** A message as sent: the conversation's own, or a tool change between them. */
export type WireMessage = ApiMessage | ToolChangeMessage;
