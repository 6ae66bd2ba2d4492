/**
 * The one owner of "how many tokens is this, by the server's measure" (docs/CONTEXT-BUDGET.md). Every budget in
 * threadline is measured with the estimate (characters ÷ 4); a real server counts with its own tokenizer (CJK
 * 2–4×, a local model's BPE ~4×). The session learns the server's count per estimated token from what each
 * response reported for the request it answered, and the window from a server's own overflow error, and answers
 * every consumer with the window in estimate units: the window ÷ the ratio. Thresholds, the compaction target,
 * the kept tail, the summary input and its max_tokens, restored files and the overflow chain all compare
 * estimates against that one number, so they all follow the server. Kept as `context-budget` records, so a
 * resumed session agrees.
 */
import {
  type ContextBudgetRecord,
  type ModelLimits,
  modelLimits,
  type TimelineEntry,
  type Usage,
} from "../../messages/index.js";
import { type ContextThresholds, contextThresholds } from "./context-thresholds.js";

/**
 * Requests the estimate puts under this many tokens teach nothing (a fixed overhead dominates them): 256.
 */
export const MIN_CALIBRATION_ESTIMATE = 256;

/** The largest ratio believed (a count 50× the estimate is a broken report, not a tokenizer). */
export const MAX_TOKEN_RATIO = 50;

/**
 * The session switches to lean tool definitions (request/lean-tool-definitions.ts) when the fixed prefix — system
 * and tools — takes more than this share of the server's window by its count: 25 %. Below it the full
 * descriptions are worth their tokens (at 200K the prefix is ~2 %); above it the conversation is left so little
 * room that every compaction misses its target (a 16,384 window counted ×4.1: an 11,144-token prefix, the session
 * stopped "Context is full" at its sixth request).
 */
export const LEAN_PREFIX_SHARE = 0.25;

/** A ratio change smaller than this share is not recorded again (the calibration drifts with content): 5 %. */
export const RATIO_RECORD_CHANGE = 0.05;

