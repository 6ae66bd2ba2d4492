/**
 * Emulator options, each with its default.
 */

import type { FaultSpec, ScenarioStep } from "./model/scenario.js";
import type { WebSearchDocument } from "./model/web-search.js";
import type { CompatibleUsage, EmulatorMode } from "./wire/compatible.js";

/** Default seconds in a 429's `retry-after` (small: tests must run fast; 0 is allowed). */
export const DEFAULT_RETRY_AFTER_SECONDS = 1;
/** How long a stalled stream stays silent before the emulator drops the connection. */
export const DEFAULT_STALL_MS = 30_000;
/**
 * Seed used when a caller wants reproducible ids but names no seed of its own. Without `seed`, each emulator
 * seeds itself from the clock, so ids differ per run as the API's do.
 */
export const DEFAULT_SEED = 1;
/** Response header naming the emulator-only features in force, e.g. `x-emulator-features: cache-editing`. */
export const EMULATOR_FEATURES_HEADER = "x-emulator-features";
/** The feature name `cacheEditing: true` announces. */
export const CACHE_EDITING_FEATURE = "cache-editing";

export interface EmulatorOptions {
  /** TCP port; default 0 (any free port). */
  port?: number;
  /** Bind address; loopback only (127.0.0.0/8, ::1, localhost), anything else throws. Default "127.0.0.1". */
  host?: string;
  /** Scripted turns for main-loop requests, in order; steps may be functions of the request. Default none (echo). */
  scenario?: readonly ScenarioStep[];
  /** Scenario JSON file (see scenario.ts); its turns follow `scenario`'s and its faults join `faults`. Default none. */
  scenarioFile?: string;
  /** Faults to inject. Default none. */
  faults?: readonly FaultSpec[];
  /** `retry-after` seconds on injected 429s. Default DEFAULT_RETRY_AFTER_SECONDS (1). */
  retryAfterSeconds?: number;
  /** Log violations without rejecting: the request is answered and its record lists them. Default false. */
  lenient?: boolean;
  /** Append every request record to this JSONL file. Default none (memory only). */
  logPath?: string;
  /** Clock in ms for cache TTLs and log times. Default Date.now. */
  now?: () => number;
  /** Context window for every model, overriding the model table. Default modelLimits(model).contextWindow. */
  contextWindow?: number;
  /**
   * Multiplies every token count (input, output, the window check, count_tokens, cache accounting) to stand in
   * for a server whose tokenizer counts more than the Claude tokenizer (ruler.ts). Positive; default 1.
   */
  tokenRatio?: number;
  /** Largest request body in bytes; larger gets 413. Default 32 MB. */
  maxRequestBytes?: number;
  /** When set, only this key is accepted (others get 401); otherwise any key. Default none. */
  apiKey?: string;
  /**
   * Accept `cache_edits` / `cache_reference` (an emulator-only feature) and announce it on every response with
   * `x-emulator-features: cache-editing`. Default false: the public API, where both are extra inputs.
   */
  cacheEditing?: boolean;
  /**
   * Pages the server web search finds when a request declares `web_search` (model/web-search.ts); no network.
   * Default none: every search answers `web_search_tool_result_error` `unavailable`.
   */
  webSearchCorpus?: readonly WebSearchDocument[];
  /** HMAC secret for thinking signatures (and web search results' `encrypted_content`). Default DEFAULT_SIGNATURE_SECRET. */
  signatureSecret?: string;
  /** Verify the latest assistant turn's thinking signatures. Default true. */
  verifySignatures?: boolean;
  /** Answer 404 for models the table does not know. Default false. */
  strictModels?: boolean;
  /** Require the context-management beta header for `context_management`. Default true. */
  requireBetas?: boolean;
  /** Treat requests without tools as side requests (a short answer, no step consumed). Default true. */
  sideRequestsWithoutTools?: boolean;
  /** Silence of a stalled stream before the connection is dropped, in ms. Default DEFAULT_STALL_MS. */
  stallMs?: number;
  /** Seed for ids and chunk splits; pass one (e.g. DEFAULT_SEED) for stable ids. Default: from the clock. */
  seed?: number;
  /**
   * "public": the public API's contract. "compatible": a third-party server like llama-server (ignores
   * cache_control and unknown fields, its own prefix-cache counts, non-`toolu_` ids, OpenAI-style errors
   * and overflow). Default DEFAULT_EMULATOR_MODE ("public").
   */
  mode?: EmulatorMode;
  /** Compatible mode only: usage counted, always zero, or zero on streams. Default DEFAULT_COMPATIBLE_USAGE ("counted"). */
  compatibleUsage?: CompatibleUsage;
}
