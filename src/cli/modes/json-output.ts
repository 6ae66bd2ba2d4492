/**
 * The JSON shapes of `--output-format json|stream-json`, modelled on Claude Code's so scripts carry over.
 */
import type { EngineEvent, TerminalReason } from "../../loop/events.js";
import type { TurnUsage } from "../../messages/index.js";

/** The final object: the whole output of `json`, the last line of `stream-json`. */
export interface ResultObject {
  type: "result";
  subtype: "success" | "error_max_turns" | "error_during_execution" | "interrupted";
  is_error: boolean;
  duration_ms: number;
  num_turns: number;
  result: string;
  stop_reason: TerminalReason;
  session_id: string;
  total_cost_usd: number;
  usage: {
    input_tokens: number;
    cache_creation_input_tokens: number;
    cache_read_input_tokens: number;
    output_tokens: number;
  };
  transcript_path: string | null;
}

export interface ResultContext {
  sessionId: string;
  durationMs: number;
  /** The session's running totals (the turn's own usage is in the turn_end event). */
  totals: TurnUsage;
  transcriptPath: string | undefined;
}

/** Builds the result object from the turn's end. Cost and usage cover this turn. */
export function resultObject(end: Extract<EngineEvent, { type: "turn_end" }>, context: ResultContext): ResultObject {
  const isError = end.reason !== "completed";
  return {
    type: "result",
    subtype: subtypeFor(end.reason),
    is_error: isError,
    duration_ms: context.durationMs,
    num_turns: end.iterations,
    result: isError ? (end.error ?? `Turn ended: ${end.reason}`) : end.lastText,
    stop_reason: end.reason,
    session_id: context.sessionId,
    total_cost_usd: roundCost(end.usage.costUsd),
    usage: {
      input_tokens: end.usage.inputTokens,
      cache_creation_input_tokens: end.usage.cacheCreationInputTokens,
      cache_read_input_tokens: end.usage.cacheReadInputTokens,
      output_tokens: end.usage.outputTokens,
    },
    transcript_path: context.transcriptPath ?? null,
  };
}

function subtypeFor(reason: TerminalReason): ResultObject["subtype"] {
  if (reason === "completed") return "success";
  if (reason === "max_turns") return "error_max_turns";
  if (reason === "aborted") return "interrupted";
  return "error_during_execution";
}

function roundCost(dollars: number): number {
  return Math.round(dollars * 1e8) / 1e8;
}

/** One JSON value and a newline. */
export function streamJsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}
