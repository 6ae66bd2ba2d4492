/**
 * The JSON shapes of `--output-format json|stream-json`, field for field those of Claude Code's `-p` (the Agent
 * SDK's `SDKResultMessage` and `SDKSystemMessage` init types, sdk.d.ts / coreTypes.ts): names, types and values, so
 * a script that parses Claude Code's output parses threadline's. threadline adds `transcript_path`.
 */
import { randomUUID } from "node:crypto";
import type { EngineEvent, TerminalReason } from "../../../loop/events.js";
import type { TurnUsage } from "../../../messages/index.js";

/** The Agent SDK's `ModelUsage`: one model's share of the run. */
export interface ModelUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  webSearchRequests: number;
  costUSD: number;
  contextWindow: number;
  maxOutputTokens: number;
}

/** The Agent SDK's `SDKPermissionDenial`: a tool call the permission rules (or the person) refused. */
export interface PermissionDenial {
  tool_name: string;
  tool_use_id: string;
  tool_input: Record<string, unknown>;
}

/** Claude Code's `terminal_reason` values (why the loop ended). */
export type ClaudeCodeTerminalReason =
  | "completed"
  | "max_turns"
  | "aborted_streaming"
  | "hook_stopped"
  | "blocking_limit"
  | "prompt_too_long"
  | "model_error";

/** The final object: the whole output of `json`, the last line of `stream-json`. */
export interface ResultObject {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_during_execution" | "error_max_budget_usd";
  is_error: boolean;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  result: string;
  /** The API's stop_reason of the last response (`end_turn`, `tool_use`, `max_tokens`, …); null without one. */
  stop_reason: string | null;
  session_id: string;
  total_cost_usd: number;
  usage: {
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    output_tokens: number;
  };
  modelUsage: Record<string, ModelUsage>;
  permission_denials: PermissionDenial[];
  terminal_reason: ClaudeCodeTerminalReason;
  /** On error results only, as in Claude Code. */
  errors?: string[];
  uuid: string;
  transcript_path: string | null;
}

export interface ResultContext {
  sessionId: string;
  durationMs: number;
  /** Milliseconds spent waiting on the API (request start to response end, summed). */
  apiDurationMs: number;
  /** The session's running totals (the turn's own usage is in the turn_end event). */
  totals: TurnUsage;
  transcriptPath: string | undefined;
  model: string;
  contextWindow: number;
  maxOutputTokens: number;
  /** The last response's stop_reason; undefined when none arrived. */
  stopReason: string | undefined;
  permissionDenials: readonly PermissionDenial[];
  /** `--max-budget-usd` stopped the run. Default false. */
  overBudget?: boolean;
}

/** Builds the result object from the turn's end. Cost and usage cover this turn. */
export function resultObject(end: Extract<EngineEvent, { type: "turn_end" }>, context: ResultContext): ResultObject {
  const overBudget = context.overBudget === true;
  const isError = end.reason !== "completed" || overBudget;
  const message = overBudget ? "Reached the --max-budget-usd limit" : (end.error ?? `Turn ended: ${end.reason}`);
  const costUsd = roundCost(end.usage.costUsd);
  return {
    type: "result",
    subtype: overBudget ? "error_max_budget_usd" : subtypeFor(end.reason),
    is_error: isError,
    duration_ms: context.durationMs,
    duration_api_ms: context.apiDurationMs,
    num_turns: end.answeredRequests,
    result: isError ? message : end.lastText,
    stop_reason: context.stopReason ?? null,
    session_id: context.sessionId,
    total_cost_usd: costUsd,
    usage: {
      input_tokens: end.usage.inputTokens,
      cache_creation_input_tokens: end.usage.cacheCreationInputTokens,
      cache_read_input_tokens: end.usage.cacheReadInputTokens,
      output_tokens: end.usage.outputTokens,
    },
    modelUsage: {
      [context.model]: {
        inputTokens: end.usage.inputTokens,
        outputTokens: end.usage.outputTokens,
        cacheReadInputTokens: end.usage.cacheReadInputTokens,
        cacheCreationInputTokens: end.usage.cacheCreationInputTokens,
        webSearchRequests: 0,
        costUSD: costUsd,
        contextWindow: context.contextWindow,
        maxOutputTokens: context.maxOutputTokens,
      },
    },
    permission_denials: [...context.permissionDenials],
    terminal_reason: claudeCodeTerminalReason(end.reason),
    ...(isError ? { errors: [message] } : {}),
    uuid: randomUUID(),
    transcript_path: context.transcriptPath ?? null,
  };
}

function subtypeFor(reason: TerminalReason): ResultObject["subtype"] {
  if (reason === "completed") return "success";
  if (reason === "max_turns") return "error_max_turns";
  return "error_during_execution";
}

/** threadline's reason in Claude Code's words (SDK `TerminalReason`). */
export function claudeCodeTerminalReason(reason: TerminalReason): ClaudeCodeTerminalReason {
  switch (reason) {
    case "completed":
      return "completed";
    case "max_turns":
      return "max_turns";
    case "aborted":
      return "aborted_streaming";
    case "hook_blocked":
      return "hook_stopped";
    case "blocking_limit":
      return "blocking_limit";
    case "prompt_too_long":
      return "prompt_too_long";
    case "max_tokens":
    case "refused":
    case "error":
      return "model_error";
  }
}

/** A denied call's record, read from its tool_end (the permission layer's result text: tools/permissions.ts). */
export function permissionDenial(event: Extract<EngineEvent, { type: "tool_end" }>): PermissionDenial | undefined {
  if (!event.isError) return undefined;
  const content = event.entry.message.content;
  const text = JSON.stringify(content);
  if (!text.includes("Permission denied:") && !text.includes("The user denied permission")) return undefined;
  return {
    tool_name: event.block.name,
    tool_use_id: event.block.id,
    tool_input: (event.block.input ?? {}) as Record<string, unknown>,
  };
}

function roundCost(dollars: number): number {
  return Math.round(dollars * 1e8) / 1e8;
}

/** One JSON value and a newline. */
export function streamJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
