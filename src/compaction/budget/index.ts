/**
 * The window and its numbers: the session's ContextBudget (the one owner of the window), the thresholds of a window,
 * and the token estimate of entries. The names used outside src/compaction/.
 */

export { type BudgetLimits, budgetLimits, ContextBudget, reportedInputTokens } from "./context-budget.js";
export * from "./context-thresholds.js";
export { estimateEntriesTokens, estimateEntryTokens } from "./entry-tokens.js";
export {
  autoCompactBufferTokens,
  autoCompactThreshold,
  blockingLimit,
  calculateTokenWarningState,
  compactionTargetTokens,
  effectiveContextWindow,
  tokenCountWithEstimation,
  warningThreshold,
} from "./thresholds.js";
