/**
 * `/context`: what the next request holds (system, tools, messages) and what each compaction tier has done,
 * against the window's thresholds. Pure: it reads the timeline and the loop configuration.
 */
import {
  budgetLimits,
  type CompactionSettings,
  ContextBudget,
  type ContextThresholds,
  estimateEntriesTokens,
} from "../../../compaction/index.js";
import type { QueryEngine } from "../../../engine/query-engine.js";
import { estimateTextTokens, type TimelineEntry } from "../../../messages/index.js";
import type { ToolDefinition } from "../../../request/index.js";
import { apiView } from "../../../timeline/index.js";
import { formatTokens } from "../status/status-line.js";

export interface ContextReportInput {
  entries: readonly TimelineEntry[];
  model: string;
  /**
   * The session's one context budget (compaction/budget/context-thresholds.ts, made by `budgetLimits`): the server's
   * window, the calibration, the reserve and every threshold. The report shows the server's tokens (`server`),
   * as the status line does and as the loop acts on them (`estimate` is the same figures ÷ the ratio).
   */
  thresholds: ContextThresholds;
  systemPrompt: readonly string[];
  tools: readonly ToolDefinition[];
  settings: CompactionSettings;
}

/** What the four tiers have done in a session, counted from its records. */
export interface TierActivity {
  snipBoundaries: number;
  snippedMessages: number;
  microcompactBoundaries: number;
  clearedToolResults: number;
  microcompactTokensSaved: number;
  cacheEditPins: number;
  collapseCommits: number;
  collapseStaged: number;
  compactions: number;
  /** Tokens before and after the latest compaction. */
  lastCompaction?: { preTokens: number; postTokens: number };
}

/** Counts each tier's records in the timeline. */
export function tierActivity(entries: readonly TimelineEntry[]): TierActivity {
  const activity: TierActivity = {
    snipBoundaries: 0,
    snippedMessages: 0,
    microcompactBoundaries: 0,
    clearedToolResults: 0,
    microcompactTokensSaved: 0,
    cacheEditPins: 0,
    collapseCommits: 0,
    collapseStaged: 0,
    compactions: 0,
  };
  for (const entry of entries) {
    if (entry.type === "cache-edit-pin") activity.cacheEditPins++;
    else if (entry.type === "collapse-commit") activity.collapseCommits++;
    else if (entry.type === "collapse-snapshot") activity.collapseStaged = entry.staged.length;
    if (entry.type !== "system") continue;
    if (entry.subtype === "snip_boundary") {
      activity.snipBoundaries++;
      activity.snippedMessages += entry.snipMetadata?.removedUuids.length ?? 0;
    } else if (entry.subtype === "microcompact_boundary") {
      activity.microcompactBoundaries++;
      activity.clearedToolResults += entry.microcompactMetadata?.compactedToolIds.length ?? 0;
      activity.microcompactTokensSaved += entry.microcompactMetadata?.tokensSaved ?? 0;
    } else if (entry.subtype === "compact_boundary") {
      activity.compactions++;
      if (entry.compactMetadata) {
        activity.lastCompaction = {
          preTokens: entry.compactMetadata.preTokens,
          postTokens: entry.compactMetadata.postTokens,
        };
      }
    }
  }
  return activity;
}

/** One line per tier: whether it is on and what it did. */
export function formatTierLines(activity: TierActivity, settings: CompactionSettings): string[] {
  const state = (on: boolean) => (on ? "on " : "off");
  const compaction = activity.lastCompaction
    ? `, last ${formatTokens(activity.lastCompaction.preTokens)} → ${formatTokens(activity.lastCompaction.postTokens)}`
    : "";
  return [
    `snip          ${state(settings.snip)}  ${activity.snipBoundaries} snips, ${activity.snippedMessages} messages removed`,
    `microcompact  ${state(settings.microcompact)}  ${activity.clearedToolResults} tool results cleared (~${formatTokens(activity.microcompactTokensSaved)} tokens), ${activity.cacheEditPins} cache edits pinned`,
    `collapse      ${state(settings.collapse)}  ${activity.collapseCommits} spans committed, ${activity.collapseStaged} staged`,
    `autocompact   ${state(settings.autocompact)}  ${activity.compactions} compactions${compaction}`,
  ];
}

/** What the next request would hold, estimated by part: the figure `/context`, `/compact` and the status line share. */
export interface NextRequestEstimate {
  systemTokens: number;
  toolTokens: number;
  messageTokens: number;
  messages: number;
  total: number;
}

export function estimateNextRequest(input: ContextReportInput): NextRequestEstimate {
  const messages = apiView(input.entries);
  const systemTokens = input.systemPrompt.reduce((sum, segment) => sum + estimateTextTokens(segment), 0);
  const toolTokens = estimateTextTokens(JSON.stringify(input.tools));
  const messageTokens = estimateEntriesTokens(messages);
  const ratio = input.thresholds.ratio;
  const server = (estimated: number) => (ratio === 1 ? estimated : Math.ceil(estimated * ratio));
  return {
    systemTokens: server(systemTokens),
    toolTokens: server(toolTokens),
    messageTokens: server(messageTokens),
    messages: messages.length,
    total: server(systemTokens) + server(toolTokens) + server(messageTokens),
  };
}

/** The report's input for an open session. */
export function contextReportInput(engine: QueryEngine): ContextReportInput {
  const budget = ContextBudget.fromEntries(engine.timeline.entries);
  return {
    entries: engine.timeline.entries,
    model: engine.model,
    // The window, calibration and thresholds the session's budget holds (docs/CONTEXT-BUDGET.md): one owner, read
    // back from the transcript's last `context-budget` record, the same the loop starts from.
    thresholds: budgetLimits(engine.model, engine.config.modelOverrides, budget).thresholds,
    systemPrompt: engine.config.systemPrompt,
    tools: engine.requestToolDefinitions(),
    settings: engine.config.compaction,
  };
}

/** The `/context` report. */
export function formatContextReport(input: ContextReportInput): string {
  const { systemTokens, toolTokens, messageTokens, messages, total } = estimateNextRequest(input);
  const { ratio, server } = input.thresholds;
  const window = server.window;
  const percent = (tokens: number) => `${((100 * tokens) / window).toFixed(1)}%`;
  const row = (label: string, tokens: number) =>
    `  ${label.padEnd(22)}${formatTokens(tokens).padStart(8)}  ${percent(tokens).padStart(6)}`;
  return [
    `Context for the next request (estimated${ratio !== 1 ? `, calibrated ×${ratio.toFixed(2)} to the server's count` : ""}): ${formatTokens(total)} of ${formatTokens(window)} (${percent(total)}) · ${input.model}`,
    row("system prompt", systemTokens),
    row(`tools (${input.tools.length})`, toolTokens),
    row(`messages (${messages})`, messageTokens),
    row("free (output reserved)", Math.max(0, server.effective - total)),
    "Compaction tiers",
    ...formatTierLines(tierActivity(input.entries), input.settings).map((line) => `  ${line}`),
    `Thresholds (the server's tokens): warning ${formatTokens(server.warning)} · autocompact ${formatTokens(server.autocompact)} · blocking ${formatTokens(server.blocking)}`,
  ].join("\n");
}
