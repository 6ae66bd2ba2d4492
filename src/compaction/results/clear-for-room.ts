/**
 * Making room by clearing, with no model call (docs/ARCHITECTURE.md "Compaction target"): every compactable
 * tool result but the last DEFAULT_TAIL_VERBATIM_RESULTS becomes its placeholder, recorded as a client-side
 * microcompact_boundary (trigger "batch"), so every later request projects the same bytes. Used where
 * compaction would cost more or cannot help: the autocompact tier when clearing alone reaches the target, a
 * stalled compaction, and the first step of the prompt-too-long chain. Only while microcompact is on: its
 * projection is what applies the clears (docs/INVARIANTS.md 6: a tier that is off never runs).
 */
import { CACHE_WRITE_5M_MULTIPLIER, createSystemEntry, type MessageEntry } from "../../messages/index.js";
import { estimateEntryTokens } from "../budget/entry-tokens.js";
import type { RecordChain } from "../record-chain.js";
import { DEFAULT_TAIL_VERBATIM_RESULTS } from "../tail/tail-budget.js";
import type { CompactionInput } from "../types.js";
import { applyClearedToolResults, clearSavings, compactableResults } from "./compactable-results.js";

/** What clearing would do to a view. */
export interface RoomClear {
  toolIds: string[];
  tokensSaved: number;
  /** The view with the clears applied. */
  messages: MessageEntry[];
  /** Price of the rewrite it causes: the tokens from the first cleared block on, at the cache-write price. */
  rewriteCost: number;
}

/** The clear of every compactable result in `view` but the last few; undefined when there is nothing to clear. */
export function planRoomClear(
  input: Pick<CompactionInput, "compactableTools">,
  view: readonly MessageEntry[],
  tokens: number,
): RoomClear | undefined {
  const results = compactableResults(view, input.compactableTools).filter((result) => clearSavings(result) > 0);
  const old = results.slice(0, Math.max(0, results.length - DEFAULT_TAIL_VERBATIM_RESULTS));
  if (old.length === 0) return undefined;
  const tokensSaved = old.reduce((sum, result) => sum + clearSavings(result), 0);
  const messages = applyClearedToolResults(view, new Set(old.map((result) => result.toolUseId)));
  let before = 0;
  for (let index = 0; index < old[0]!.viewIndex; index++) before += estimateEntryTokens(view[index]!);
  return {
    toolIds: old.map((result) => result.toolUseId),
    tokensSaved,
    messages,
    rewriteCost: CACHE_WRITE_5M_MULTIPLIER * Math.max(0, tokens - tokensSaved - before),
  };
}

/** Records `clear` on `chain` with `why` in its text. */
export function recordRoomClear(chain: RecordChain, clear: RoomClear, preTokens: number, why: string): void {
  chain.push(
    createSystemEntry(
      chain.context(),
      "microcompact_boundary",
      `Cleared ${clear.toolIds.length} old tool result${clear.toolIds.length === 1 ? "" : "s"} (~${clear.tokensSaved} tokens): ${why}`,
      {
        microcompactMetadata: {
          trigger: "batch",
          preTokens,
          tokensSaved: clear.tokensSaved,
          compactedToolIds: clear.toolIds,
        },
      },
    ),
  );
}
