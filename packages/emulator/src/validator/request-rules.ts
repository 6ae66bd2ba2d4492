/**
 * Request-level rules: top-level fields, model and max_tokens, system, tool definitions and tool_choice,
 * thinking configuration, metadata and context_management.
 */

import { effortLevels, isKnownModel, KNOWN_MODEL_IDS, modelLimits, refusesForcedToolChoice } from "../models.js";
import { checkCacheControl } from "./cache-control-rules.js";
import type { ValidationContext } from "./context.js";
import {
  BETA_FIELDS,
  COMPACTION_CONFIG_KEYS,
  CONTEXT_EDIT_BETAS,
  CONTEXT_EDIT_KEYS,
  COUNT_TOKENS_FIELDS,
  CUSTOM_TOOL_KEYS,
  DIAGNOSTICS_KEYS,
  MESSAGES_FIELDS,
  SERVER_TOOL_KEYS,
  THREAD_KEYS,
  unlocks,
} from "./known-fields.js";
import { checkWebSearchTool, isWebSearchToolType } from "./server-tool-rules.js";
import { checkExtraKeys, invalid, isRecord } from "./violation.js";

/** Smallest `thinking.budget_tokens` the API accepts. */
export const MIN_THINKING_BUDGET_TOKENS = 1024;
/** Beta that unlocks `context_management`. */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";

const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,128}$/;

const SYSTEM_BLOCK_KEYS: ReadonlySet<string> = new Set(["type", "text", "cache_control", "citations"]);
const METADATA_KEYS: ReadonlySet<string> = new Set(["user_id"]);
const TOOL_CHOICE_TYPES: ReadonlySet<string> = new Set(["auto", "any", "none", "tool"]);

/** Checks every top-level field except `messages`; returns the tool names defined. */
export function checkRequestFields(body: Record<string, unknown>, context: ValidationContext): Set<string> {
  const out = context.out;
  const endpoint = context.options.endpoint ?? "messages";
  checkTopLevelKeys(body, endpoint === "messages" ? MESSAGES_FIELDS : COUNT_TOKENS_FIELDS, context);
  if (typeof body.model !== "string" || body.model.length === 0) out.push(invalid("model", "Field required"));
  if (endpoint === "messages") checkMaxTokens(body, context);
  checkSystem(body.system, context);
  const toolNames = checkTools(body.tools, context);
  checkThinking(body, context);
  checkToolChoice(body, toolNames, context);
  if (body.metadata !== undefined) {
    if (!isRecord(body.metadata)) out.push(invalid("metadata", "Input should be a valid dictionary"));
    else checkExtraKeys(body.metadata, METADATA_KEYS, "metadata", out);
  }
  if (body.stream !== undefined && typeof body.stream !== "boolean")
    out.push(invalid("stream", "Input should be a valid boolean"));
  checkContextManagement(body.context_management, context);
  checkStateFields(body, context);
  checkPublicFields(body, context);
  return toolNames;
}

/** Unknown keys are extra inputs; beta-only keys need their beta (when the caller passes the request's betas). */
function checkTopLevelKeys(
  body: Record<string, unknown>,
  allowed: ReadonlySet<string>,
  context: ValidationContext,
): void {
  const betas = context.options.betas;
  for (const key in body) {
    if (allowed.has(key)) continue;
    if (BETA_FIELDS.has(key)) {
      // context_management explains itself below; other beta fields need one of their betas.
      if (key === "context_management" || betas === undefined) continue;
      if (unlocks(betas, BETA_FIELDS.get(key))) continue;
    }
    context.out.push(invalid(key, "Extra inputs are not permitted"));
  }
}

const EFFORTS: ReadonlySet<string> = new Set(["low", "medium", "high", "xhigh", "max"]);
const OUTPUT_CONFIG_KEYS: ReadonlySet<string> = new Set(["effort", "format"]);
const SERVICE_TIERS: ReadonlySet<string> = new Set(["auto", "standard_only"]);
const SPEEDS: ReadonlySet<string> = new Set(["standard", "fast"]);

