/**
 * Two-phase prompt-cache break detection, per scope (the main loop or one subagent):
 * phase 1 (`beforeRequest`) snapshots the request's fingerprint; phase 2 (`afterResponse`) compares the
 * reported cache read with the previous response's and, on a break, explains it by the dimensions that
 * changed, else by TTL expiry, else as likely server-side.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Usage } from "../messages/index.js";
import type { AssembledRequest } from "../request/index.js";
import { writeBreakDiff } from "./break-diff.js";
import { describeCacheBreak } from "./break-notice.js";
import {
  type BreakRuleOptions,
  type CacheBreak,
  formatDuration,
  isCacheBreak,
  TTL_1H_MS,
  TTL_5M_MS,
} from "./cache-break.js";
import { explainChanges, PREFIX_DIMENSIONS } from "./explain-changes.js";
import { type RequestSnapshot, snapshotRequest } from "./fingerprint.js";
import { describeServerCacheMiss, SERVER_PREFIX_CHANGES, type ServerCacheMissReason } from "./server-cache-miss.js";

/** Scope used when the caller names none: the main conversation. */
export const MAIN_SCOPE = "main";

/** Directory diff files go to unless `diffDir` says otherwise. */
function defaultDiffDir(): string {
  return join(tmpdir(), "threadline-cache-diffs");
}

export interface CacheBreakDetectorOptions extends BreakRuleOptions {
  /** Where before/after diffs are written. Defaults to `os.tmpdir()/threadline-cache-diffs`. */
  diffDir?: string;
  /** Clock in epoch milliseconds. Defaults to `Date.now`. */
  now?: () => number;
}

/** Running totals of one scope, for the `/cache` report. */
export interface ScopeCacheStats {
  scope: string;
  requests: number;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  outputTokens: number;
  /** Cache read of the latest response (the current baseline). */
  lastCacheRead: number;
  breaks: CacheBreak[];
  /** Reasons given to `expectDrop`, in order. */
  expectedDrops: string[];
}

interface ScopeState {
  stats: ScopeCacheStats;
  /** The request whose response set the baseline. */
  baseline: { snapshot: RequestSnapshot | null; cacheRead: number; sentAt: number } | null;
  /** The request sent and not yet answered. */
  pending: { snapshot: RequestSnapshot; sentAt: number } | null;
  /**
   * Set by `expectDrop`: the next response may read less. `tokens` null: any drop (a compaction rewrote the
   * prefix); else at most that many tokens fewer (cache edits deleted them).
   */
  expectedDrop: { reason: string; tokens: number | null } | null;
}

export class CacheBreakDetector {
  readonly #diffDir: string;
  readonly #now: () => number;
  readonly #rule: BreakRuleOptions;
  readonly #scopes = new Map<string, ScopeState>();
  #diffSequence = 0;

  /** `diffDir` defaults to `os.tmpdir()/threadline-cache-diffs`, `now` to `Date.now`, thresholds to the DEFAULT_* rule. */
  constructor(options: CacheBreakDetectorOptions = {}) {
    this.#diffDir = options.diffDir ?? defaultDiffDir();
    this.#now = options.now ?? Date.now;
    this.#rule = {};
    if (options.ratio !== undefined) this.#rule.ratio = options.ratio;
    if (options.minDropTokens !== undefined) this.#rule.minDropTokens = options.minDropTokens;
  }

  /** Phase 1: fingerprint the request about to be sent (scope defaults to "main"). */
  beforeRequest(request: AssembledRequest, scope: string = MAIN_SCOPE): void {
    this.#state(scope).pending = { snapshot: snapshotRequest(request), sentAt: this.#now() };
  }

