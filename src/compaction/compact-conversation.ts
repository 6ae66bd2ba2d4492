/**
 * One compaction: summarise the conversation (session memory when it covers enough, else the forked summary
 * request), then append a `compact_boundary`, the summary as the new first user message, and copies of the
 * recent API rounds (the most recent tool results stay verbatim). Nothing is edited: the API view simply
 * starts after the boundary, and the UI still shows everything before it.
 */
import { randomUUID } from "node:crypto";
import type { AssistantEntry, MessageEntry, TimelineEntry, UserEntry } from "../messages/index.js";
import { createSystemEntry, createUserEntry, estimateTextTokens, textBlock } from "../messages/index.js";
import { type ApiRound, groupByApiRound, startsWithResponse } from "./api-rounds.js";
import { buildArtifactTrail, renderArtifactTrail } from "./artifact-trail.js";
import { estimateEntriesTokens } from "./entry-tokens.js";
import {
  DEFAULT_POST_COMPACT_RESTORE_WINDOW_RATIO,
  type RestoredFiles,
  restoreRecentFiles,
} from "./post-compact-restore.js";
import { projectApiView } from "./project-view.js";
import type { RecordChain } from "./record-chain.js";
import { effectiveKeepRecent } from "./settings.js";
import { summarizeConversation } from "./summary-input.js";
import { compactSummaryText, summaryInstruction } from "./summary-request.js";
import { effectiveContextWindow } from "./thresholds.js";
import type { CompactionInput } from "./types.js";

/** Share of the effective window the kept recent rounds may use: 25 %. */
export const DEFAULT_TAIL_BUDGET_RATIO = 0.25;

export type CompactTrigger = "auto" | "manual" | "reactive";

export interface CompactOptions {
  trigger: CompactTrigger;
  /** Extra instructions for the summary (manual /compact). Default none. */
  instructions?: string;
  /** Context tokens before compaction (for the boundary's metadata). */
  preTokens: number;
}

export interface CompactOutcome {
  messages: MessageEntry[];
  /** Estimated context tokens after compaction. */
  tokens: number;
  /** Model calls made (0 when session memory was used). */
  calls: number;
  usedSessionMemory: boolean;
  /** Files re-attached after the summary. */
  restoredFiles: string[];
}

/** Number of trailing rounds to keep: enough for `keepRecent` tool results, within `budget`, never all. */
export function tailRoundCount(rounds: readonly ApiRound[], keepRecent: number, budget: number): number {
  const eligible = rounds.length - (rounds.length > 0 && !startsWithResponse(rounds[0]!) ? 1 : 0);
  const most = Math.min(eligible, rounds.length - 1);
  if (most <= 0) return 0;
  let count = 1;
  let results = toolResultCount(rounds.at(-1)!);
  while (count < most && results < keepRecent) {
    count++;
    results += toolResultCount(rounds.at(-count)!);
  }
  while (count > 1 && tokensOf(rounds.slice(-count)) > budget) count--;
  return count;
}

function toolResultCount(round: ApiRound): number {
  let count = 0;
  for (const entry of round.entries) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content) if (block.type === "tool_result") count++;
  }
  return count;
}

function tokensOf(rounds: readonly ApiRound[]): number {
  return rounds.reduce((sum, round) => sum + round.tokens, 0);
}

/** Copies of the kept entries, chained after the summary; copied responses drop their (stale) usage. */
function copyTail(tail: readonly MessageEntry[], chain: RecordChain): void {
  const renamed = new Map<string, string>();
  for (const entry of tail) {
    const uuid = randomUUID();
    renamed.set(entry.uuid, uuid);
    const base = { uuid, parentUuid: chain.context().parentUuid, timestamp: chain.now.toISOString() };
    if (entry.type === "assistant") {
      const { usage: _stale, ...message } = entry.message;
      const copy: AssistantEntry = { ...entry, ...base, message };
      chain.push(copy);
    } else if (entry.type === "user") {
      const copy: UserEntry = { ...entry, ...base };
      const source = entry.sourceToolAssistantUUID;
      if (source !== undefined) copy.sourceToolAssistantUUID = renamed.get(source) ?? source;
      chain.push(copy);
    } else {
      chain.push({ ...entry, ...base });
    }
  }
}

