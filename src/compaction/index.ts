/**
 * Compaction: the tiers (snip, microcompact, collapse, autocompact) in rooms named for their ideas, each entered
 * through its own index.ts (docs/ARCHITECTURE.md "Rooms inside the folders"); at the top the contract every tier
 * implements, the pass that runs them, the settings, the record chain and the projected view.
 */

export * from "./autocompact/index.js";
export * from "./budget/index.js";
export * from "./collapse/index.js";
export * from "./microcompact/index.js";
export * from "./overflow/index.js";
export { projectApiView } from "./project-view.js";
export { RecordChain } from "./record-chain.js";
export * from "./results/index.js";
export { COMPACTION_TIERS, runCompactionTiers } from "./run-tiers.js";
export {
  autoCompactOverridesFromEnv,
  type CompactionSettings,
  compactionSettingsFromEnv,
  DEFAULT_COMPACTION_SETTINGS,
  DEFAULT_KEEP_RECENT,
  DEFAULT_TIME_BASED_GAP_MS,
  effectiveBatchKeepRecent,
} from "./settings.js";
export * from "./snip/index.js";
export * from "./summary/index.js";
export * from "./tail/index.js";
export type { OverflowFacts, OverflowOutcome, OverflowReason, Tier } from "./tier.js";
export type { AutoCompactSession, CompactionInput, CompactionNotesSnapshot, CompactionOutput } from "./types.js";
