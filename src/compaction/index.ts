/** Compaction: the four tiers (snip, microcompact, collapse, autocompact) and the window thresholds. */
export * from "./api-rounds.js";
export * from "./artifact-trail.js";
export * from "./autocompact.js";
export { planRoomClear, type RoomClear, recordRoomClear } from "./clear-for-room.js";
export { clearedPlaceholder } from "./cleared-placeholder.js";
export * from "./collapse/apply-collapses.js";
export * from "./collapse/collapse-log.js";
export * from "./collapse/collapsible-spans.js";
export * from "./collapse/ctx-agent.js";
export * from "./collapse/stage-collapses.js";
export { type CompactRequest, compactByHand } from "./compact-by-hand.js";
export * from "./compact-conversation.js";
export * from "./compactable-results.js";
export * from "./context-budget.js";
export * from "./context-thresholds.js";
export * from "./entry-tokens.js";
export type { ForkFailure, ForkRequest, ForkResult, ForkRunner, SideRequestBill } from "./fork-runner.js";
export { currentPrompt, KEPT_PROMPT_LABEL, keptPromptSection } from "./kept-prompt.js";
export type { CachedDeleteBatch, CachedDeleteInput } from "./microcompact/cached.js";
export {
  cachedDeleteBudget,
  DEFAULT_CACHE_READ_RETENTION,
  DEFAULT_MIN_CACHED_BATCH_TOKENS,
  deletedCacheReferences,
  planCachedDeletes,
} from "./microcompact/cached.js";
export {
  CONTEXT_MANAGEMENT_TRIGGER_AUTOCOMPACT_RATIO,
  clearToolUsesEdit,
  contextManagementTrigger,
  excludedToolNames,
} from "./microcompact/context-management.js";
export { cacheEditingEnabled, runMicrocompact } from "./microcompact/run-microcompact.js";
export type { TimeBasedClear, TimeBasedClearInput } from "./microcompact/time-based.js";
export { lastAssistantTime, planTimeBasedClear, timeClearedToolIds } from "./microcompact/time-based.js";
export { cutOverflowStep, OVERFLOW_CUT_WHY } from "./overflow-cut.js";
export { clearOverflowStep, dropOverflowStep, droppedRoundsMarker } from "./overflow-steps.js";
export * from "./post-compact-restore.js";
export { projectApiView } from "./project-view.js";
export { RecordChain } from "./record-chain.js";
export { COMPACTION_TIERS, runCompactionTiers } from "./run-tiers.js";
export * from "./settings.js";
export { CONTEXT_EFFICIENCY_ATTACHMENT, contextEfficiencyNudge, contextGrowth } from "./snip/nudge.js";
export { snipClosure } from "./snip/snip-closure.js";
export type { SnipPlan, SnipPlanOptions } from "./snip/snip-plan.js";
export { planSnip, SNIP_TOOL_NAME } from "./snip/snip-plan.js";
export type { SnipInput, SnipToolOptions } from "./snip/snip-tool.js";
export { createSnipTool, snipInputSchema } from "./snip/snip-tool.js";
export { cacheSafeForkMessages, DEFAULT_FORK_FIT_SLACK, forkInputRoom, lastResponseIndex } from "./summary-fork.js";
export * from "./summary-input.js";
export * from "./summary-request.js";
export * from "./tail-budget.js";
export * from "./thresholds.js";
export type {
  OverflowFacts,
  OverflowOutcome,
  OverflowReason,
  OverflowStep,
  Tier,
  TierOutput,
  TierPass,
} from "./tier.js";
export type {
  AutoCompactSession,
  CompactionCapabilities,
  CompactionInput,
  CompactionOutput,
  SessionMemorySnapshot,
} from "./types.js";