  /**
   * Phase 2: compare this response's cache read with the baseline; returns the break, if any, and moves the
   * baseline. `serverReason` (default none): the response's cache diagnostics, preferred over the client's
   * guess where it names a cause.
   */
  afterResponse(usage: Usage, scope: string = MAIN_SCOPE, serverReason?: ServerCacheMissReason): CacheBreak | null {
    const state = this.#state(scope);
    const cacheRead = usage.cache_read_input_tokens ?? 0;
    const pending = state.pending ?? { snapshot: null, sentAt: this.#now() };
    state.pending = null;
    addUsage(state.stats, usage);

    const baseline = state.baseline;
    state.baseline = { snapshot: pending.snapshot, cacheRead, sentAt: pending.sentAt };
    state.stats.lastCacheRead = cacheRead;
    const expected = state.expectedDrop;
    state.expectedDrop = null;
    if (baseline === null) return null;
    // An expected drop of known size is measured from the baseline minus what was meant to go.
    // The server names a change outside the messages (or, with nothing expected, in them): its word is final.
    const serverNamesCause =
      serverReason !== undefined &&
      (SERVER_PREFIX_CHANGES[serverReason.type] !== undefined ||
        (expected === null && serverReason.type === "messages_changed"));
    const floor =
      serverNamesCause || expected?.tokens === undefined || expected.tokens === null
        ? baseline.cacheRead
        : Math.max(0, baseline.cacheRead - expected.tokens);
    if (!isCacheBreak(floor, cacheRead, this.#rule)) return null;
    const bothSnapshots = baseline.snapshot !== null && pending.snapshot !== null;
    // While a drop is expected, only a change no compaction or clear makes (system, tools, model) explains it.
    const prefixCauses =
      expected !== null && bothSnapshots
        ? explainChanges(baseline.snapshot!, pending.snapshot!, PREFIX_DIMENSIONS)
        : [];
    if (!serverNamesCause && expected?.tokens === null && prefixCauses.length === 0) return null;

    const gapMs = pending.sentAt - baseline.sentAt;
    const cacheBreak: CacheBreak = {
      scope,
      previousCacheRead: baseline.cacheRead,
      cacheRead,
      drop: baseline.cacheRead - cacheRead,
      kind: "server_side",
      causes: ["likely server-side"],
      gapMs,
    };
    const causes = !bothSnapshots
      ? []
      : expected !== null
        ? prefixCauses
        : explainChanges(baseline.snapshot!, pending.snapshot!);
    const ttlMs = baseline.snapshot?.usesOneHourTtl ? TTL_1H_MS : TTL_5M_MS;
    if (serverNamesCause && serverReason !== undefined) {
      cacheBreak.kind = "client_change";
      cacheBreak.causes = [describeServerCacheMiss(serverReason), ...causes];
      if (bothSnapshots && causes.length > 0) {
        const diffPath = this.#writeDiff(scope, baseline.snapshot!, pending.snapshot!, causes);
        if (diffPath !== undefined) cacheBreak.diffPath = diffPath;
      }
    } else if (causes.length > 0 && baseline.snapshot !== null && pending.snapshot !== null) {
      cacheBreak.kind = "client_change";
      cacheBreak.causes = causes;
      const diffPath = this.#writeDiff(scope, baseline.snapshot, pending.snapshot, causes);
      if (diffPath !== undefined) cacheBreak.diffPath = diffPath;
    } else if (gapMs > ttlMs) {
      cacheBreak.kind = "ttl_expiry";
      cacheBreak.causes = [`TTL expiry: ${formatDuration(gapMs)} idle > ${formatDuration(ttlMs)} TTL`];
    }
    if (serverReason !== undefined && !serverNamesCause) cacheBreak.causes.push(describeServerCacheMiss(serverReason));
    state.stats.breaks.push(cacheBreak);
    return cacheBreak;
  }

  /**
   * The next response may read less (cache edits, compaction, clear, resume): not a break, unless the system
   * prompt, tools or model changed too, or, when `tokens` says how much was meant to go (cache edits), it
   * read less than that would explain. Default `tokens`: any drop. Two calls before one response add up.
   */
  expectDrop(reason: string, scope: string = MAIN_SCOPE, tokens?: number): void {
    const state = this.#state(scope);
    const previous = state.expectedDrop;
    const amount =
      tokens === undefined || previous?.tokens === null ? null : (previous?.tokens ?? 0) + Math.max(0, tokens);
    state.expectedDrop = { reason: previous === null ? reason : `${previous.reason}; ${reason}`, tokens: amount };
    state.stats.expectedDrops.push(reason);
  }

  /** One line for the system notice recording `cacheBreak`. */
  describe(cacheBreak: CacheBreak): string {
    return describeCacheBreak(cacheBreak);
  }

  /** Totals and breaks of every scope seen so far, main first. */
  stats(): ScopeCacheStats[] {
    const all = [...this.#scopes.values()].map((state) => ({
      ...state.stats,
      breaks: [...state.stats.breaks],
      expectedDrops: [...state.stats.expectedDrops],
    }));
    return all.sort((a, b) => (a.scope === MAIN_SCOPE ? -1 : b.scope === MAIN_SCOPE ? 1 : 0));
  }

  #state(scope: string): ScopeState {
    let state = this.#scopes.get(scope);
    if (state === undefined) {
      state = {
        stats: {
          scope,
          requests: 0,
          inputTokens: 0,
          cacheReadTokens: 0,
          cacheWriteTokens: 0,
          outputTokens: 0,
          lastCacheRead: 0,
          breaks: [],
          expectedDrops: [],
        },
        baseline: null,
        pending: null,
        expectedDrop: null,
      };
      this.#scopes.set(scope, state);
    }
    return state;
  }

  #writeDiff(scope: string, before: RequestSnapshot, after: RequestSnapshot, causes: string[]): string | undefined {
    this.#diffSequence++;
    const safeScope = scope.replace(/[^a-zA-Z0-9_-]/g, "-");
    const path = join(this.#diffDir, `break-${this.#now()}-${process.pid}-${this.#diffSequence}-${safeScope}.diff`);
    try {
      mkdirSync(this.#diffDir, { recursive: true });
      writeFileSync(path, writeBreakDiff(scope, before, after, causes));
      return path;
    } catch {
      // A diff we cannot write must not stop the conversation; the notice simply has no path.
      return undefined;
    }
  }
}

function addUsage(stats: ScopeCacheStats, usage: Usage): void {
  stats.requests++;
  stats.inputTokens += usage.input_tokens;
  stats.cacheReadTokens += usage.cache_read_input_tokens ?? 0;
  stats.cacheWriteTokens += usage.cache_creation_input_tokens ?? 0;
  stats.outputTokens += usage.output_tokens;
}