/** Shapes of the newer public fields: output_config, top-level cache_control, service_tier, speed, geo. */
function checkPublicFields(body: Record<string, unknown>, context: ValidationContext): void {
  const out = context.out;
  const config = body.output_config;
  if (config !== undefined && config !== null) {
    if (!isRecord(config)) out.push(invalid("output_config", "Input should be a valid dictionary"));
    else {
      checkExtraKeys(config, OUTPUT_CONFIG_KEYS, "output_config", out);
      const effort = config.effort;
      if (effort !== undefined && effort !== null && (typeof effort !== "string" || !EFFORTS.has(effort))) {
        out.push(invalid("output_config.effort", "Input should be 'low', 'medium', 'high', 'xhigh' or 'max'"));
      } else if (typeof effort === "string" && typeof body.model === "string" && isKnownModel(body.model)) {
        // What GET /v1/models declares is what is enforced (a model newer than the table is let through).
        if (!effortLevels(body.model).includes(effort))
          out.push(invalid("output_config.effort", `${body.model} does not support effort level '${effort}'`));
      }
      const format = config.format;
      if (format !== undefined && format !== null && (!isRecord(format) || format.type !== "json_schema")) {
        out.push(invalid("output_config.format.type", "Input should be 'json_schema'"));
      } else if (isRecord(format) && !isRecord(format.schema)) {
        out.push(invalid("output_config.format.schema", "Field required"));
      }
    }
  }
  if (body.cache_control !== undefined && body.cache_control !== null) {
    // Automatic caching: the marker lands on the last cacheable block, after every explicit one.
    context.deferredMarkers.push(() => checkCacheControl(body, "", context));
  }
  const tier = body.service_tier;
  if (tier !== undefined && (typeof tier !== "string" || !SERVICE_TIERS.has(tier))) {
    out.push(invalid("service_tier", "Input should be 'auto' or 'standard_only'"));
  }
  const speed = body.speed;
  if (speed !== undefined && speed !== null && (typeof speed !== "string" || !SPEEDS.has(speed))) {
    out.push(invalid("speed", "Input should be 'standard' or 'fast'"));
  }
  const geo = body.inference_geo;
  if (geo !== undefined && geo !== null && typeof geo !== "string") {
    out.push(invalid("inference_geo", "Input should be a valid string"));
  }
}

function checkMaxTokens(body: Record<string, unknown>, context: ValidationContext): void {
  const maxTokens = body.max_tokens;
  if (maxTokens === undefined) {
    context.out.push(invalid("max_tokens", "Field required"));
    return;
  }
  if (typeof maxTokens !== "number" || !Number.isInteger(maxTokens) || maxTokens < 1) {
    context.out.push(invalid("max_tokens", "Input should be a positive integer"));
    return;
  }
  if (typeof body.model !== "string") return;
  // A model the table does not know may be newer than it: allow the most any model allows.
  const limit = isKnownModel(body.model) ? modelLimits(body.model).maxOutputTokens : largestMaxOutputTokens();
  if (maxTokens > limit) {
    context.out.push(
      invalid(
        "max_tokens",
        `${maxTokens} > ${limit}, which is the maximum allowed number of output tokens for ${body.model}`,
      ),
    );
  }
}

let largestOutput: number | undefined;
/** The largest `max_tokens` any model in the table allows. */
function largestMaxOutputTokens(): number {
  largestOutput ??= Math.max(...KNOWN_MODEL_IDS.map((id) => modelLimits(id).maxOutputTokens));
  return largestOutput;
}

function checkSystem(system: unknown, context: ValidationContext): void {
  if (system === undefined || typeof system === "string") return;
  if (!Array.isArray(system)) {
    context.out.push(invalid("system", "Input should be a valid string or list"));
    return;
  }
  for (let index = 0; index < system.length; index++) {
    const block: unknown = system[index];
    const path = `system.${index}`;
    if (!isRecord(block) || block.type !== "text") {
      context.out.push(invalid(path, "Input should be a text block"));
      continue;
    }
    checkExtraKeys(block, SYSTEM_BLOCK_KEYS, path, context.out);
    if (typeof block.text !== "string") context.out.push(invalid(`${path}.text`, "Field required"));
    else if (block.text.length === 0) context.out.push(invalid(path, "text content blocks must be non-empty"));
    else if (block.text.trim().length === 0) {
      context.out.push(invalid(path, "text content blocks must contain non-whitespace text"));
    }
    checkCacheControl(block, path, context);
  }
}

