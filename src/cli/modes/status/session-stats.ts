/**
 * What the status line and `/cost` show of an open session: its account (`QueryEngine.account()`, the one account
 * in timeline/session-account.ts) and, after a compaction, the estimate `/context` shows.
 */
import { formatPauseSummary, summariseSessionPauses } from "../../../cache/index.js";
import type { QueryEngine } from "../../../engine/query-engine.js";
import { modelLimits } from "../../../messages/index.js";
import { contextReportInput, estimateNextRequest } from "../slash/context-report.js";
import type { SessionStats } from "./status-line.js";

/** The status line's and /cost's figures for an open session. */
export function sessionStats(engine: QueryEngine): SessionStats {
  const account = engine.account();
  const input = contextReportInput(engine);
  const pauses = summariseSessionPauses(engine.timeline.entries);
  return {
    // After a compaction (or before any response) the estimate /context shows, else what the server said.
    contextTokens: account.lastContextTokens ?? estimateNextRequest(input).total,
    // The budget /context and the loop read (compaction/budget/context-thresholds.ts), in the server's tokens.
    contextWindow: input.thresholds.server.window,
    thresholds: input.thresholds.server,
    totals: account.usage,
    turnMillis: account.turnMillis,
    toolCalls: account.toolCalls,
    toolErrors: account.toolErrors,
    turns: account.prompts,
    model: engine.model,
    ...(pauses !== undefined
      ? {
          pauses: formatPauseSummary(pauses, modelLimits(engine.model, engine.config.modelOverrides).inputPricePerMTok),
        }
      : {}),
  };
}
