/**
 * Compaction through one door: the three entrances (manual, automatic, reactive), the summary request (a cache-safe
 * fork, else the rewritten conversation), the artifact trail and the files restored after it. The names used outside
 * src/compaction/.
 */

export { buildArtifactTrail, renderArtifactTrail } from "./artifact-trail.js";
export { type CompactRequest, compactByHand } from "./compact-entrances.js";
export type { ForkFailure, ForkRequest, ForkResult, ForkRunner, SideRequestBill } from "./fork-runner.js";
export { restoreRecentFiles } from "./post-compact-restore.js";
export { cacheSafeForkMessages, forkInputRoom } from "./summary-fork.js";
export { DEFAULT_MAX_PTL_RETRIES, dropOldestRounds, summaryTooShort } from "./summary-input.js";
export {
  COMPACT_SUMMARY_PREFIX,
  compactSummaryText,
  DEFAULT_SUMMARY_MAX_TOKENS,
  extractSummary,
  replaceMediaWithPlaceholders,
  summaryInstruction,
} from "./summary-request.js";
