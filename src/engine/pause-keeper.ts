/**
 * Pays for the person's pauses (docs/PROMPT-CACHE.md, "Pauses"): picks each turn's cache TTL before the turn,
 * records the choice when it ends, and — in interactive mode only, while a person is at the terminal — keeps
 * the cached prefix warm with one-token requests that re-read it just before it expires, as long as the pause
 * policy says that still pays. Never in print mode, never past the user's limit, stopped by the next prompt,
 * by `stop()` and when the engine closes. Each refresh is billed as a `keep-warm` side request.
 */
import {
  choosePausePolicy,
  DEFAULT_KEEP_WARM_LIMIT_MS,
  lastTurnOneHourWrites,
  type PauseChoice,
  type PauseSettings,
  type PauseSituation,
  pauseHistory,
  refreshInterval,
  refreshStillPays,
} from "../cache/index.js";
import type { LoopConfig } from "../loop/query-context.js";
import { failedRequestRecord } from "../loop/recovery/failed-requests.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import {
  modelLimits,
  type PauseChoiceRecord,
  type SideRequestRecord,
  type TimelineEntry,
  type Usage,
} from "../messages/index.js";
import { type Provider, ProviderError } from "../provider/index.js";
import { type AssembledRequest, serverFeaturesFromEntries } from "../request/index.js";
import type { PauseClock, PauseOptions } from "./engine-options.js";

export const REAL_CLOCK: PauseClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => {
    const handle = setTimeout(callback, ms);
    // A pending refresh never keeps a finished process alive.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface PauseKeeperOptions extends PauseSettings {
  provider: Provider;
  sessionId: string;
  /** Whether a person is at the terminal now (interactive mode); absent or false: keep-warm never runs. */
  personPresent?: () => boolean;
  /** Longest keep-warm run after a turn, in ms. Default DEFAULT_KEEP_WARM_LIMIT_MS (60 minutes). */
  keepWarmLimitMs?: number;
  clock?: PauseClock;
  /** Appends a record (the engine's recorder). */
  record: (entry: TimelineEntry) => void;
  /** The session's entries, oldest first. */
  entries: () => readonly TimelineEntry[];
  /** Whether the session switched the 1-hour TTL off (the server refused it). */
  oneHourRefused: () => boolean;
  /** Told once per failed refresh (the keeper stops until the next turn). */
  onRefreshError?: (message: string) => void;
  /** Gaps from earlier sessions, oldest first (PauseOptions.earlierGapsMs). */
  earlierGapsMs?: readonly number[];
}

/** Output price over input price, for refresh costs; every current Claude model charges 5×. */
function outputRatio(model: string): number {
  const limits = modelLimits(model);
  return limits.inputPricePerMTok > 0 ? limits.outputPricePerMTok / limits.inputPricePerMTok : 5;
}

/**
 * Puts a turn's TTLs on the session's loop config, unless the engine's `cacheTtl` option forces one: the
 * conversation's, and the system prompt's where the cold-start hedge holds it longer.
 */
export function applyTurnTtls(
  config: Pick<LoopConfig, "cacheTtl" | "prefixCacheTtl">,
  ttls: { ttl: "5m" | "1h"; prefixTtl: "5m" | "1h" },
  forced: "5m" | "1h" | undefined,
): void {
  if (forced !== undefined) return;
  config.cacheTtl = ttls.ttl;
  if (ttls.prefixTtl === ttls.ttl) delete config.prefixCacheTtl;
  else config.prefixCacheTtl = ttls.prefixTtl;
}

export class PauseKeeper {
  readonly #options: PauseKeeperOptions;
  readonly #clock: PauseClock;
  #last: { request: AssembledRequest; at: number } | undefined;
  #turnTtl: "5m" | "1h" = "5m";
  #turnPrefixTtl: "5m" | "1h" = "5m";
  #turnChoice: PauseChoice | undefined;
  #timer: unknown;
  #generation = 0;
  #refreshing: Promise<void> | undefined;

  constructor(options: PauseKeeperOptions) {
    this.#options = options;
    this.#clock = options.clock ?? REAL_CLOCK;
  }

