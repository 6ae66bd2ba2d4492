/**
 * The hard stop before sending. The context estimate is the larger of the reported-usage count
 * (`tokenCountWithEstimation`: the last usage the server reported plus what was added since) and the ruler's
 * estimate of the assembled request itself, because usage can lie: a router that reports zero while
 * streaming, or a resumed transcript whose last usage predates most of what it holds. A request either
 * estimate puts past the blocking limit is never uploaded: the loop compacts first, or stops with the numbers.
 */
import type { BudgetLimits, CompactionSettings, ContextBudget } from "../../compaction/index.js";
import { tokenCountWithEstimation } from "../../compaction/index.js";
import { estimateRequestTokens, type MessageEntry } from "../../messages/index.js";
import { ProviderError } from "../../provider/index.js";
import type { MessagesRequest } from "../../request/index.js";

/** The request's size by both measures, and the limit it is held to. */
export interface RequestEstimate {
  /** max(reported usage + added since, the ruler over the request body). */
  tokens: number;
  limit: number;
  /** True when the request must not be sent. */
  over: boolean;
}

/** How big this request is, by the larger of the two estimates, against the blocking limit. */
export function estimateRequest(
  messages: readonly MessageEntry[],
  request: MessagesRequest,
  _model: string,
  limits: BudgetLimits,
  /** A count already made this pass (a tier that changed the view). Default: `tokenCountWithEstimation`. */
  counted?: number,
  /** The session's calibration: reported usage in estimate units. Default none (ratio 1). */
  budget?: ContextBudget,
): RequestEstimate {
  counted ??= tokenCountWithEstimation(messages, budget?.ratio);
  const limit = limits.thresholds.estimate.blocking;
  // The body is only measured when the count says it fits: past the limit it cannot help.
  const tokens = counted >= limit ? counted : Math.max(counted, estimateRequestTokens(request));
  return { tokens, limit, over: tokens >= limit };
}

/**
 * The overflow the recovery chain is run with when the estimate, not the server, says it does not fit. Its
 * `maxTokens` is the client's own blocking limit, in estimate units: never taken as the server's window
 * (stage-recover.ts learns a window only from a server's error).
 */
export function estimatedOverflow(estimate: RequestEstimate): ProviderError {
  return new ProviderError(
    "prompt_too_long",
    `The request is estimated at ${estimate.tokens} tokens, past the limit of ${estimate.limit}.`,
    { retryable: false, actualTokens: estimate.tokens, maxTokens: estimate.limit },
  );
}

/** A message explaining why the request must not be sent, or undefined when it may go. */
export function blockingLimitMessage(
  messages: readonly MessageEntry[],
  request: MessagesRequest,
  model: string,
  limits: BudgetLimits,
  _settings: CompactionSettings,
  counted?: number,
  budget?: ContextBudget,
): string | undefined {
  const estimate = estimateRequest(messages, request, model, limits, counted, budget);
  if (!estimate.over) return undefined;
  // Said in the server's tokens, as the budget holds them (context-thresholds.ts): the limit and the window are
  // the server's own figures, never an estimate-unit figure multiplied back (3,000 at ×10.02 came back as 2,996).
  const size = (budget?.toServer(estimate.tokens) ?? estimate.tokens).toLocaleString("en-US");
  const { server } = limits.thresholds;
  return (
    `Context is full: about ${size} tokens against a blocking limit of ` +
    `${server.blocking.toLocaleString("en-US")} (window ${server.window.toLocaleString("en-US")}). ` +
    "Run /compact or /clear, or start a new session."
  );
}
