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
