/**
 * What microcompact's clears saved, for the demo and reports, from the timeline alone. Gross: each clear's
 * tokens, times the model requests made after it (each would otherwise have read them from the cache), priced
 * as cache reads. Rewrite: a client-side batch clear changes the prompt from its first cleared block on, so the
 * request that carries it writes what follows that block again (a cache write instead of a read); estimated
 * from the entries before the boundary. Time-based clears rewrite nothing extra (the cache was already cold),
 * nor do cache-edit deletes (the cache keeps its bytes). Net = gross − rewrite.
 */
import { estimateEntryTokens } from "../compaction/index.js";
import {
  CACHE_WRITE_5M_MULTIPLIER,
  isMessageEntry,
  type MessageEntry,
  modelLimits,
  type TimelineEntry,
} from "../messages/index.js";

export interface ClearingSavings {
  clears: number;
  toolResults: number;
  tokens: number;
  /** Cached-read tokens later requests did not read. */
  readsAvoided: number;
  /** Tokens written again by the requests that carried a batch clear (beyond what they would have read). */
  rewriteTokens: number;
  /** Dollars of cache reads avoided at `model`'s list price (gross). */
  dollars: number;
  /** `dollars` minus the rewrites' extra price (write instead of read): what clearing saved on the bill. */
  netDollars: number;
}

/** Tokens of `messages` from the entry holding the first of `toolIds` on, minus `cleared` (what is rewritten). */
function rewrittenTokens(messages: readonly MessageEntry[], toolIds: readonly string[], cleared: number): number {
  const ids = new Set(toolIds);
  const first = messages.findIndex(
    (entry) =>
      entry.type === "user" &&
      typeof entry.message.content !== "string" &&
      entry.message.content.some((block) => block.type === "tool_result" && ids.has(block.tool_use_id)),
  );
  if (first < 0) return 0;
  let tokens = 0;
  for (let index = first; index < messages.length; index++) tokens += estimateEntryTokens(messages[index]!);
  return Math.max(0, tokens - cleared);
}

/** The savings of the microcompact boundaries in `entries`, priced for `model`. */
export function clearingSavings(entries: readonly TimelineEntry[], model: string): ClearingSavings {
  const savings: ClearingSavings = {
    clears: 0,
    toolResults: 0,
    tokens: 0,
    readsAvoided: 0,
    rewriteTokens: 0,
    dollars: 0,
    netDollars: 0,
  };
  const pending: number[] = [];
  const messages: MessageEntry[] = [];
  let lastMessageId: string | undefined;
  for (const entry of entries) {
    if (entry.type === "system" && entry.subtype === "microcompact_boundary" && entry.microcompactMetadata) {
      const metadata = entry.microcompactMetadata;
      savings.clears++;
      savings.toolResults += metadata.compactedToolIds.length;
      savings.tokens += metadata.tokensSaved;
      pending.push(metadata.tokensSaved);
      if (metadata.trigger === "batch")
        savings.rewriteTokens += rewrittenTokens(messages, metadata.compactedToolIds, metadata.tokensSaved);
      continue;
    }
    if (entry.type === "system" && entry.subtype === "compact_boundary") {
      // A compaction replaces the cleared results too: no later request would have read them.
      messages.length = 0;
      pending.length = 0;
    }
    if (isMessageEntry(entry) && entry.type !== "system" && entry.isSidechain !== true) messages.push(entry);
    if (entry.type === "assistant" && entry.isSidechain !== true && entry.message.id !== lastMessageId) {
      lastMessageId = entry.message.id;
      for (const tokens of pending) savings.readsAvoided += tokens;
    }
  }
  const limits = modelLimits(model);
  const perToken = limits.inputPricePerMTok / 1_000_000;
  const read = limits.cacheReadMultiplier;
  savings.dollars = read * savings.readsAvoided * perToken;
  savings.netDollars = savings.dollars - (CACHE_WRITE_5M_MULTIPLIER - read) * savings.rewriteTokens * perToken;
  return savings;
}
