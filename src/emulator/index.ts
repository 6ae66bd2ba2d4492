/**
 * threadline's local Anthropic Messages API emulator: contract validator, SSE, prompt-cache ledger,
 * scripted model and fault injection. Imports nothing from the project but `messages/`.
 */
export { EMULATOR_HELP, runEmulatorCommand } from "./cli.js";
export {
  type CompatibleUsage,
  compatibleToolId,
  DEFAULT_COMPATIBLE_USAGE,
  DEFAULT_EMULATOR_MODE,
  type EmulatorMode,
  EXCEED_CONTEXT_SIZE_ERROR,
} from "./compatible.js";
export { type AppliedEdit, applyContextManagement } from "./context-management.js";
export { visibleText } from "./effective-request.js";
export { ERROR_TYPE_BY_STATUS } from "./errors.js";
export { FaultPlan } from "./faults.js";
export { type FlatBlock, flattenRequest } from "./flatten.js";
export {
  CACHE_LOOKBACK_BLOCKS,
  CacheLedger,
  type CacheUsage,
  FIVE_MINUTES_MS,
  type LedgerEntry,
  type LedgerResult,
  ONE_HOUR_MS,
} from "./ledger.js";
export { DEFAULT_MAX_REREADS, isNeedVisible, type Need } from "./needs.js";
export {
  CACHE_EDITING_FEATURE,
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_SEED,
  DEFAULT_STALL_MS,
  EMULATOR_FEATURES_HEADER,
  type EmulatorOptions,
} from "./options.js";
export type { RequestLogEntry } from "./request-log.js";
export { estimateRequestTokens } from "./request-tokens.js";
export type { EmulatorRequest } from "./request-types.js";
export type { ResponseMessage, ResponseUsage } from "./response.js";
export {
  FAULT_KINDS,
  type FaultKind,
  type FaultSpec,
  loadScenarioFile,
  parseScenario,
  type ScenarioFile,
  ScenarioFileSchema,
  type ScenarioStep,
  scenarioJsonSchema,
  type Turn,
  type TurnBlock,
  type TurnObject,
} from "./scenario.js";
export { classifyRequest, ScriptedModel } from "./scripted-model.js";
export { type Emulator, type EmulatorStats, startEmulator } from "./server.js";
export { DEFAULT_SIGNATURE_SECRET, signThinking, verifyThinking } from "./signature.js";
export { buildStreamEvents, type StreamEvent } from "./sse.js";
export { defaultSummary, SUMMARY_SECTIONS } from "./summary-text.js";
export {
  DEFAULT_MAX_REQUEST_BYTES,
  type ValidateOptions,
  type Violation,
  validateRequest,
} from "./validator.js";
