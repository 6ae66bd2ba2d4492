/**
 * What microcompact's clears saved, for the demo and reports: each clear's tokens, times the model requests
 * made after it (each would otherwise have read them from the cache), priced as cache reads. Gross: the one
 * cache rewrite each client-side clear causes is in the bill itself, not subtracted here (the timeline does not
 * say how many tokens followed the first cleared block). An estimate from the timeline alone.
 */
import type { TimelineEntry } from "../messages/index.js";
import { modelLimits } from "../messages/index.js";
import { CACHE_READ_MULTIPLIER } from "../messages/pricing.js";

export interface ClearingSavings {
  clears: number;
  toolResults: number;
  tokens: number;
  /** Cached-read tokens later requests did not read. */
  readsAvoided: number;
  /** Dollars of cache reads avoided at `model`'s list price. */
  dollars: number;
}

/** The savings of the microcompact boundaries in `entries`, priced for `model`. */
export function clearingSavings(entries: readonly TimelineEntry[], model: string): ClearingSavings {
  const savings: ClearingSavings = { clears: 0, toolResults: 0, tokens: 0, readsAvoided: 0, dollars: 0 };
  const pending: number[] = [];
  let lastMessageId: string | undefined;
  for (const entry of entries) {
    if (entry.type === "system" && entry.subtype === "microcompact_boundary" && entry.microcompactMetadata) {
      const metadata = entry.microcompactMetadata;
      savings.clears++;
      savings.toolResults += metadata.compactedToolIds.length;
      savings.tokens += metadata.tokensSaved;
      pending.push(metadata.tokensSaved);
      continue;
    }
    if (entry.type === "assistant" && entry.isSidechain !== true && entry.message.id !== lastMessageId) {
      lastMessageId = entry.message.id;
      for (const tokens of pending) savings.readsAvoided += tokens;
    }
  }
  const price = modelLimits(model).inputPricePerMTok;
  savings.dollars = (CACHE_READ_MULTIPLIER * savings.readsAvoided * price) / 1_000_000;
  return savings;
}
