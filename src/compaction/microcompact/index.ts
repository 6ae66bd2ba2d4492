/**
 * Microcompact, tier 2: old tool results cleared (client-side, cache edits, or the server's context_management). The
 * names used outside src/compaction/.
 */

export {
  cachedDeleteBudget,
  DEFAULT_MIN_CACHED_BATCH_TOKENS,
  deletedCacheReferences,
  planCachedDeletes,
} from "./cached.js";
export { contextManagementTrigger } from "./context-management.js";
export { cacheEditingEnabled } from "./run-microcompact.js";
