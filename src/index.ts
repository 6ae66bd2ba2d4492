/** threadline's public entry: what library users import. */
export { CacheBreakDetector, fingerprintRequest } from "./cache/index.js";
export type { CompactionSettings } from "./compaction/index.js";
export { compactionSettingsFromEnv, createSnipTool, DEFAULT_COMPACTION_SETTINGS } from "./compaction/index.js";
export { type EmulatorOptions, startEmulator, validateRequest } from "./emulator/index.js";
export { QueryEngine, type QueryEngineOptions, type SubmitOptions } from "./engine/query-engine.js";
export type { ContinueReason, EngineEvent, TerminalReason, TurnUsage } from "./loop/events.js";
export * from "./messages/index.js";
export {
  AnthropicProvider,
  BEDROCK_PROFILE,
  BedrockProvider,
  classifyError,
  createProvider,
  type PlatformName,
  PROVIDER_PROFILES,
  type ProviderProfile,
  providerProfile,
  VERTEX_PROFILE,
  VertexProvider,
} from "./provider/index.js";
export * from "./provider/types.js";
export { assembleRequest, normalizeMessagesForAPI, toolDefinitions } from "./request/index.js";
export type * from "./request/types.js";
export * from "./timeline/index.js";
export {
  bashTool,
  defaultTools,
  editTool,
  globTool,
  grepTool,
  readTool,
  runTool,
  writeTool,
} from "./tools/index.js";
export type { PermissionMode, PermissionPolicy } from "./tools/permissions.js";
export type * from "./tools/types.js";
export {
  JsonlTranscriptStore,
  listSessions,
  loadTranscript,
  MemoryTranscriptStore,
  PgSessionDatabase,
  PgTranscriptStore,
  resumeSession,
  StoreError,
  THREADLINE_STORE_ENV,
  type TranscriptStore,
} from "./transcript/index.js";
