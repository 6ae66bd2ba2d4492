/**
 * paramsFromContext: the request body and beta headers, built in one fixed key order so the serialized bytes
 * depend only on the values. Rebuilt on every retry attempt (a fallback model changes `model` and limits).
 */
import type { ApiMessage, ModelLimits } from "../messages/index.js";
import { modelLimits } from "../messages/index.js";
import { featureBetas, THINKING_BINDING_BETA } from "./betas.js";
import { type LatchState, latchBetas } from "./latches.js";
import { serializeRequest } from "./serialize.js";
import { COMPACT_BETA } from "./server-compaction.js";
import type { RequestSettings } from "./settings.js";
import { INLINE_TOOLS_BETA, TOOL_CHANGES_BETA, withToolArrivals } from "./tool-changes.js";
import { sortedToolDefinitions } from "./tool-definitions.js";
import type { AssembledRequest, MessagesRequest, SystemBlock, ThinkingConfig, ToolChoice } from "./types.js";

/** Smallest thinking budget the API accepts. */
export const MIN_THINKING_BUDGET_TOKENS = 1_024;

export interface ParamsContext {
  settings: RequestSettings;
  /** System blocks with their cache markers (from `addCacheBreakpoints`). */
  system: readonly SystemBlock[];
  /** Normalized messages with markers, references and edits (from `addCacheBreakpoints`). */
  messages: readonly ApiMessage[];
  latches: LatchState;
}

export interface ParamsResult {
  request: AssembledRequest;
  /** The latches after this request (its betas switched on). */
  latches: LatchState;
}

/** `max_tokens`: the setting, else the model's default output cap; never above the model's maximum. */
function maxTokensFor(settings: RequestSettings, limits: ModelLimits): number {
  const requested = settings.maxTokens ?? limits.defaultOutputTokens;
  return Math.max(1, Math.min(Math.floor(requested), limits.maxOutputTokens));
}

function forcesTool(choice: ToolChoice | undefined): boolean {
  return choice?.type === "any" || choice?.type === "tool";
}

/**
 * The thinking parameter within the API's rules, or undefined when thinking cannot be on for this request. Where the
 * model binds thinking to its prefix and the server takes the beta, the block binding rides along (adaptive thinking
 * when none was asked for: the model's own default, so nothing else changes).
 */
function thinkingFor(
  settings: RequestSettings,
  maxTokens: number,
  forcedToolSent: boolean,
): ThinkingConfig | undefined {
  const binding = settings.thinkingPrefixMismatch !== undefined && !settings.omitBetas?.includes(THINKING_BINDING_BETA);
  const thinking = settings.thinking ?? (binding ? { type: "adaptive" as const } : undefined);
  if (!thinking) return undefined;
  // "Thinking may not be enabled when tool_choice forces tool use": the explicit tool choice wins.
  if (forcedToolSent) return undefined;
  const bound = binding ? { block_binding: { prefix_mismatch_behavior: settings.thinkingPrefixMismatch! } } : {};
  if (thinking.type === "adaptive") return { type: "adaptive", ...bound };
  const budget = Math.min(Math.max(Math.floor(thinking.budgetTokens), MIN_THINKING_BUDGET_TOKENS), maxTokens - 1);
  if (budget < MIN_THINKING_BUDGET_TOKENS) return undefined;
  return { type: "enabled", budget_tokens: budget, ...bound };
}

/** The request body, beta headers and serialized bytes for this context. */
export function paramsFromContext(context: ParamsContext): ParamsResult {
  const { settings } = context;
  const limits = modelLimits(settings.model, settings.modelOverrides);
  const maxTokens = maxTokensFor(settings, limits);
  const clientTools = sortedToolDefinitions(settings.tools);
  const serverTools = settings.serverTools ?? [];
  // The sorted client list is shared and must not be mutated (tool-definitions.ts): copy only when adding.
  const tools = serverTools.length === 0 ? clientTools : [...clientTools, ...serverTools.map((tool) => ({ ...tool }))];
  // Forced tool use is a 400 on the models that bind thinking (docs/MODELS.md): such a choice is not sent.
  const toolChoice =
    tools.length > 0 && settings.toolChoice && !(limits.bindsThinking && forcesTool(settings.toolChoice))
      ? settings.toolChoice
      : undefined;
  const thinking = thinkingFor(settings, maxTokens, forcesTool(toolChoice));
  // Keys are assigned in serialization order: model, max_tokens, system, messages, tools, tool_choice,
  // thinking, output_config, metadata, context_management, diagnostics.
  const body = { model: settings.model, max_tokens: maxTokens } as MessagesRequest;
  if (context.system.length > 0) body.system = context.system.slice();
  const arrivals = settings.toolArrivals ?? [];
  body.messages = withToolArrivals(context.messages, arrivals);
  if (tools.length > 0) {
    body.tools = tools;
    if (toolChoice) body.tool_choice = toolChoice;
  }
  if (thinking) body.thinking = thinking;
  if (settings.effort !== undefined || settings.outputFormat !== undefined)
    body.output_config = {
      ...(settings.effort !== undefined ? { effort: settings.effort } : {}),
      ...(settings.outputFormat !== undefined ? { format: settings.outputFormat } : {}),
    };
  if (settings.metadata?.user_id !== undefined) body.metadata = { user_id: settings.metadata.user_id };
  if (settings.contextManagement) body.context_management = settings.contextManagement;
  if (settings.diagnostics) body.diagnostics = { previous_message_id: settings.diagnostics.previousMessageId };
  const omitted = settings.omitBetas ?? [];
  const latches = latchBetas(
    context.latches,
    featureBetas({
      // compact-2026-01-12 unlocks context_management for its own edit; other edits need their beta.
      contextManagement: settings.contextManagement?.edits.some((edit) => edit.type !== "compact_20260112") === true,
      oneHourTtl: settings.cacheTtl === "1h" || settings.prefixCacheTtl === "1h",
      cacheEditing: settings.cacheEditing === true,
      thinkingWithTools: thinking !== undefined && tools.length > 0,
      thinkingBinding: thinking !== undefined && "block_binding" in thinking,
    })
      .concat(arrivals.length > 0 ? [TOOL_CHANGES_BETA, INLINE_TOOLS_BETA] : [])
      .concat(settings.contextManagement?.edits.some((edit) => edit.type === "compact_20260112") ? [COMPACT_BETA] : [])
      .filter((beta) => !omitted.includes(beta)),
  );
  // A refused beta is never sent again, even when it was latched before the server said no.
  const betas = omitted.length === 0 ? [...latches.betas] : latches.betas.filter((beta) => !omitted.includes(beta));
  return { request: { body, betas, json: serializeRequest(body) }, latches };
}
