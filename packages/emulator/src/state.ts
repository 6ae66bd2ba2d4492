/**
 * What one running emulator holds: resolved options and the parts every handler shares.
 */

import type { CacheDiagnostics } from "./billing/cache-diagnostics.js";
import type { CacheLedger } from "./billing/ledger.js";
import type { FaultPlan } from "./model/faults.js";
import type { IdGenerator } from "./model/random.js";
import type { ScriptedModel } from "./model/scripted-model.js";
import type { RequestLog } from "./request-log.js";
import type { TokenRuler } from "./ruler.js";
import type { CompatibleUsage, EmulatorMode, PrefixCache } from "./wire/compatible.js";

export interface EmulatorState {
  readonly ledger: CacheLedger;
  /** Request fingerprints by response id, for cache diagnostics. */
  readonly cacheDiagnostics: CacheDiagnostics;
  readonly log: RequestLog;
  readonly model: ScriptedModel;
  readonly faults: FaultPlan;
  readonly ids: IdGenerator;
  /** Seeded generator for chunk splits. */
  readonly random: () => number;
  readonly now: () => number;
  /** Every token count the emulator makes: the tokenizer, scaled by `tokenRatio`. */
  readonly ruler: TokenRuler;
  readonly settings: {
    readonly lenient: boolean;
    readonly retryAfterSeconds: number;
    readonly contextWindow: number | undefined;
    readonly maxRequestBytes: number;
    readonly apiKey: string | undefined;
    readonly cacheEditing: boolean;
    readonly signatureSecret: string;
    readonly verifySignatures: boolean;
    readonly strictModels: boolean;
    readonly requireBetas: boolean;
    readonly stallMs: number;
    readonly mode: EmulatorMode;
    readonly compatibleUsage: CompatibleUsage;
  };
  /** Emulator-only features in force, announced in `x-emulator-features` (empty: the public API). */
  readonly features: readonly string[];
  /** Compatible mode's single-slot prefix cache. */
  readonly prefixCache: PrefixCache;
  /** Count of `POST /v1/messages` requests so far. */
  messagesRequests: number;
  /** Requests that broke at least one rule, and faults injected. */
  violationRequests: number;
  faultsInjected: number;
  /** Timers and sockets of stalled streams, released on close. */
  readonly stalls: Set<() => void>;
}
