/**
 * @threadline/emulator: a local Anthropic Messages API: contract validator, SSE, prompt-cache ledger, scripted
 * model and fault injection. It imports nothing of threadline's client (test/architecture/import-rules.test.ts)
 * and counts tokens with its own tokenizer (ruler.ts), so a client tested against it is judged from outside.
 */

export { type AppliedEdit, applyContextManagement } from "./billing/context-management.js";
export { type FlatBlock, flattenRequest } from "./billing/flatten.js";
export {
  CACHE_LOOKBACK_BLOCKS,
  CacheLedger,
  type CacheUsage,
  FIVE_MINUTES_MS,
  type LedgerEntry,
  type LedgerResult,
  ONE_HOUR_MS,
} from "./billing/ledger.js";
export { EMULATOR_HELP, runEmulatorCommand } from "./cli.js";
export { visibleText } from "./model/effective-request.js";
export { FaultPlan } from "./model/faults.js";
export { DEFAULT_MAX_REREADS, isNeedVisible, type Need } from "./model/needs.js";
export { type CutReply, cutAtMaxTokens } from "./model/output-limit.js";
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
} from "./model/scenario.js";
export { classifyRequest, ScriptedModel } from "./model/scripted-model.js";
export { DEFAULT_SIGNATURE_SECRET, signThinking, verifyThinking } from "./model/signature.js";
export { defaultSummary, SUMMARY_SECTIONS } from "./model/summary-text.js";
export {
  declaredWebSearch,
  searchCorpus,
  WEB_SEARCH_MAX_RESULTS,
  WEB_SEARCH_TOOL_TYPES,
  type WebSearchDocument,
} from "./model/web-search.js";
export {
  CACHE_EDITING_FEATURE,
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_SEED,
  DEFAULT_STALL_MS,
  EMULATOR_FEATURES_HEADER,
  type EmulatorOptions,
} from "./options.js";
export type { RequestLogEntry } from "./request-log.js";
export type { EmulatorRequest } from "./request-types.js";
export {
  IMAGE_TOKEN_CAP,
  imageTokens,
  PDF_PAGE_TOKENS,
  PIXELS_PER_IMAGE_TOKEN,
  TokenRuler,
  tokenizerCount,
} from "./ruler.js";
export { type Emulator, type EmulatorStats, startEmulator } from "./server.js";
export {
  DEFAULT_MAX_REQUEST_BYTES,
  type ValidateOptions,
  type Violation,
  validateRequest,
} from "./validator/index.js";
export {
  type CompatibleUsage,
  compatibleToolId,
  DEFAULT_COMPATIBLE_USAGE,
  DEFAULT_EMULATOR_MODE,
  type EmulatorMode,
  EXCEED_CONTEXT_SIZE_ERROR,
} from "./wire/compatible.js";
export { ERROR_TYPE_BY_STATUS } from "./wire/errors.js";
export { firstPartyModel } from "./wire/platform-routes.js";
export type { ResponseMessage, ResponseUsage } from "./wire/response.js";
export { buildStreamEvents, type StreamEvent } from "./wire/sse.js";
