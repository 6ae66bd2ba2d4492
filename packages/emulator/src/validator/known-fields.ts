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
 * The `anthropic-beta` values that unlock a beta-only field or block: any one of them will do. The names are the
 * SDK's `AnthropicBeta` list, plus the name a recorded real client sends where it differs (docs/API-SURFACE.md).
 */
export type UnlockingBetas = readonly string[];

const CONTEXT_MANAGEMENT = "context-management-2025-06-27";
const COMPACT_EDIT = "compact-2026-01-12";
const COMPACT_ON_DEMAND = "compact-2026-09-04";
const TOOL_CHANGES = "mid-conversation-tool-changes-2026-07-01";

/**
 * Top-level fields only the beta params define, with the betas that unlock each (`undefined`: any beta, where
 * neither the SDK nor the docs name one). Without one of them they are extra inputs, as on the API.
 */
export const BETA_FIELDS: ReadonlyMap<string, UnlockingBetas | undefined> = new Map<string, UnlockingBetas | undefined>(
  [
    // Each edit inside needs its own beta too (CONTEXT_EDIT_BETAS).
    ["context_management", [CONTEXT_MANAGEMENT, COMPACT_EDIT]],
    ["mcp_servers", ["mcp-client-2025-04-04", "mcp-client-2025-11-20", "mcp-client-2026-09-15"]],
    ["compaction", [COMPACT_ON_DEMAND]],
    ["output_format", ["structured-outputs-2025-11-13"]],
    ["thread", ["message-threads-2026-08-12"]],
    ["billing_policy", undefined],
    ["fallback_credit_token", ["fallback-credit-2026-06-01", "fallback-credit-2026-07-01"]],
    ["fallbacks", ["server-side-fallback-2026-06-01", "server-side-fallback-2026-07-01"]],
    // The SDK's own `betas` parameter becomes the header; a body that still has it was built by hand.
    ["betas", undefined],
  ],
);

/** Fields of a mid-conversation `role: "system"` message that need no beta (SDK `BetaSystemMessageParam`). */
export const SYSTEM_MESSAGE_KEYS: ReadonlySet<string> = set("role", "content");
/** Fields of a system message that only a beta unlocks. */
export const SYSTEM_MESSAGE_BETA_FIELDS: ReadonlyMap<string, UnlockingBetas> = new Map<string, UnlockingBetas>([
  // Claude Code 2.1.332 sends `per-turn-control-2026-07-01`; the SDK lists the other name.
  ["output_config", ["mid-conversation-output-config-2026-07-01", "per-turn-control-2026-07-01"]],
  ["clear_at", ["mid-conversation-system-clear-at-2026-08-21"]],
]);
/** Fields of a system message's `output_config` (`format` stays top-level only). */
export const SYSTEM_MESSAGE_OUTPUT_CONFIG_KEYS: ReadonlySet<string> = set("effort");
/** Block types a system message's content may hold. */
export const SYSTEM_MESSAGE_BLOCKS: ReadonlySet<string> = set("text", "tool_addition", "tool_removal");

/** Content blocks only a beta unlocks, wherever they appear. */
export const BETA_BLOCKS: ReadonlyMap<string, UnlockingBetas> = new Map<string, UnlockingBetas>([
  ["tool_addition", [TOOL_CHANGES]],
  ["tool_removal", [TOOL_CHANGES]],
  ["compaction", [COMPACT_EDIT, COMPACT_ON_DEMAND]],
]);

/** The `tool` of a tool_addition / tool_removal block, by type (SDK `BetaToolChange*`). */
export const TOOL_CHANGE_REFERENCE_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  tool_reference: set("type", "name"),
  mcp_tool_reference: set("type", "name", "server_name"),
  mcp_toolset_reference: set("type", "server_name"),
  tool_definition: set("type", "definition"),
};
/** Tool references only a further beta unlocks (an inline definition; only a tool_addition may carry one). */
export const TOOL_CHANGE_BETA_REFERENCES: ReadonlyMap<string, UnlockingBetas> = new Map<string, UnlockingBetas>([
  ["tool_definition", ["inline-tools-2026-09-15"]],
]);

/** Fields of each `context_management.edits` entry, by type. */
export const CONTEXT_EDIT_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  clear_tool_uses_20250919: set("type", "trigger", "keep", "clear_at_least", "exclude_tools", "clear_tool_inputs"),
  clear_thinking_20251015: set("type", "keep"),
  compact_20260112: set("type", "trigger", "instructions", "pause_after_compaction"),
};
/** The betas that unlock each context edit. */
export const CONTEXT_EDIT_BETAS: ReadonlyMap<string, UnlockingBetas> = new Map<string, UnlockingBetas>([
  ["clear_tool_uses_20250919", [CONTEXT_MANAGEMENT]],
  ["clear_thinking_20251015", [CONTEXT_MANAGEMENT]],
  ["compact_20260112", [COMPACT_EDIT]],
]);

/** Fields of `diagnostics` (cache diagnostics, no beta needed). */
export const DIAGNOSTICS_KEYS: ReadonlySet<string> = set("previous_message_id");
/** Fields of `thread`, by type. */
export const THREAD_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  create: set("type"),
  continue: set("type", "previous_message_id"),
};
/** Fields of the on-demand `compaction` parameter. */
export const COMPACTION_CONFIG_KEYS: ReadonlySet<string> = set("type", "instructions");

/** True when `betas` (the request's `anthropic-beta` values) holds one that unlocks the field. */
export function unlocks(betas: readonly string[], unlocking: UnlockingBetas | undefined): boolean {
  return unlocking === undefined ? betas.length > 0 : unlocking.some((beta) => betas.includes(beta));
}

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
