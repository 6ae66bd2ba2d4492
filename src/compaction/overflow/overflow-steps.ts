/**
 * The prompt-too-long chain's steps around the tiers' own (docs/ARCHITECTURE.md "Overflow chain"): first clear
 * old tool results (no model call; microcompact's step, as its projection applies the clears), then the tiers'
 * steps (collapse drain, reactive compaction), and last drop the oldest rounds behind a marker that says what was
 * dropped, so a session never ends while something can still be dropped.
 */

import type { MessageEntry } from "../../messages/index.js";
import { createSystemEntry, createUserEntry, estimateTextTokens, textBlock } from "../../messages/index.js";
import { compactionTarget, effectiveWithin } from "../budget/context-thresholds.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { tokenCountWithEstimation } from "../budget/thresholds.js";
import { projectApiView } from "../project-view.js";
import { planRoomClear, recordRoomClear } from "../results/clear-for-room.js";
import { groupByApiRound } from "../tail/api-rounds.js";
import { currentPrompt, keptPromptSection } from "../tail/kept-prompt.js";
import { copyTail, roundsWithinRoom } from "../tail/tail-budget.js";
import type { OverflowFacts, OverflowStep } from "../tier.js";
import type { CompactionInput } from "../types.js";

/** The token count to make room from: the server's, when it said, else the estimate. */
export function countOf(overflow: OverflowFacts, view: readonly MessageEntry[]): number {
  return overflow.actualTokens ?? tokenCountWithEstimation(view);
}

/**
 * The view as the server reads it: a synthetic API-error reply (the "Prompt is too long" the loop records for a
 * refused request) is never sent, and counted as a round it would be "the newest round", so the round holding
 * the result the model has not read yet was dropped in its place (issue 58: at 65K the 4th `seq` output).
 */
export function sendableView(input: Pick<CompactionInput, "entries" | "settings">): MessageEntry[] {
  return projectApiView(input.entries, input.settings).filter(
    (entry) => !(entry.type === "assistant" && entry.isApiErrorMessage === true),
  );
}

/** Step 1: clear every old compactable result (microcompact's overflow step). */
export const clearOverflowStep: OverflowStep = {
  reason: "overflow_clear",
  label: "clearing old tool results",
  relieve(input, chain, overflow) {
    const view = projectApiView(input.entries, input.settings);
    const tokens = countOf(overflow, view);
    const clear = planRoomClear(input, view, tokens);
    if (clear === undefined) return Promise.resolve({ kind: "nothing" });
    recordRoomClear(chain, clear, tokens, "the prompt was over the context window");
    return Promise.resolve({ kind: "retry", compacted: false });
  },
};

/** Tool names and file paths of `entries`' tool calls, for the marker (at most 12 listed). */
function whatWasDone(entries: readonly MessageEntry[]): string {
  const seen: string[] = [];
  for (const entry of entries) {
    if (entry.type !== "assistant") continue;
    for (const block of entry.message.content) {
      if (block.type !== "tool_use") continue;
      const input = block.input as Record<string, unknown> | null;
      const target = input?.file_path ?? input?.path ?? input?.command ?? input?.pattern;
      const label = typeof target === "string" ? `${block.name} ${target.slice(0, 80)}` : block.name;
      if (!seen.includes(label)) seen.push(label);
    }
  }
  if (seen.length === 0) return "no tool calls";
  const listed = seen.slice(0, 12).join("; ");
  return seen.length > 12 ? `${listed}; and ${seen.length - 12} more` : listed;
}

/** The marker that replaces dropped rounds: how many, how big, and what they did. */
export function droppedRoundsMarker(rounds: number, tokens: number, entries: readonly MessageEntry[]): string {
  return (
    `[${rounds} earlier round${rounds === 1 ? "" : "s"} of this conversation (~${tokens.toLocaleString("en-US")} tokens) ` +
    `were dropped to fit the context window, without a summary. They included: ${whatWasDone(entries)}. ` +
    "Read a file again if you need what it said.]"
  );
}

/**
 * The dropped rounds' marker, with the person's current prompt kept verbatim when it was among them: the task
 * is never dropped (docs/CONTEXT-BUDGET.md "The task is never dropped").
 */
function markerKeepingPrompt(
  rounds: number,
  tokens: number,
  dropped: readonly MessageEntry[],
  kept: readonly MessageEntry[],
): string {
  const marker = droppedRoundsMarker(rounds, tokens, dropped);
  const prompt = currentPrompt(kept) === undefined ? currentPrompt(dropped) : undefined;
  return prompt === undefined ? marker : `${marker}\n\n${keptPromptSection(prompt, Number.POSITIVE_INFINITY)}`;
}

/**
 * Step 3: a compaction with no model call. The oldest rounds are replaced by the marker until the rest fits
 * the target (at least the newest round stays); recorded as a compact boundary, so a resume agrees.
 */
export const dropOverflowStep: OverflowStep = {
  reason: "overflow_drop",
  label: "dropping the oldest rounds",
  relieve(input, chain, overflow) {
    const view = sendableView(input);
    const rounds = groupByApiRound(view);
    if (rounds.length <= 1) return Promise.resolve({ kind: "nothing" });
    const tokens = countOf(overflow, view);
    const overhead = Math.max(0, tokens - estimateEntriesTokens(view));
    const room = Math.min(
      compactionTarget(input.thresholds, input.fixedTokens ?? overhead),
      effectiveWithin(input.thresholds, overflow.maxTokens),
    );
    const keep = roundsWithinRoom(rounds, overhead, room);
    const kept = rounds.slice(-keep).reduce((sum, round) => sum + round.tokens, 0);
    const dropped = rounds.slice(0, rounds.length - keep);
    const droppedEntries = dropped.flatMap((round) => round.entries);
    const droppedTokens = dropped.reduce((sum, round) => sum + round.tokens, 0);
    const tail = rounds.slice(-keep).flatMap((round) => round.entries);
    const marker = markerKeepingPrompt(dropped.length, droppedTokens, droppedEntries, tail);
    const logicalParent = chain.context().parentUuid;
    // The whole request after the cut, as `tokens` counts the one before it (system and tools included).
    const postTokens = overhead + kept + estimateTextTokens(marker);
    chain.push(
      createSystemEntry(
        { ...chain.context(), parentUuid: null },
        "compact_boundary",
        `Conversation cut to fit (reactive): ~${tokens.toLocaleString("en-US")} → ~${postTokens.toLocaleString("en-US")} tokens; ${dropped.length} oldest rounds dropped`,
        {
          logicalParentUuid: logicalParent,
          compactMetadata: { trigger: "reactive", preTokens: tokens, postTokens },
        },
      ),
    );
    chain.push(createUserEntry(chain.context(), [textBlock(marker)], { isCompactSummary: true, isMeta: true }));
    copyTail(tail, chain);
    return Promise.resolve({ kind: "retry", compacted: true });
  },
};
