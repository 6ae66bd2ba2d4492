/**
 * The client's estimate applied to timeline entries (messages/tokens.ts measures wire blocks; this adapts
 * entries to it), so every tier and threshold measures with one ruler. It is not the server's: the emulator bills
 * with a real tokenizer, and the session calibrates against what a server reports (docs/CONTEXT-BUDGET.md).
 */
import type { MessageEntry } from "../../messages/index.js";
import { checkNever, estimateBlockTokens, estimateTextTokens } from "../../messages/index.js";
import { memoizeByObject, sharedPrefixLength } from "../../timeline/index.js";

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

/** Running totals over one list of entries: `sums[i]` is the estimate of `entries[0..i)`. */
interface RunningTotals {
  entries: MessageEntry[];
  sums: number[];
}

/** Keyed by the list's first entry, so each session's view keeps its own; updated in place. */
const runningTotals = memoizeByObject((_first: MessageEntry): RunningTotals => ({ entries: [], sums: [0] }));

/** Each entry's estimate (entries never change): lists that share entries but not a start measure them once. */
const memoizedEntryTokens = memoizeByObject(estimateEntryTokens);

/**
 * Estimated tokens of a list of entries. Every tier measures the view every turn; the view only grows between
 * compactions, so the totals of the entries shared with an earlier call (the same objects, from the start)
 * are reused and only the rest is measured.
 */
export function estimateEntriesTokens(entries: readonly MessageEntry[]): number {
  const first = entries[0];
  if (first === undefined) return 0;
  const memo = runningTotals(first);
  const shared = sharedPrefixLength(memo.entries, entries);
  if (shared === entries.length) return memo.sums[shared]!;
  // A different continuation replaces the old one: the session moved on (or back, after a snip).
  memo.entries.length = shared;
  memo.sums.length = shared + 1;
  let total = memo.sums[shared]!;
  for (let index = shared; index < entries.length; index++) {
    const entry = entries[index]!;
    total += memoizedEntryTokens(entry);
    memo.entries.push(entry);
    memo.sums.push(total);
  }
  return total;
}
