export {
  CacheBreakDetector,
  type CacheBreakDetectorOptions,
  MAIN_SCOPE,
  type ScopeCacheStats,
} from "./break-detector.js";
export { CACHE_BREAK_NOTICE_PREFIX, describeCacheBreak, parseCacheBreakNotice } from "./break-notice.js";
export {
  type BreakRuleOptions,
  type CacheBreak,
  type CacheBreakKind,
  DEFAULT_BREAK_RATIO,
  DEFAULT_MIN_DROP_TOKENS,
  formatDuration,
  isCacheBreak,
  TTL_1H_MS,
  TTL_5M_MS,
} from "./cache-break.js";
export { formatCacheReport, hitRatio } from "./cache-report.js";
export { changedDimensions, explainChanges } from "./explain-changes.js";
export { type Fingerprint, fingerprintRequest, type RequestSnapshot, snapshotRequest } from "./fingerprint.js";
export { lastTurnOneHourWrites, type PauseHistory, pauseHistory } from "./pause-history.js";
export {
  choosePausePolicy,
  coldStartHedge,
  DEFAULT_KEEP_WARM_LIMIT_MS,
  hedgeCost,
  hindsight,
  type PauseChoice,
  type PausePolicyName,
  type PauseSettings,
  type PauseSituation,
  pauseCost,
  refreshInterval,
  refreshStillPays,
} from "./pause-policy.js";
export {
  formatPauseSummary,
  type PauseChoiceShape,
  type PauseSummary,
  summarisePauses,
  summariseSessionPauses,
} from "./pause-report.js";
export {
  clientAgreesWithServer,
  describeServerCacheMiss,
  SERVER_PREFIX_CHANGES,
  type ServerCacheMissReason,
} from "./server-cache-miss.js";
export { unifiedDiff } from "./unified-diff.js";
