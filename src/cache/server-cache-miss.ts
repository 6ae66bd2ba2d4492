/**
 * The server's own account of a prompt-cache miss (the API's cache diagnostics: `cache_miss_reason` on the
 * response). It compared the two requests itself, so where it names a cause, that beats any client guess.
 */

/** The wire shape of `diagnostics.cache_miss_reason` (the type kept as a string: reasons may be added). */
export interface ServerCacheMissReason {
  type: string;
  cache_missed_input_tokens?: number;
}

/** Reasons naming a change outside the messages: never explained by a compaction, clear or cache edit. */
export const SERVER_PREFIX_CHANGES: Readonly<Record<string, string>> = {
  model_changed: "model changed",
  system_changed: "system prompt changed",
  tools_changed: "tools changed",
};

/** "server says: system prompt changed (~12,000 tokens missed)". */
export function describeServerCacheMiss(reason: ServerCacheMissReason): string {
  const what =
    SERVER_PREFIX_CHANGES[reason.type] ??
    (reason.type === "messages_changed"
      ? "an earlier message changed"
      : reason.type === "previous_message_not_found"
        ? "the server no longer knew the previous request"
        : reason.type === "unavailable"
          ? "the server could not tell"
          : reason.type);
  const missed = reason.cache_missed_input_tokens;
  return `server says: ${what}${missed === undefined ? "" : ` (~${missed.toLocaleString("en-US")} tokens missed)`}`;
}

/** What a client-detector cause names, as a server reason: the cause's phrase from `explainChanges`. */
const CLIENT_CAUSE_REASONS: ReadonlyArray<readonly [pattern: RegExp, reason: string]> = [
  [/^model changed/, "model_changed"],
  [/^system prompt changed/, "system_changed"],
  [/^tool .+ (added|removed|changed)|^tools reordered/, "tools_changed"],
];

/**
 * Whether the client's own break detection (its fingerprint causes, the server's words left out) names the change
 * the server reports. The server compared the two requests itself, so a disagreement is the client detector's
 * bug: a change it missed (no cause) or misnamed (another dimension). A `cache_control layout changed` cause can
 * move any part's bytes and agrees with every reason; a cause outside system, tools and model (betas, thinking,
 * mode, extra fields) is a change in the messages part, as the server counts it.
 */
export function clientAgreesWithServer(reason: string, clientCauses: readonly string[]): boolean {
  if (clientCauses.some((cause) => cause.startsWith("cache_control layout changed"))) return true;
  const named = clientCauses.map(
    (cause) => CLIENT_CAUSE_REASONS.find(([pattern]) => pattern.test(cause))?.[1] ?? "messages_changed",
  );
  return named.includes(reason);
}
