/**
 * The one context budget (issue 52 item 4; docs/CONTEXT-BUDGET.md "One value, one unit"): the window, the
 * calibration ratio, the output reserve, the autocompact, warning and blocking thresholds and the compaction
 * target as one value. `budgetLimits` (context-budget.ts) makes it, once per question, and `/context`, the status
 * line and the loop all read it; none of them works a threshold out of a window itself
 * (test/architecture/threshold-owner.test.ts).
 *
 * Units: every figure is worked out **in the server's tokens** from the server's window (the model table's, an
 * override, or the smaller one a server's error named), as Claude Code works them out from its usage: at 200K the
 * reserve is 20,000, autocompact 167,000, blocking 177,000 whatever the ratio. `estimate` holds the same figures
 * divided by the calibration ratio (floored): what the loop compares its estimates (characters ÷ 4) against.
 * People are shown `server`.
 */
import type { ModelLimits } from "../../messages/index.js";
import {
  autoCompactBufferTokens,
  BLOCKING_BUFFER_TOKENS,
  BLOCKING_BUFFER_WINDOW_RATIO,
  compactionTargetFrom,
  OUTPUT_RESERVE_WINDOW_RATIO,
  outputReserveTokens,
  warningBufferTokens,
} from "./thresholds.js";

/** The budget's figures in one unit. */
export interface ThresholdFigures {
  /** The whole window. */
  readonly window: number;
  /** Output reserved out of the window: min(model max output, 20,000, 20 % of the window). */
  readonly reserve: number;
  /** The window less the reserve: what the prompt may use. */
  readonly effective: number;
  /** Proactive autocompact runs here (on the 1M models worked out from the 400K autocompact window). */
  readonly autocompact: number;
  /** The UI warns here (and shows its error state: the same buffer). */
  readonly warning: number;
  /** A request is refused instead of sent here. */
  readonly blocking: number;
  /** What a compaction must bring the context down to with no fixed prefix (40 % of autocompact). */
  readonly target: number;
}

/** The context budget of one model at one window and one calibration. */
export interface ContextThresholds {
  /** The server's count per estimated token (at least 1). */
  readonly ratio: number;
  /** The window autocompact is worked out from, in the server's tokens (the model's, or its autoCompactWindow). */
  readonly autoCompactWindow: number;
  /** In the server's tokens: what a person is shown and what the server's usage is compared with. */
  readonly server: ThresholdFigures;
  /** In estimate units (each server figure ÷ ratio, floored): what every budget compares estimates against. */
  readonly estimate: ThresholdFigures;
}

/** The parts of a model's row the budget is worked out from. */
export type ThresholdLimits = Pick<ModelLimits, "maxOutputTokens" | "autoCompactWindow" | "autoCompactPercent">;

/** `tokens`, or `share` of the window if smaller (thresholds.ts's rule for every buffer). */
function scaledBuffer(tokens: number, window: number, share: number): number {
  return Math.min(tokens, Math.floor(window * share));
}

/** The autocompact threshold in the server's tokens: from the autocompact window, lowered by a percent override. */
function serverAutoCompact(model: string, limits: ThresholdLimits, window: number): number {
  const acWindow = autoCompactWindowOf(limits, window);
  const effective = acWindow - Math.min(limits.maxOutputTokens, outputReserveTokens(model, acWindow));
  const plain = effective - autoCompactBufferTokens(acWindow);
  const percent = limits.autoCompactPercent;
  // Claude Code's override only lowers the threshold (Math.min with the default).
  if (percent === undefined || !(percent > 0) || percent > 100) return plain;
  return Math.min(plain, Math.floor(effective * (percent / 100)));
}

/** The window autocompact is worked out from: the row's autoCompactWindow when smaller than `window`. */
function autoCompactWindowOf(limits: ThresholdLimits, window: number): number {
  const declared = limits.autoCompactWindow;
  return declared !== undefined && declared > 0 && declared < window ? declared : window;
}

/**
 * The budget of `model` (its row `limits`) at the server's `serverWindow` and calibration `ratio`. The one
 * place a threshold is worked out of a window (called by `budgetLimits`).
 */
export function contextThresholds(
  model: string,
  limits: ThresholdLimits,
  serverWindow: number,
  ratio = 1,
): ContextThresholds {
  const window = serverWindow;
  const reserve = Math.min(limits.maxOutputTokens, outputReserveTokens(model, window));
  const effective = window - reserve;
  const blocking = effective - scaledBuffer(BLOCKING_BUFFER_TOKENS, window, BLOCKING_BUFFER_WINDOW_RATIO);
  const autocompact = Math.min(serverAutoCompact(model, limits, window), blocking);
  const warning = autocompact - warningBufferTokens(autoCompactWindowOf(limits, window));
  const server: ThresholdFigures = {
    window,
    reserve,
    effective,
    autocompact,
    warning,
    blocking,
    target: compactionTargetFrom(autocompact),
  };
  const r = Math.max(1, ratio);
  const toEstimate = (tokens: number) => (r === 1 ? tokens : Math.floor(tokens / r));
  const estimateAutocompact = toEstimate(autocompact);
  const estimate: ThresholdFigures = {
    window: Math.max(1, toEstimate(window)),
    reserve: toEstimate(reserve),
    effective: toEstimate(effective),
    autocompact: estimateAutocompact,
    warning: toEstimate(warning),
    blocking: toEstimate(blocking),
    target: compactionTargetFrom(estimateAutocompact),
  };
  return { ratio: r, autoCompactWindow: autoCompactWindowOf(limits, window), server, estimate };
}

/**
 * What a compaction must bring the context down to, in estimate units, when the fixed prefix (system and tools,
 * estimate units) is `fixedTokens` (thresholds.ts `compactionTargetFrom`: a fifth of the room above a large prefix).
 */
export function compactionTarget(thresholds: ContextThresholds, fixedTokens = 0): number {
  return compactionTargetFrom(thresholds.estimate.autocompact, fixedTokens);
}

/**
 * The effective window (estimate units) of a smaller window a server's overflow error named, `namedWindow`
 * (estimate units already): the budget's own effective window when none was named or it is not smaller.
 */
export function effectiveWithin(thresholds: ContextThresholds, namedWindow: number | undefined): number {
  const own = thresholds.estimate.effective;
  if (namedWindow === undefined || namedWindow >= thresholds.estimate.window) return own;
  // The smaller window's own reserve: the budget's, or its share of the smaller window (thresholds.ts's rule).
  const reserve = scaledBuffer(thresholds.estimate.reserve, namedWindow, OUTPUT_RESERVE_WINDOW_RATIO);
  return Math.min(own, namedWindow - reserve);
}

/** Where a context of `tokens` (estimate units) stands: percent of the autocompact threshold still free (0–100). */
export function percentLeftBeforeAutocompact(thresholds: ContextThresholds, tokens: number): number {
  const autocompact = thresholds.estimate.autocompact;
  return autocompact <= 0 ? 0 : Math.max(0, Math.floor(((autocompact - tokens) / autocompact) * 100));
}
