/**
 * The summary request as a cache-safe fork (docs/PROMPT-CACHE.md "Forks"). The main
 * loop's last request was sent with the view as it stood then; its final cache breakpoint is on its last message.
 * A summary request that sends the same system, tools, settings and messages — the view as it is, uncleared and
 * with its media — plus one instruction reads all of that from the cache at 0.1× and writes only what came
 * after it (the newest reply and tool results) and the instruction. Anything rewritten before that point (an old
 * result cleared, an image replaced by a placeholder) makes the server write everything after it again at 1.25×.
 *
 * Only what the last main request did not send may change: the tool results that arrived after its reply, which
 * no cache holds yet, are cut when the whole view and the summary's `max_tokens` would not fit the window.
 */
import type { MessageEntry } from "../../messages/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { collectToolResults } from "../results/compactable-results.js";
import { cutResults } from "../tail/tail-budget.js";

/**
 * Share of the fork's window (estimate units, calibrated) its input and `max_tokens` may fill together: 97 %. The
 * server counts a little differently from the calibrated estimate; a fork that still comes back "prompt is too
 * long" is sent again the cleared way (summary-input.ts), which costs one refused request, not a rewrite.
 */
export const DEFAULT_FORK_FIT_SLACK = 0.97;

/** The largest input estimate a cache-safe fork with `maxTokens` of output may have in `contextWindow`. */
export function forkInputRoom(contextWindow: number, maxTokens: number): number {
  return Math.floor(contextWindow * DEFAULT_FORK_FIT_SLACK) - maxTokens;
}

/** Index of the last model response in `view` (-1: none): the last main request sent everything before it. */
export function lastResponseIndex(view: readonly MessageEntry[]): number {
  for (let index = view.length - 1; index >= 0; index--) {
    const entry = view[index]!;
    if (entry.type === "assistant" && entry.isApiErrorMessage !== true) return index;
  }
  return -1;
}

/**
 * The messages of a cache-safe summary fork within `room` (the estimate of a request holding them, by
 * `estimate`): `view` itself when it fits, else `view` with the results after its last response cut to an equal
 * share of what is left (the main loop's cached prefix untouched). Undefined when even that does not fit.
 */
export function cacheSafeForkMessages(
  view: readonly MessageEntry[],
  room: number,
  estimate: (messages: readonly MessageEntry[]) => number,
): MessageEntry[] | undefined {
  const whole = estimate(view);
  if (whole <= room) return view.slice();
  const sentBefore = lastResponseIndex(view);
  if (sentBefore < 0) return undefined;
  const unsent = collectToolResults(view).filter((result) => result.viewIndex > sentBefore);
  if (unsent.length === 0) return undefined;
  const unsentTokens = unsent.reduce((sum, result) => sum + result.tokens, 0);
  const share = Math.floor((unsentTokens - (whole - room)) / unsent.length);
  if (share <= 0) return undefined;
  const caps = new Map(unsent.filter((result) => result.tokens > share).map((result) => [result.toolUseId, share]));
  const cut = cutResults(view, caps).entries;
  return estimate(cut) <= room ? cut : undefined;
}

/** Words for a record: why a summary request could not be a cache-safe fork of `view`. */
export function forkTooBig(view: readonly MessageEntry[], maxTokens: number, contextWindow: number): string {
  const tokens = estimateEntriesTokens(view).toLocaleString("en-US");
  return `the conversation (~${tokens} tokens) and the summary's max_tokens (${maxTokens.toLocaleString("en-US")}) do not fit the ${contextWindow.toLocaleString("en-US")}-token window`;
}
