/**
 * Tier 4 in the compaction pass: the backstop. Proactive autocompact runs at the autocompact threshold; while
 * collapse is on it is off, and only runs where the request would otherwise be refused (the blocking limit), as
 * recovery. Progress or stop (docs/ARCHITECTURE.md "Compaction target"):
 * - a compaction that leaves the context over its target counts as a failure, like an error; a circuit breaker
 *   stops auto-compaction for the session after DEFAULT_MAX_CONSECUTIVE_FAILURES in a row (a success resets it);
 * - after a compaction the next one waits until the context grew by DEFAULT_MIN_GROWTH_RATIO of the threshold;
 *   a context still over the threshold before that is stalled: said once, and cleared instead (no model call);
 * - priced: when clearing old tool results alone reaches the target, it is cheaper than a compaction (which
 *   reads the context for its summary and rewrites everything it keeps), so the tier clears instead.
 */
import { createSystemEntry, type MessageEntry } from "../../messages/index.js";
import { compactionTarget } from "../budget/context-thresholds.js";
import { tokenCountWithEstimation } from "../budget/thresholds.js";
import { cacheEditingEnabled } from "../microcompact/run-microcompact.js";
import type { RecordChain } from "../record-chain.js";
import { planRoomClear, recordRoomClear } from "../results/clear-for-room.js";
import { type AutoCompactResult, compactWithBreaker } from "../summary/compact-entrances.js";
import type { CompactionInput } from "../types.js";
import { newAutoCompactSession } from "./breaker.js";
import { autoCompactTriggerTokens, DEFAULT_MIN_GROWTH_RATIO } from "./compaction-due.js";

function fmt(tokens: number): string {
  return Math.round(tokens).toLocaleString("en-US");
}

/**
 * Tier 4: at the trigger, with the breaker closed, makes room the cheaper way: clearing old tool results when
 * that alone reaches the target, else a compaction (unless the last one is too recent: then clearing).
 */
export async function autoCompact(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  tokens = tokenCountWithEstimation(view, input.tokenRatio),
): Promise<AutoCompactResult> {
  const unchanged = { messages: view.slice(), tokens, compacted: false };
  if (input.fork === undefined || tokens < autoCompactTriggerTokens(input)) return unchanged;
  const session = input.autoCompact ?? newAutoCompactSession();
  const threshold = input.thresholds.estimate.autocompact;
  const target = compactionTarget(input.thresholds, input.fixedTokens);
  // On the cached path microcompact deletes from the cache instead; a client-side clear would rewrite it.
  const clear =
    input.settings.microcompact && !cacheEditingEnabled(input) ? planRoomClear(input, view, tokens) : undefined;
  if (clear !== undefined && tokens - clear.tokensSaved <= target) {
    recordRoomClear(
      chain,
      clear,
      tokens,
      `clearing reaches the ${fmt(target)}-token target for a ~${fmt(clear.rewriteCost)} rewrite, cheaper than a compaction`,
    );
    return { messages: clear.messages, tokens: tokens - clear.tokensSaved, compacted: false, cleared: true };
  }
  const last = session.lastCompactionTokens;
  if (last !== undefined && tokens < last + threshold * DEFAULT_MIN_GROWTH_RATIO) {
    if (session.stalledNoticeShown !== true) {
      session.stalledNoticeShown = true;
      chain.push(
        createSystemEntry(
          chain.context(),
          "informational",
          `Compaction is not making room (~${fmt(tokens)} tokens, ~${fmt(last)} after the last one): clearing old tool results instead until the context grows by ${fmt(threshold * DEFAULT_MIN_GROWTH_RATIO)}.`,
          { level: "warning" },
        ),
      );
    }
    if (clear === undefined) return unchanged;
    recordRoomClear(chain, clear, tokens, "the last compaction is too recent to compact again");
    return { messages: clear.messages, tokens: tokens - clear.tokensSaved, compacted: false, cleared: true };
  }
  return compactWithBreaker(input, view, chain, tokens);
}
