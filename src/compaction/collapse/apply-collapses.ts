/**
 * Tier 3 in the compaction pass. Committing calls no model: at COLLAPSE_COMMIT_RATIO of the effective window
 * every staged span still in the view is committed (a CollapseCommitRecord each). Only at
 * COLLAPSE_URGENT_RATIO does the ctx-agent run on the critical path, and its span is committed at once.
 * `drainCollapses` (the first step of prompt-too-long recovery) commits whatever is staged, at any size.
 */
import { randomUUID } from "node:crypto";
import type { CollapseCommitRecord, MessageEntry, StagedCollapse, TimelineEntry } from "../../messages/index.js";
import type { ContextThresholds } from "../budget/context-thresholds.js";
import { estimateEntriesTokens, estimateEntryTokens } from "../budget/entry-tokens.js";
import { COLLAPSE_COMMIT_RATIO, COLLAPSE_URGENT_RATIO, tokenCountWithEstimation } from "../budget/thresholds.js";
import { projectApiView } from "../project-view.js";
import type { RecordChain } from "../record-chain.js";
import { effectiveKeepRecent } from "../settings.js";
import type { CompactionInput } from "../types.js";
import { collapseCommits, collapsedSpanEntry, projectCollapses, spanRange, stagedCollapses } from "./collapse-log.js";
import { runCtxAgent } from "./ctx-agent.js";

/** The view after tier 3 and the token estimate that goes with it. */
export interface CollapseResult {
  messages: MessageEntry[];
  tokens: number;
}

/** Token count at which staged spans are committed. */
export function collapseCommitThreshold(thresholds: ContextThresholds): number {
  return Math.floor(thresholds.estimate.effective * COLLAPSE_COMMIT_RATIO);
}

/** Token count at which the ctx-agent runs urgently (kept below the blocking limit on small windows). */
export function collapseUrgentThreshold(thresholds: ContextThresholds): number {
  const urgent = Math.floor(thresholds.estimate.effective * COLLAPSE_URGENT_RATIO);
  return Math.min(urgent, thresholds.estimate.blocking - 1);
}

interface CommitOutcome {
  view: MessageEntry[];
  saved: number;
  commits: number;
}

/** Commits every staged span present in `view` (oldest first), pushing one record each onto `chain`. */
function commitStaged(
  view: readonly MessageEntry[],
  staged: readonly StagedCollapse[],
  chain: RecordChain,
): CommitOutcome {
  let current = view.slice();
  let saved = 0;
  let commits = 0;
  for (const span of staged) {
    const range = spanRange(current, span.startUuid, span.endUuid);
    if (range === undefined) continue;
    const record: CollapseCommitRecord = {
      type: "collapse-commit",
      collapseId: randomUUID(),
      summaryUuid: randomUUID(),
      summary: span.summary,
      firstArchivedUuid: span.startUuid,
      lastArchivedUuid: span.endUuid,
      timestamp: chain.now.toISOString(),
      sessionId: chain.sessionId,
    };
    const archived = estimateEntriesTokens(current.slice(range.first, range.last + 1));
    const replacement = collapsedSpanEntry(record);
    saved += archived - estimateEntryTokens(replacement);
    current = [...current.slice(0, range.first), replacement, ...current.slice(range.last + 1)];
    chain.push(record);
    commits++;
  }
  return { view: current, saved, commits };
}

function allEntries(input: CompactionInput, chain: RecordChain): TimelineEntry[] {
  return [...input.entries, ...chain.records];
}

/** Tier 3: replays the commit log, commits at 90 %, runs the ctx-agent urgently at 95 %. */
export async function applyCollapses(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
): Promise<CollapseResult> {
  const entries = allEntries(input, chain);
  let messages = projectCollapses(view, collapseCommits(entries));
  // The last response's usage already reflects spans committed before it; savings made now are subtracted.
  let tokens = tokenCountWithEstimation(messages, input.tokenRatio);
  if (tokens < collapseCommitThreshold(input.thresholds)) return { messages, tokens };
  const committed = commitStaged(messages, stagedCollapses(entries), chain);
  messages = committed.view;
  tokens -= committed.saved;
  if (tokens < collapseUrgentThreshold(input.thresholds) || input.fork === undefined) return { messages, tokens };
  const snapshot = await runCtxAgent({
    view: messages,
    fork: input.fork,
    budget: input.thresholds.estimate.effective,
    sessionId: input.sessionId,
    now: input.now,
    compactableTools: input.compactableTools,
    keepRecent: effectiveKeepRecent(input.settings),
    staged: [],
  }).catch(() => undefined);
  if (snapshot === undefined) return { messages, tokens };
  chain.push(snapshot);
  const urgent = commitStaged(messages, snapshot.staged, chain);
  return { messages: urgent.view, tokens: tokens - urgent.saved };
}

/** Prompt-too-long recovery, step 1: commit every staged span now, whatever the size. Returns the commit count. */
export function drainCollapses(input: CompactionInput, chain: RecordChain): number {
  const entries = allEntries(input, chain);
  return commitStaged(projectApiView(entries, input.settings), stagedCollapses(entries), chain).commits;
}