/** The input side of a usage: what the server counted for the request (input + cache read + cache write). */
export function reportedInputTokens(usage: Usage | undefined): number {
  if (usage === undefined) return 0;
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

declare const budgeted: unique symbol;

/**
 * The limits every budget uses, as only `budgetLimits` makes them: the model table's row without its
 * `contextWindow` (which names the server's window there), the window in both units, and the one context budget
 * (`thresholds`, context-thresholds.ts). A type of its own, so a window read straight off the model table (a plain
 * `ModelLimits`) cannot be handed where a budget is expected (test/architecture/window-owner.test.ts).
 */
export type BudgetLimits = Omit<ModelLimits, "contextWindow"> & {
  /** The server's window, in the server's tokens (the model's, an override, or the smaller one its error named). */
  readonly serverWindow: number;
  /** The same window in estimate units: the server's ÷ the calibration ratio. */
  readonly estimateWindow: number;
  /** The window, ratio, reserve, thresholds and target: what /context, the status line and the loop all read. */
  readonly thresholds: ContextThresholds;
  readonly [budgeted]: true;
};

/** The window `limits` names, or a smaller one a server's error named. */
function serverWindowOf(limits: ModelLimits, learnedWindow: number | undefined): number {
  return learnedWindow !== undefined && learnedWindow < limits.contextWindow ? learnedWindow : limits.contextWindow;
}

/**
 * The one place the window is worked out (issue 43) and, from it, every threshold (issue 52): the model table with
 * any override, the window a server's error named, and the calibration.
 */
export function budgetLimits(
  model: string,
  overrides: Partial<ModelLimits> | undefined,
  budget: Pick<ContextBudget, "ratio" | "learnedWindow"> | undefined,
): BudgetLimits {
  const { contextWindow: _table, ...limits } = modelLimits(model, overrides);
  const serverWindow = serverWindowOf(modelLimits(model, overrides), budget?.learnedWindow);
  const thresholds = contextThresholds(model, limits, serverWindow, budget?.ratio ?? 1);
  return { ...limits, serverWindow, estimateWindow: thresholds.estimate.window, thresholds } as BudgetLimits;
}

/** What `observe` found: whether to record the calibration, and a compaction that missed its target. */
export interface Observation {
  changed: boolean;
  /** The first request after a compaction reported more than that compaction's target (server units). */
  missedTarget?: { reported: number; target: number };
}

/** A session's calibration of the estimate against the server's count, and the window the server named. */
export class ContextBudget {
  /** The server's count per estimated token, at least 1 (counting less than the estimate is no risk). */
  ratio = 1;
  /** The window a server's own overflow error named (never the client's own blocking limit). */
  learnedWindow: number | undefined;
  /** Target of the last compaction, in the server's tokens, until the next response reports its count. */
  pendingTarget: number | undefined;
  /** Lean tool definitions from here on (recorded; never switched back, so the prefix changes once at most). */
  leanTools = false;
  /** The fixed prefix (system and tools) of the last request counted, in estimate units (compaction targets). */
  fixedTokens = 0;
  #lastReported = 0;
  #lastEstimated = 0;

  /** The calibration the session's records hold (the last `context-budget` record), else a fresh one. */
  static fromEntries(entries: readonly TimelineEntry[]): ContextBudget {
    const budget = new ContextBudget();
    for (let index = entries.length - 1; index >= 0; index--) {
      const entry = entries[index]!;
      if (entry.type !== "context-budget") continue;
      budget.ratio = Math.max(1, Math.min(MAX_TOKEN_RATIO, entry.ratio));
      budget.learnedWindow = entry.learnedWindow;
      budget.leanTools = entry.leanTools === true;
      break;
    }
    return budget;
  }

  /** The limits every budget uses (see `budgetLimits`). */
  limits(model: string, overrides?: Partial<ModelLimits>): BudgetLimits {
    return budgetLimits(model, overrides, this);
  }

  /** The server's window (model table or override, or the smaller one a server's error named). */
  serverWindow(model: string, overrides?: Partial<ModelLimits>): number {
    return serverWindowOf(modelLimits(model, overrides), this.learnedWindow);
  }

  /** An estimate in the server's tokens. */
  toServer(estimated: number): number {
    return this.ratio === 1 ? estimated : Math.ceil(estimated * this.ratio);
  }

  /** A server count in estimate units (what the budgets compare). */
  toEstimate(reported: number): number {
    return this.ratio === 1 ? reported : Math.ceil(reported / this.ratio);
  }

  /**
   * Learns from a request the server counted (`reported`: its input side, or the count its overflow error
   * named) that the estimate put at `estimated`. A report of zero (a proxy that counts nothing) teaches
   * nothing. Up at once (an underestimate is what overflows), down halfway per response (content changes).
   */
  observe(reported: number, estimated: number): Observation {
    const pending = this.pendingTarget;
    this.pendingTarget = undefined;
    if (!(reported > 0) || estimated < MIN_CALIBRATION_ESTIMATE) return { changed: false };
    const seen = Math.max(1, Math.min(MAX_TOKEN_RATIO, reported / estimated));
    const before = this.ratio;
    this.ratio = seen >= before ? seen : (before + seen) / 2;
    if (this.ratio < 1.01) this.ratio = 1;
    this.#lastReported = reported;
    this.#lastEstimated = estimated;
    const changed = Math.abs(this.ratio - before) > before * RATIO_RECORD_CHANGE;
    return {
      changed,
      ...(pending !== undefined && reported > pending ? { missedTarget: { reported, target: pending } } : {}),
    };
  }

  /**
   * Whether a request whose fixed prefix the estimate puts at `prefixEstimate` takes more than LEAN_PREFIX_SHARE
   * of the server's `serverWindow` by the calibrated count: then lean definitions from now on. Returns whether it
   * switched (once per session at most).
   */
  considerLeanTools(prefixEstimate: number, serverWindow: number): boolean {
    if (this.leanTools || !(serverWindow > 0)) return false;
    if (this.toServer(prefixEstimate) <= serverWindow * LEAN_PREFIX_SHARE) return false;
    this.leanTools = true;
    return true;
  }

  /** A server's own overflow error named its window: kept for the session when smaller. Returns whether it changed. */
  learnWindow(window: number | undefined): boolean {
    if (window === undefined || !(window > 0)) return false;
    if (this.learnedWindow !== undefined && this.learnedWindow <= window) return false;
    this.learnedWindow = window;
    return true;
  }

  /** The record that keeps this calibration for a resume. */
  record(sessionId: string, now: Date): ContextBudgetRecord {
    return {
      type: "context-budget",
      ratio: this.ratio,
      ...(this.learnedWindow !== undefined ? { learnedWindow: this.learnedWindow } : {}),
      ...(this.leanTools ? { leanTools: true } : {}),
      reported: this.#lastReported,
      estimated: this.#lastEstimated,
      timestamp: now.toISOString(),
      sessionId,
    };
  }
}
