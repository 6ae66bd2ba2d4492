/**
 * The token ruler applied to timeline entries (messages/tokens.ts measures wire blocks; this adapts
 * entries to it), so every tier and threshold measures with the same ruler as the emulator's billing.
 */
import type { MessageEntry } from "../messages/index.js";
import { checkNever, estimateBlockTokens, estimateTextTokens } from "../messages/index.js";

/** Estimated tokens one entry contributes to a request (entries the API never sees count 0). */
export function estimateEntryTokens(entry: MessageEntry): number {
  switch (entry.type) {
    case "user": {
      const content = entry.message.content;
      if (typeof content === "string") return estimateTextTokens(content);
      let total = 0;
      for (const block of content) total += estimateBlockTokens(block);
      return total;
    }
    case "assistant": {
      let total = 0;
      for (const block of entry.message.content) total += estimateBlockTokens(block);
      return total;
    }
    case "attachment":
      return estimateTextTokens(entry.attachment.content);
    case "system":
      return entry.subtype === "local_command" ? estimateTextTokens(entry.content) : 0;
    case "progress":
      return 0;
    default:
      return checkNever(entry);
  }
}

/** Estimated tokens of a list of entries. */
export function estimateEntriesTokens(entries: readonly MessageEntry[]): number {
  let total = 0;
  for (const entry of entries) total += estimateEntryTokens(entry);
  return total;
}
