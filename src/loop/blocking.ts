/**
 * The hard stop before sending. The context estimate is the larger of the reported-usage count
 * (`tokenCountWithEstimation`: the last usage the server reported plus what was added since) and the ruler's
 * estimate of the assembled request itself, because usage can lie: a router that reports zero while
 * streaming, or a resumed transcript whose last usage predates most of what it holds. A request either
 * estimate puts past the blocking limit is never uploaded: the loop compacts first, or stops with the numbers.
 */
import type { CompactionSettings } from "../compaction/index.js";
import { blockingLimit, tokenCountWithEstimation } from "../compaction/index.js";
import { estimateRequestTokens, type MessageEntry, type ModelLimits } from "../messages/index.js";
import { ProviderError } from "../provider/index.js";
import type { MessagesRequest } from "../request/index.js";

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
  model: string,
  limits: ModelLimits,
  /** A count already made this pass (a tier that changed the view). Default: `tokenCountWithEstimation`. */
  counted = tokenCountWithEstimation(messages),
): RequestEstimate {
  const limit = blockingLimit(model, limits.contextWindow);
  // The body is only measured when the count says it fits: past the limit it cannot help.
  const tokens = counted >= limit ? counted : Math.max(counted, estimateRequestTokens(request));
  return { tokens, limit, over: tokens >= limit };
}

/** The overflow the recovery chain is run with when the estimate, not the server, says it does not fit. */
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
  limits: ModelLimits,
  _settings: CompactionSettings,
  counted?: number,
): string | undefined {
  const estimate = estimateRequest(messages, request, model, limits, counted);
  if (!estimate.over) return undefined;
  return (
    `Context is full: about ${estimate.tokens.toLocaleString("en-US")} tokens against a blocking limit of ` +
    `${estimate.limit.toLocaleString("en-US")} (window ${limits.contextWindow.toLocaleString("en-US")}). ` +
    "Run /compact or /clear, or start a new session."
  );
}