  /** The lifetimes the server offers; none: pauses are not priced. */
  get #ttls(): readonly ("5m" | "1h")[] {
    return this.#options.provider.capabilities.cacheTtls ?? ["5m"];
  }

  #situation(model: string, forRefresh?: AssembledRequest): PauseSituation {
    const history = pauseHistory(this.#options.entries());
    const thinking = forRefresh?.body.thinking;
    const budget = thinking !== undefined && thinking.type === "enabled" ? thinking.budget_tokens : 0;
    // Before any response the size is unknown, and a new session's first turn writes all it holds: the two are
    // equal, and only their ratio weighs one-hour against expire (earlier sessions' gaps make that choice real).
    const unseen = history.contextTokens === 0;
    return {
      contextTokens: unseen ? 1 : history.contextTokens,
      turnWriteTokens: unseen ? 1 : history.turnWriteTokens,
      refreshOutputTokens: budget + 1,
      outputRatio: outputRatio(model),
      cacheReadRatio: modelLimits(model).cacheReadMultiplier,
      oneHourOffered: this.#ttls.includes("1h") && !this.#options.oneHourRefused(),
      keepWarmAllowed: this.#ttls.length > 0 && this.#options.personPresent?.() === true,
      keepWarmLimitMs: this.#options.keepWarmLimitMs ?? DEFAULT_KEEP_WARM_LIMIT_MS,
    };
  }

  /**
   * Called as a turn starts: stops any keep-warm (the person is back) and returns the TTL for the turn's
   * requests — 1 hour when the expected pause after it makes that the cheapest way to pay.
   */
  turnStarting(model: string): { ttl: "5m" | "1h"; prefixTtl: "5m" | "1h" } {
    this.stop();
    if (this.#ttls.length === 0) {
      this.#turnChoice = undefined;
      this.#turnTtl = "5m";
      this.#turnPrefixTtl = "5m";
    } else {
      const choice = choosePausePolicy(this.#gaps(), this.#situation(model), this.#settings());
      this.#turnChoice = choice;
      this.#turnTtl = choice.ttl;
      this.#turnPrefixTtl = choice.prefixTtl;
    }
    return { ttl: this.#turnTtl, prefixTtl: this.#turnPrefixTtl };
  }

  /** Every request the turn sends; the last one is what keep-warm re-sends. */
  requestSent(request: AssembledRequest): void {
    this.#last = { request, at: this.#clock.now() };
  }

  /**
   * Called when a turn has ended: decides how the pause after it is paid (with this turn's real context),
   * records the choice, and starts keep-warm when that is the choice.
   */
  turnEnded(model: string): void {
    if (this.#ttls.length === 0 || this.#last === undefined) return;
    const gaps = this.#gaps();
    const situation = this.#situation(model, this.#last.request);
    let choice = this.#turnChoice ?? choosePausePolicy(gaps, situation, this.#settings());
    if (this.#turnTtl === "5m") {
      // With the turn's real context known, keep-warm and expire are weighed again (the TTL is already spent).
      const again = choosePausePolicy(gaps, { ...situation, oneHourOffered: false }, this.#settings());
      choice = { ...again, expected: { ...choice.expected, ...again.expected } };
    }
    const record: PauseChoiceRecord = {
      type: "pause-choice",
      policy: choice.policy,
      ttl: this.#turnTtl,
      ...(this.#turnPrefixTtl !== this.#turnTtl
        ? { prefixTtl: this.#turnPrefixTtl, prefixTokens: lastTurnOneHourWrites(this.#options.entries()) }
        : {}),
      forced: choice.forced,
      expected: roundAll(choice.expected),
      contextTokens: situation.contextTokens,
      turnWriteTokens: situation.turnWriteTokens,
      timestamp: new Date(this.#clock.now()).toISOString(),
      sessionId: this.#options.sessionId,
    };
    this.#options.record(record);
    if (choice.policy === "keep-warm" && choice.refreshes > 0) this.#schedule(1, model, choice.forced);
  }

  /** Stops keep-warm (the person is back, left, or the engine closes). */
  stop(): void {
    this.#generation++;
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Resolves when a refresh in flight has been billed (tests, close). */
  async settled(): Promise<void> {
    await this.#refreshing;
  }

  /** The person's gaps: earlier sessions' first (a `-p` session starts with its habits), then this one's. */
  #gaps(): number[] {
    const own = pauseHistory(this.#options.entries()).gapsMs;
    const earlier = this.#options.earlierGapsMs;
    return earlier === undefined || earlier.length === 0 ? own : [...earlier, ...own];
  }

  #settings(): PauseSettings {
    return {
      ...(this.#options.cacheTtl !== undefined ? { cacheTtl: this.#options.cacheTtl } : {}),
      ...(this.#options.keepWarm !== undefined ? { keepWarm: this.#options.keepWarm } : {}),
    };
  }

  #schedule(index: number, model: string, forced: boolean): void {
    const last = this.#last;
    if (last === undefined) return;
    const situation = this.#situation(model, last.request);
    const due = last.at + index * refreshInterval(situation);
    const generation = this.#generation;
    this.#timer = this.#clock.setTimeout(
      () => {
        this.#timer = undefined;
        if (generation !== this.#generation) return;
        this.#refreshing = this.#refresh(index, model, forced, generation);
      },
      Math.max(0, due - this.#clock.now()),
    );
  }

  async #refresh(index: number, model: string, forced: boolean, generation: number): Promise<void> {
    const last = this.#last;
    if (last === undefined || this.#options.personPresent?.() !== true) return;
    const situation = this.#situation(model, last.request);
    const gaps = this.#gaps();
    if (!refreshStillPays(gaps, situation, index, forced)) return;
    const usage = await this.#send(last.request, situation.refreshOutputTokens);
    if (usage === undefined || generation !== this.#generation) return;
    const record: SideRequestRecord = {
      type: "side-request",
      purpose: "keep-warm",
      model: last.request.body.model,
      usage,
      timestamp: new Date(this.#clock.now()).toISOString(),
      sessionId: this.#options.sessionId,
    };
    this.#options.record(record);
    this.#schedule(index + 1, model, forced);
  }

  /** The last request again, byte-identical up to its breakpoints, asking for as little output as it may. */
  async #send(request: AssembledRequest, maxTokens: number): Promise<Usage | undefined> {
    const body = { ...request.body, max_tokens: maxTokens };
    const refresh: AssembledRequest = { body, betas: request.betas, json: JSON.stringify(body) };
    const failed = (error: ProviderError, retried: boolean): void => {
      const now = new Date(this.#clock.now());
      const record = failedRequestRecord(
        { purpose: "keep-warm", model: body.model, error, retried },
        this.#options.sessionId,
        now,
      );
      if (record !== undefined) this.#options.record(record);
    };
    try {
      let usage: Usage | undefined;
      for await (const event of this.#options.provider.stream(refresh)) {
        if (event.type === "message_end") usage = event.usage;
        if (event.type === "retry") failed(event.error, true);
      }
      return usage;
    } catch (error) {
      if (error instanceof ProviderError) failed(error, false);
      this.#options.onRefreshError?.(`keep-warm request failed: ${(error as Error).message}`);
      return undefined;
    }
  }
}

function roundAll(
  values: Partial<Record<string, number>>,
): Partial<Record<"expire" | "one-hour" | "keep-warm", number>> {
  const result: Partial<Record<"expire" | "one-hour" | "keep-warm", number>> = {};
  for (const [name, value] of Object.entries(values))
    if (value !== undefined && Number.isFinite(value)) result[name as "expire"] = Math.round(value);
  return result;
}

/** The keeper for an engine's options; its records go through `record`. */
export function pauseKeeperFor(
  options: PauseOptions | undefined,
  parts: Pick<PauseKeeperOptions, "provider" | "sessionId" | "record" | "entries" | "oneHourRefused">,
): PauseKeeper {
  return new PauseKeeper({
    ...parts,
    ...(options?.cacheTtl !== undefined ? { cacheTtl: options.cacheTtl } : {}),
    ...(options?.keepWarm !== undefined ? { keepWarm: options.keepWarm } : {}),
    ...(options?.keepWarmLimitMinutes !== undefined ? { keepWarmLimitMs: options.keepWarmLimitMinutes * 60_000 } : {}),
    ...(options?.personPresent !== undefined ? { personPresent: options.personPresent } : {}),
    ...(options?.clock !== undefined ? { clock: options.clock } : {}),
    ...(options?.earlierGapsMs !== undefined ? { earlierGapsMs: options.earlierGapsMs } : {}),
  });
}

/**
 * The keeper of a session whose records `recorder` writes, flushed at once (a keep-warm request can come while
 * the person is away); the 1-hour TTL is off once the server refused it (a `feature-off` record).
 */
export function sessionPauseKeeper(
  options: PauseOptions | undefined,
  provider: Provider,
  recorder: TurnRecorder,
): PauseKeeper {
  const { timeline, transcript } = recorder;
  return pauseKeeperFor(options, {
    provider,
    sessionId: recorder.sessionId,
    record: (entry) => {
      recorder.append(entry);
      void transcript.flush();
    },
    entries: () => timeline.entries,
    oneHourRefused: () => serverFeaturesFromEntries(timeline.entries).has("cache_ttl_1h"),
  });
}
