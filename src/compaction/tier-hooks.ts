/**
 * Tiers 3 and 4 as the compaction pass calls them, in the fixed order (snip ▸ microcompact ▸ collapse ▸
 * autocompact). Each returns the projected view and the token estimate that goes with it, so the next tier
 * (and the loop's blocking check) need not trust a usage figure the tier just made stale.
 */
import type { MessageEntry } from "../messages/index.js";
import { autoCompact } from "./autocompact.js";
import { applyCollapses } from "./collapse/apply-collapses.js";
import type { RecordChain } from "./record-chain.js";
import type { CompactionInput } from "./types.js";

export interface TierResult {
  messages: MessageEntry[];
  tokens: number;
  /** Tier 4 only: a compact boundary was appended. */
  compacted?: boolean;
}

/** Tier 3 (context collapse): replays commits; commits staged spans at 90 %; urgent ctx-agent at 95 %. */
export function applyCollapsesIfNeeded(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
): Promise<TierResult> {
  return applyCollapses(input, view, chain);
}

/** Tier 4 (autocompact): the summary backstop; `tokens` is tier 3's estimate when it ran. */
export function autoCompactIfNeeded(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  tokens?: number,
): Promise<TierResult> {
  return autoCompact(input, view, chain, tokens);
}