function checkTools(tools: unknown, context: ValidationContext): Set<string> {
  const names = new Set<string>();
  if (tools === undefined) return names;
  if (!Array.isArray(tools)) {
    context.out.push(invalid("tools", "Input should be a valid list"));
    return names;
  }
  for (let index = 0; index < tools.length; index++) {
    const tool: unknown = tools[index];
    const path = `tools.${index}`;
    if (!isRecord(tool)) {
      context.out.push(invalid(path, "Input should be a valid dictionary"));
      continue;
    }
    const isCustom = tool.type === undefined || tool.type === null || tool.type === "custom";
    if (isCustom) {
      checkExtraKeys(tool, CUSTOM_TOOL_KEYS, `${path}.custom`, context.out);
      if (!isRecord(tool.input_schema)) context.out.push(invalid(`${path}.custom.input_schema`, "Field required"));
    } else {
      checkExtraKeys(tool, SERVER_TOOL_KEYS, `${path}.${String(tool.type)}`, context.out);
      if (isWebSearchToolType(tool.type)) checkWebSearchTool(tool, path, context);
      // Toolsets (MCP, browser, computer) have no single name.
      if (tool.name === undefined && typeof tool.type === "string" && tool.type.includes("toolset")) {
        checkCacheControl(tool, path, context);
        continue;
      }
    }
    const name = tool.name;
    if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
      context.out.push(invalid(`${path}.custom.name`, `String should match pattern '${TOOL_NAME_PATTERN.source}'`));
    } else if (names.has(name)) {
      context.out.push(invalid("tools", `Tool names must be unique. Found duplicate: ${name}`));
    } else names.add(name);
    checkCacheControl(tool, path, context);
  }
  return names;
}

function checkThinking(body: Record<string, unknown>, context: ValidationContext): void {
  const thinking = body.thinking;
  if (thinking === undefined) return;
  if (!isRecord(thinking)) {
    context.out.push(invalid("thinking", "Input should be a valid dictionary"));
    return;
  }
  if (thinking.type === "disabled" || thinking.type === "adaptive") return;
  if (thinking.type !== "enabled") {
    context.out.push(invalid("thinking.type", "Input should be 'enabled', 'disabled' or 'adaptive'"));
    return;
  }
  const budget = thinking.budget_tokens;
  if (typeof budget !== "number" || !Number.isInteger(budget)) {
    context.out.push(invalid("thinking.enabled.budget_tokens", "Field required"));
    return;
  }
  if (budget < MIN_THINKING_BUDGET_TOKENS) {
    context.out.push(
      invalid(
        "thinking.enabled.budget_tokens",
        `Input should be greater than or equal to ${MIN_THINKING_BUDGET_TOKENS}`,
      ),
    );
  }
  if (
    (context.options.endpoint ?? "messages") === "messages" &&
    typeof body.max_tokens === "number" &&
    budget >= body.max_tokens
  ) {
    context.out.push(invalid("max_tokens", "`max_tokens` must be greater than `thinking.budget_tokens`"));
  }
}

function checkToolChoice(body: Record<string, unknown>, toolNames: Set<string>, context: ValidationContext): void {
  const choice = body.tool_choice;
  if (choice === undefined) return;
  if (!isRecord(choice) || typeof choice.type !== "string" || !TOOL_CHOICE_TYPES.has(choice.type)) {
    context.out.push(invalid("tool_choice", "Input should be one of auto, any, none or tool"));
    return;
  }
  if (choice.type === "tool" && (typeof choice.name !== "string" || !toolNames.has(choice.name))) {
    context.out.push(invalid("tool_choice.tool.name", `Tool '${String(choice.name)}' not found in the provided tools`));
  }
  const thinking = body.thinking;
  const thinkingOn = isRecord(thinking) && (thinking.type === "enabled" || thinking.type === "adaptive");
  const forced = choice.type === "any" || choice.type === "tool";
  if (forced && typeof body.model === "string" && refusesForcedToolChoice(body.model)) {
    context.out.push(
      invalid("tool_choice", `${body.model} does not support forced tool use; use tool_choice auto or none.`),
    );
  } else if (thinkingOn && forced) {
    context.out.push(invalid("tool_choice", "Thinking may not be enabled when tool_choice forces tool use."));
  }
}

