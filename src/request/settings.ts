/**
 * The per-request settings request assembly takes (besides the conversation, latches and pins).
 */
import type { EffortLevel, ModelLimits } from "../messages/index.js";
import type { ToolArrival } from "./tool-changes.js";
import type {
  ContextManagementEdit,
  JsonOutputFormat,
  ServerToolDefinition,
  ToolChoice,
  ToolDefinition,
} from "./types.js";

export interface RequestSettings {
  model: string;
  /** System prompt segments; each becomes one system text block (blank segments are skipped). */
  systemPrompt: readonly string[];
  /** Already converted (see `toolDefinitions`); sent sorted by name. */
  tools: readonly ToolDefinition[];
  /**
   * Tools the server runs (its web search), sent after `tools` in the given order. Only for a server that declares
   * them (`ProviderCapabilities.webSearch`). Default none.
   */
  serverTools?: readonly ServerToolDefinition[];
  /** Default: none sent (the API's `auto`). Dropped when no tools are sent. */
  toolChoice?: ToolChoice;
  /** Default none. A forced tool_choice (`any`/`tool`) turns thinking off, as the API requires. */
  thinking?: { type: "adaptive" } | { type: "enabled"; budgetTokens: number };
  /**
   * On a model whose thinking binds its prefix (`ModelLimits.bindsThinkingPrefix`): sent as
   * `thinking.block_binding.prefix_mismatch_behavior` with its beta, thinking adaptive when `thinking` is unset
   * (docs/THINKING-BINDING.md: a rewritten prefix drops the thinking after it instead of failing). Default none.
   */
  thinkingPrefixMismatch?: "drop_block";
  /**
   * Sent as `output_config.effort`. Default none. Whoever sets it has checked that the server declares this level
   * for the model (engine/effort-support.ts): assembly sends what it is given.
   */
  effort?: EffortLevel;
  /** Default `modelLimits(model).defaultOutputTokens`; capped at the model's maximum output. */
  maxTokens?: number;
  /** Default "5m". */
  cacheTtl?: "5m" | "1h";
  /**
   * The TTL of the system prompt's markers when it differs from `cacheTtl` (the pause policy's cold-start hedge,
   * cache/pause-policy.ts): "1h" over a "5m" conversation; the API takes a 1h marker before 5m ones. Default
   * `cacheTtl`.
   */
  prefixCacheTtl?: "5m" | "1h";
  /** Put the message marker on the second-to-last message so this request writes no new cache. Default false. */
  skipCacheWrite?: boolean;
  /** Append `[id:xxxxxx]` snip tags to non-meta user messages. Default false. */
  snipTags?: boolean;
  /** Add `cache_reference` to tool_results in the cached prefix and place cache edits. Default false. */
  cacheEditing?: boolean;
  /** Sent as-is; adds the context-management beta. Default none. */
  contextManagement?: { edits: ContextManagementEdit[] };
  /** Default none. */
  metadata?: { user_id?: string };
  /**
   * Tools that arrived after the session's first request, offered in system messages at their pinned place
   * instead of in `tools` (only for a server that declares tool changes; see tool-changes.ts). Default none.
   */
  toolArrivals?: readonly ToolArrival[];
  /**
   * Ask for cache diagnostics, naming the previous response of this conversation (`null`: none yet). Sent last
   * in the body, so the bytes before it stay turn N's. Default none (only a server that declares it gets it).
   */
  diagnostics?: { previousMessageId: string | null };
  /** Betas never sent, latched or not: the server refused them (see `server-features.ts`). Default none. */
  omitBetas?: readonly string[];
  /** Overrides the model table (e.g. a context-window override). Default none. */
  modelOverrides?: Partial<ModelLimits>;
  /** Sent as `output_config.format` (structured outputs). Default none. */
  outputFormat?: JsonOutputFormat;
}
