/**
 * Every request field the emulator accepts, listed once. The lists follow the pinned `@anthropic-ai/sdk`'s
 * request types (`MessageCreateParams`, `MessageCountTokensParams`, `Tool` and the server tools, every
 * `ContentBlockParam`, and the beta params); test/emulator/sdk-drift.test.ts walks the SDK's .d.ts with the
 * TypeScript compiler and fails when the SDK knows a field that is missing here.
 */

const set = (...keys: string[]): ReadonlySet<string> => new Set(keys);

/** Top-level fields of `POST /v1/messages` that need no beta. */
export const MESSAGES_FIELDS: ReadonlySet<string> = set(
  "model",
  "max_tokens",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "metadata",
  "temperature",
  "top_p",
  "top_k",
  "stop_sequences",
  "stream",
  "service_tier",
  "container",
  "cache_control",
  "diagnostics",
  "inference_geo",
  "output_config",
  "speed",
  "user_profile_id",
  "workspace_id",
);

/**
 * Top-level fields only the beta params define, with the beta that unlocks each (`undefined`: any beta).
 * Without a matching `anthropic-beta` they are extra inputs, as on the API.
 */
export const BETA_FIELDS: ReadonlyMap<string, string | undefined> = new Map<string, string | undefined>([
  ["context_management", "context-management-2025-06-27"],
  ["mcp_servers", undefined],
  ["compaction", undefined],
  ["output_format", undefined],
  ["thread", undefined],
  ["billing_policy", undefined],
  ["fallback_credit_token", undefined],
  ["fallbacks", undefined],
  // The SDK's own `betas` parameter becomes the header; a body that still has it was built by hand.
  ["betas", undefined],
]);

/** Top-level fields of `POST /v1/messages/count_tokens` that need no beta. */
export const COUNT_TOKENS_FIELDS: ReadonlySet<string> = set(
  "model",
  "messages",
  "system",
  "tools",
  "tool_choice",
  "thinking",
  "cache_control",
  "output_config",
  "speed",
  "user_profile_id",
  "workspace_id",
);

/** Fields of a custom tool (`type` absent or "custom"). */
export const CUSTOM_TOOL_KEYS: ReadonlySet<string> = set(
  "type",
  "name",
  "description",
  "input_schema",
  "cache_control",
  "allowed_callers",
  "defer_loading",
  "eager_input_streaming",
  "input_examples",
  "strict",
);

/** Fields any server tool (bash, text editor, web search/fetch, code execution, toolsets...) may carry. */
export const SERVER_TOOL_KEYS: ReadonlySet<string> = set(
  "type",
  "name",
  "cache_control",
  "allowed_callers",
  "defer_loading",
  "input_examples",
  "strict",
  "configs",
  "default_config",
  "mcp_server_name",
  "tools",
  "max_characters",
  "allowed_domains",
  "blocked_domains",
  "max_uses",
  "user_location",
  "citations",
  "max_content_tokens",
  "url_sources",
  "use_cache",
  "response_inclusion",
  "display_height_px",
  "display_width_px",
  "display_number",
  "enable_zoom",
  "caching",
  "max_tokens",
  "model",
);

/** Fields of each content block type a request may carry. */
export const BLOCK_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  text: set("type", "text", "cache_control", "citations"),
  image: set("type", "source", "cache_control", "transformations"),
  document: set("type", "source", "title", "context", "citations", "cache_control"),
  search_result: set("type", "source", "title", "content", "citations", "cache_control"),
  thinking: set("type", "thinking", "signature"),
  redacted_thinking: set("type", "data"),
  tool_use: set("type", "id", "name", "input", "cache_control", "caller", "toolset_name"),
  tool_result: set("type", "tool_use_id", "content", "is_error", "cache_control", "toolset_name"),
  server_tool_use: set("type", "id", "name", "input", "cache_control", "caller"),
  web_search_tool_result: set("type", "tool_use_id", "content", "cache_control", "caller"),
  web_fetch_tool_result: set("type", "tool_use_id", "content", "cache_control", "caller"),
  advisor_tool_result: set("type", "tool_use_id", "content", "cache_control"),
  code_execution_tool_result: set("type", "tool_use_id", "content", "cache_control"),
  bash_code_execution_tool_result: set("type", "tool_use_id", "content", "cache_control"),
  text_editor_code_execution_tool_result: set("type", "tool_use_id", "content", "cache_control"),
  tool_search_tool_result: set("type", "tool_use_id", "content", "cache_control"),
  mcp_tool_use: set("type", "id", "name", "input", "server_name", "cache_control"),
  mcp_tool_result: set("type", "tool_use_id", "content", "is_error", "cache_control"),
  container_upload: set("type", "file_id", "cache_control"),
  compaction: set("type", "content", "encrypted_content", "signature", "tool_changes", "cache_control"),
  tool_addition: set("type", "tool", "cache_control"),
  tool_removal: set("type", "tool", "cache_control"),
  mcp_tool_listing: set("type", "mcp_server_name", "tools"),
  fallback: set("type", "from", "to", "trigger"),
};

/** Blocks a tool_result's `content` may hold besides text, image and document (SDK `ToolResultBlockParam`). */
export const TOOL_RESULT_CONTENT_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  search_result: BLOCK_KEYS.search_result!,
  tool_reference: set("type", "tool_name", "cache_control", "error_code"),
  browser_state: set("type", "tabs", "state_changes", "cache_control"),
};

/** Block types only a user message may carry. */
export const USER_ONLY_BLOCKS: ReadonlySet<string> = set("tool_result", "search_result", "container_upload");
/** Block types only an assistant message may carry (server tools run on the API's side of the turn). */
export const ASSISTANT_ONLY_BLOCKS: ReadonlySet<string> = set(
  "thinking",
  "redacted_thinking",
  "tool_use",
  "server_tool_use",
  "web_search_tool_result",
  "web_fetch_tool_result",
  "advisor_tool_result",
  "code_execution_tool_result",
  "bash_code_execution_tool_result",
  "text_editor_code_execution_tool_result",
  "tool_search_tool_result",
  "mcp_tool_use",
  "mcp_tool_result",
  "compaction",
);
/** Block types the assistant may not carry although no rule above names them (media is input only). */
export const NOT_IN_ASSISTANT: ReadonlySet<string> = set("image", "document");

/** Emulator-only extras: `cache_edits` blocks and `cache_reference` on tool results (opt-in cache editing). */
export const CACHE_EDITS_BLOCK_KEYS: ReadonlySet<string> = set("type", "edits");
