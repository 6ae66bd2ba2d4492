/**
 * The hard stop before sending: a request estimated past the blocking limit is refused with the numbers.
 */
import type { CompactionSettings } from "../compaction/index.js";
import { blockingLimit, tokenCountWithEstimation } from "../compaction/thresholds.js";
import type { MessageEntry, ModelLimits } from "../messages/index.js";
import type { MessagesRequest } from "../request/types.js";

/** A message explaining why the request must not be sent, or undefined when it may go. */
export function blockingLimitMessage(
  messages: readonly MessageEntry[],
  _request: MessagesRequest,
  model: string,
  limits: ModelLimits,
  _settings: CompactionSettings,
): string | undefined {
  const tokens = tokenCountWithEstimation(messages);
  const limit = blockingLimit(model, limits.contextWindow);
  if (tokens < limit) return undefined;
  return (
    `Context is full: about ${tokens.toLocaleString("en-US")} tokens against a blocking limit of ` +
    `${limit.toLocaleString("en-US")} (window ${limits.contextWindow.toLocaleString("en-US")}). ` +
    "Run /compact or /clear, or start a new session."
  );
}