function checkContextManagement(value: unknown, context: ValidationContext): void {
  if (value === undefined) return;
  const betas = context.options.betas;
  if (betas !== undefined && !unlocks(betas, BETA_FIELDS.get("context_management"))) {
    context.out.push(invalid("context_management", "Extra inputs are not permitted"));
    return;
  }
  if (!isRecord(value) || !Array.isArray(value.edits)) {
    context.out.push(invalid("context_management.edits", "Field required"));
    return;
  }
  for (let index = 0; index < value.edits.length; index++) {
    const edit: unknown = value.edits[index];
    const path = `context_management.edits.${index}`;
    const keys = isRecord(edit) && typeof edit.type === "string" ? CONTEXT_EDIT_KEYS[edit.type] : undefined;
    if (!isRecord(edit) || keys === undefined || typeof edit.type !== "string") {
      context.out.push(invalid(`${path}.type`, "Input tag does not match any of the expected tags"));
      continue;
    }
    // Each edit is its own beta: compact_20260112 under compact-2026-01-12, the clears under context management.
    if (betas !== undefined && !unlocks(betas, CONTEXT_EDIT_BETAS.get(edit.type))) {
      context.out.push(
        invalid(`${path}.type`, `Input tag '${edit.type}' found using 'type' does not match any of the expected tags`),
      );
      continue;
    }
    checkExtraKeys(edit, keys, path, context.out);
    if (edit.type === "clear_thinking_20251015" && index !== 0) {
      context.out.push(invalid(path, "clear_thinking_20251015 must be listed first in context_management.edits"));
    }
    if (edit.type === "compact_20260112") checkCompactEdit(edit, path, context);
  }
}

/** `compact_20260112`: an input-token trigger, a boolean pause, string instructions (SDK `BetaCompact20260112Edit`). */
function checkCompactEdit(edit: Record<string, unknown>, path: string, context: ValidationContext): void {
  const trigger = edit.trigger;
  if (trigger !== undefined && trigger !== null) {
    if (!isRecord(trigger) || trigger.type !== "input_tokens" || typeof trigger.value !== "number") {
      context.out.push(invalid(`${path}.trigger`, "Input should be {type: 'input_tokens', value: N}"));
    }
  }
  const pause = edit.pause_after_compaction;
  if (pause !== undefined && typeof pause !== "boolean")
    context.out.push(invalid(`${path}.pause_after_compaction`, "Input should be a valid boolean"));
  const instructions = edit.instructions;
  if (instructions !== undefined && instructions !== null && typeof instructions !== "string")
    context.out.push(invalid(`${path}.instructions`, "Input should be a valid string"));
}

/** `diagnostics`, `thread` and `compaction`: their shapes, when present. */
function checkStateFields(body: Record<string, unknown>, context: ValidationContext): void {
  const out = context.out;
  const diagnostics = body.diagnostics;
  if (diagnostics !== undefined && diagnostics !== null) {
    if (!isRecord(diagnostics)) out.push(invalid("diagnostics", "Input should be a valid dictionary"));
    else {
      checkExtraKeys(diagnostics, DIAGNOSTICS_KEYS, "diagnostics", out);
      const previous = diagnostics.previous_message_id;
      if (previous !== undefined && previous !== null && typeof previous !== "string")
        out.push(invalid("diagnostics.previous_message_id", "Input should be a valid string"));
    }
  }
  const thread = body.thread;
  if (thread !== undefined && thread !== null) {
    const keys = isRecord(thread) && typeof thread.type === "string" ? THREAD_KEYS[thread.type] : undefined;
    if (!isRecord(thread) || keys === undefined)
      out.push(invalid("thread.type", "Input should be 'create' or 'continue'"));
    else {
      checkExtraKeys(thread, keys, "thread", out);
      if (thread.type === "continue" && typeof thread.previous_message_id !== "string")
        out.push(invalid("thread.previous_message_id", "Field required"));
    }
  }
  const compaction = body.compaction;
  if (compaction !== undefined && compaction !== null) {
    if (!isRecord(compaction) || compaction.type !== "summarize")
      out.push(invalid("compaction.type", "Input should be 'summarize'"));
    else checkExtraKeys(compaction, COMPACTION_CONFIG_KEYS, "compaction", out);
  }
}
