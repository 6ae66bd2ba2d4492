/**
 * The prompt-too-long chain's last step (docs/CONTEXT-BUDGET.md "When nothing can be summarised"): when no
 * summary could be had and dropping rounds left one round that is still over the window — one tool result bigger
 * than what the window leaves — the biggest results are cut at a line to fit, each ending with one line saying
 * so. Before, a model that cannot summarise (a small local one) ended its turn at the first result bigger than
 * the window, though `cutToolResult` could have made it fit. Recorded as a compact boundary and the cut copy of
 * the view, so every later request (and a resume) sends the same bytes.
 */
import { createSystemEntry, type MessageEntry } from "../../messages/index.js";
import { compactionTarget, effectiveWithin } from "../budget/context-thresholds.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { collectToolResults } from "../results/compactable-results.js";
import { copyTail, cutResults, MIN_CUT_RESULT_TOKENS } from "../tail/tail-budget.js";
import type { OverflowStep } from "../tier.js";
import { countOf, sendableView } from "./overflow-steps.js";

/** What the note at the end of a cut result says it was cut for. */
export const OVERFLOW_CUT_WHY = "window (no summary could be had)";

/** Each result's cap: the biggest results first, each cut by what is still over `room`, never under the minimum. */
export function overflowCutCaps(view: readonly MessageEntry[], excess: number): Map<string, number> {
  const caps = new Map<string, number>();
  const results = collectToolResults(view).sort((a, b) => b.tokens - a.tokens);
  let left = excess;
  for (const result of results) {
    if (left <= 0 || result.tokens <= MIN_CUT_RESULT_TOKENS) break;
    const cap = Math.max(MIN_CUT_RESULT_TOKENS, result.tokens - left);
    caps.set(result.toolUseId, cap);
    left -= result.tokens - cap;
  }
  return caps;
}

export const cutOverflowStep: OverflowStep = {
  reason: "overflow_cut",
  label: "cutting the biggest tool results",
  relieve(input, chain, overflow) {
    const view = sendableView(input);
    const messages = estimateEntriesTokens(view);
    // The client's own pre-send count may be of the messages alone: the prefix (system and tools) as last sent
    // is what no cut removes, so it is counted at least.
    const overhead = Math.max(0, countOf(overflow, view) - messages, input.fixedTokens ?? 0);
    const tokens = overhead + messages;
    const room = Math.min(
      compactionTarget(input.thresholds, input.fixedTokens ?? overhead),
      effectiveWithin(input.thresholds, overflow.maxTokens),
    );
    // 200 tokens of slack, as the drop step keeps: the estimate of a cut is not exact.
    const excess = tokens + 200 - room;
    if (excess <= 0) return Promise.resolve({ kind: "nothing" });
    const { entries, cut } = cutResults(view, overflowCutCaps(view, excess), OVERFLOW_CUT_WHY);
    if (cut === 0) return Promise.resolve({ kind: "nothing" });
    const postTokens = overhead + estimateEntriesTokens(entries);
    const logicalParent = chain.context().parentUuid;
    chain.push(
      createSystemEntry(
        { ...chain.context(), parentUuid: null },
        "compact_boundary",
        `Tool result${cut === 1 ? "" : "s"} cut to fit the context window (no summary could be had): ~${tokens.toLocaleString("en-US")} → ~${postTokens.toLocaleString("en-US")} tokens; ${cut} result${cut === 1 ? "" : "s"} cut`,
        {
          logicalParentUuid: logicalParent,
          compactMetadata: { trigger: "reactive", preTokens: tokens, postTokens },
        },
      ),
    );
    copyTail(entries, chain);
    return Promise.resolve({ kind: "retry", compacted: true });
  },
};
