/**
 * The status line shown after each turn: context used (% of the window), tokens, cache hit ratio, cost.
 * `SessionStats` comes from the session's account (session-stats.ts); formatting is a pure function of it.
 */
import { hitRatio } from "../../../cache/index.js";
import type { ThresholdFigures } from "../../../compaction/index.js";
import { emptyUsage, isKnownModel, type TurnUsage } from "../../../messages/index.js";
import { modelPriceLabel, UNKNOWN_MODEL_NOTE } from "../../pricing.js";

/** What the status line and `/cost` show. */
export interface SessionStats {
  /** Tokens the last response saw (input + cache read + cache write + output); 0 before the first. Server's tokens. */
  contextTokens: number;
  /** The server's window, in its tokens (the session's budget: compaction/budget/context-thresholds.ts). */
  contextWindow: number;
  /**
   * The session's thresholds in the server's tokens, as the loop acts on them (`ContextThresholds.server`, from
   * the one owner). Shown as where autocompact runs. Default: not shown.
   */
  thresholds?: Pick<ThresholdFigures, "autocompact" | "blocking">;
  totals: TurnUsage;
  /** Wall time spent in turns, milliseconds. */
  turnMillis: number;
  toolCalls: number;
  toolErrors: number;
  turns: number;
  /** The model priced; an unknown one is labelled as such beside the cost. Default: not shown. */
  model?: string;
  /** How pauses were paid for and what that saved (docs/PROMPT-CACHE.md, "Pauses"). Default: not shown. */
  pauses?: string;
}

/** Share of prompt tokens served from cache; 0 when nothing was sent. */
export function cacheHitRatio(totals: TurnUsage): number {
  return hitRatio(totals.inputTokens, totals.cacheReadInputTokens, totals.cacheCreationInputTokens);
}

/** A compact token count: 950, 12.3k, 1.20M. */
export function formatTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1_000).toFixed(tokens < 10_000 ? 1 : 0)}k`;
  return `${(tokens / 1_000_000).toFixed(2)}M`;
}

/** Dollars with enough precision for small sessions. */
export function formatCost(dollars: number): string {
  return `$${dollars < 1 ? dollars.toFixed(4) : dollars.toFixed(2)}`;
}

/** `ctx 12% (24.3k/200k, ac 167k) · in 1.2k · out 340 · cache 87% · $0.0123` ("ac": where autocompact runs; the line fits 80 columns) */
export function formatStatusLine(stats: SessionStats): string {
  const percent = stats.contextWindow > 0 ? Math.round((100 * stats.contextTokens) / stats.contextWindow) : 0;
  const totals = stats.totals;
  const prompt = totals.inputTokens + totals.cacheReadInputTokens + totals.cacheCreationInputTokens;
  return [
    `ctx ${percent}% (${formatTokens(stats.contextTokens)}/${formatTokens(stats.contextWindow)}${stats.thresholds !== undefined ? `, ac ${formatTokens(stats.thresholds.autocompact)}` : ""})`,
    `in ${formatTokens(prompt)}`,
    `out ${formatTokens(totals.outputTokens)}`,
    `cache ${Math.round(100 * cacheHitRatio(totals))}%`,
    stats.model !== undefined && !isKnownModel(stats.model)
      ? `${formatCost(totals.costUsd)} (${UNKNOWN_MODEL_NOTE})`
      : formatCost(totals.costUsd),
  ].join(" · ");
}

/** The `/cost` report. */
export function formatCostReport(stats: SessionStats): string {
  const totals = stats.totals;
  const count = (value: number) => value.toLocaleString("en-US");
  return [
    `Total cost:        ${formatCost(totals.costUsd)}`,
    ...(stats.model !== undefined ? [`Model:             ${modelPriceLabel(stats.model)}`] : []),
    `Model requests:    ${count(totals.requests)} over ${count(stats.turns)} prompt${stats.turns === 1 ? "" : "s"}`,
    `Tool calls:        ${count(stats.toolCalls)} (${count(stats.toolErrors)} failed)`,
    `Input tokens:      ${count(totals.inputTokens)} uncached, ${count(totals.cacheReadInputTokens)} cache read, ${count(totals.cacheCreationInputTokens)} cache write`,
    `Output tokens:     ${count(totals.outputTokens)}`,
    `Cache hit ratio:   ${(100 * cacheHitRatio(totals)).toFixed(1)}%`,
    `Time in turns:     ${(stats.turnMillis / 1000).toFixed(1)}s`,
    ...(stats.pauses !== undefined ? [`Pauses:            ${stats.pauses}`] : []),
  ].join("\n");
}

/** The stats of a session not yet opened: nothing counted. */
export function freshStats(contextWindow: number): SessionStats {
  return {
    contextTokens: 0,
    contextWindow,
    totals: emptyUsage(),
    turnMillis: 0,
    toolCalls: 0,
    toolErrors: 0,
    turns: 0,
  };
}