/** The kept rounds when session memory covers the conversation up to its `throughUuid` (undefined: it cannot). */
function memoryTail(rounds: readonly ApiRound[], throughUuid: string, budget: number): MessageEntry[] | undefined {
  const index = rounds.findIndex((round) => round.entries.some((entry) => entry.uuid === throughUuid));
  if (index <= 0 || !startsWithResponse(rounds[index]!)) return undefined;
  const kept = rounds.slice(index);
  if (tokensOf(kept) > budget) return undefined;
  return kept.flatMap((round) => round.entries);
}

/** Compacts `view`; records go onto `chain`. Throws when the summary cannot be made. */
export async function compactConversation(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  options: CompactOptions,
): Promise<CompactOutcome> {
  const effective = effectiveContextWindow(input.model, input.contextWindow);
  const tailBudget = Math.floor(effective * DEFAULT_TAIL_BUDGET_RATIO);
  const rounds = groupByApiRound(view);
  // Built from the whole timeline: what earlier compactions summarized away is still listed.
  const trail = buildArtifactTrail(input.entries);
  const trailText = renderArtifactTrail(trail);
  let summary: string | undefined;
  let tail: MessageEntry[] | undefined;
  let calls = 0;
  // PreCompact hooks (docs/HOOKS.md): what they print is extra instructions for this summary.
  const extra = await input.beforeCompact?.(options.trigger === "manual" ? "manual" : "auto", options.instructions);
  const instructions = [options.instructions, extra]
    .filter((part) => part !== undefined && part.trim() !== "")
    .join("\n\n");
  const memory = options.instructions === undefined ? input.autoCompact?.sessionMemory?.() : undefined;
  if (memory !== undefined) {
    tail = memoryTail(rounds, memory.throughUuid, tailBudget);
    if (tail !== undefined) summary = memory.summary;
  }
  const usedSessionMemory = summary !== undefined;
  if (summary === undefined) {
    const fork = input.fork;
    if (fork === undefined) throw new Error("no model is available for the summary request");
    tail = rounds
      .slice(rounds.length - tailRoundCount(rounds, effectiveKeepRecent(input.settings), tailBudget))
      .flatMap((round) => round.entries);
    const result = await summarizeConversation(view, {
      fork,
      instruction: summaryInstruction(instructions === "" ? undefined : instructions, trailText),
      budget: Math.min(effective, fork.contextWindow),
      sessionId: input.sessionId,
    });
    summary = result.summary;
    calls = result.calls;
  }
  const kept = tail ?? [];
  const summaryText = compactSummaryText(summary, trailText);
  let restored: RestoredFiles | undefined;
  // Not while recovering from "prompt is too long": the server's window is smaller than the client thought.
  if (input.restoreFile !== undefined && options.trigger !== "reactive")
    restored = await restoreRecentFiles(
      trail,
      kept,
      input.restoreFile,
      Math.min(
        input.settings.postCompactRestoreTokens,
        Math.floor(effective * DEFAULT_POST_COMPACT_RESTORE_WINDOW_RATIO),
      ),
    );
  const postTokens = estimateEntriesTokens(kept) + estimateTextTokens(summaryText) + (restored?.tokens ?? 0);
  const logicalParent = chain.context().parentUuid;
  chain.push(
    createSystemEntry(
      { ...chain.context(), parentUuid: null },
      "compact_boundary",
      `Conversation compacted (${options.trigger}): ~${options.preTokens.toLocaleString("en-US")} → ~${postTokens.toLocaleString("en-US")} tokens`,
      {
        logicalParentUuid: logicalParent,
        compactMetadata: { trigger: options.trigger, preTokens: options.preTokens, postTokens },
      },
    ),
  );
  chain.push(createUserEntry(chain.context(), [textBlock(summaryText)], { isCompactSummary: true, isMeta: true }));
  if (restored !== undefined)
    chain.push(createUserEntry(chain.context(), [textBlock(restored.text)], { isMeta: true }));
  copyTail(kept, chain);
  const entries: TimelineEntry[] = [...input.entries, ...chain.records];
  const messages = projectApiView(entries, input.settings);
  return {
    messages,
    tokens: estimateEntriesTokens(messages),
    calls,
    usedSessionMemory,
    restoredFiles: restored?.files ?? [],
  };
}
