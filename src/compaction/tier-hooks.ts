/**
 * Tiers 3 and 4 belong to another issue. These hooks hold their place in the fixed order
 * (snip ▸ microcompact ▸ collapse ▸ autocompact) and pass the view through unchanged for now.
 */
import type { MessageEntry } from "../messages/index.js";
import type { RecordChain } from "./record-chain.js";
import type { CompactionInput } from "./types.js";

/** Tier 3 (context collapse): not implemented yet; returns the view unchanged and adds no records. */
export function applyCollapsesIfNeeded(
  _input: CompactionInput,
  view: readonly MessageEntry[],
  _chain: RecordChain,
): MessageEntry[] {
  return view.slice();
}

/** Tier 4 (autocompact): not implemented yet; returns the view unchanged and adds no records. */
export async function autoCompactIfNeeded(
  _input: CompactionInput,
  view: readonly MessageEntry[],
  _chain: RecordChain,
): Promise<MessageEntry[]> {
  return view.slice();
}
