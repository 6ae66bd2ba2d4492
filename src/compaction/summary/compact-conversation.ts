/**
 * One compaction: summarise the conversation (compaction notes when it covers enough, else the forked summary
 * request), then append a `compact_boundary`, the summary as the new first user message, and copies of the
 * recent API rounds. Nothing is edited: the API view simply starts after the boundary, and the UI still shows
 * everything before it. A compaction has a target (docs/ARCHITECTURE.md "Compaction target"): system and tools,
 * summary, extra attachments (memory), kept tail and restored files must fit `compactionTargetTokens`; the tail is
 * budgeted in tokens (tail-budget.ts) and restored files get what is left.
 */
import type { MessageEntry, TimelineEntry } from "../../messages/index.js";
import {
  addResponseUsage,
  type CompactMetadata,
  createSystemEntry,
  createUserEntry,
  emptyUsage,
  estimateTextTokens,
  modelLimits,
  type TurnUsage,
  textBlock,
} from "../../messages/index.js";
import { compactionTarget } from "../budget/context-thresholds.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { projectApiView } from "../project-view.js";
import type { RecordChain } from "../record-chain.js";
import { effectiveKeepRecent } from "../settings.js";
import { groupByApiRound } from "../tail/api-rounds.js";
import { currentPrompt, keptPromptSection } from "../tail/kept-prompt.js";
import { budgetTail, copyTail, notesTail } from "../tail/tail-budget.js";
import type { CompactionInput } from "../types.js";
import { buildArtifactTrail, renderArtifactTrail } from "./artifact-trail.js";
import type { ForkRunner } from "./fork-runner.js";
import {
  DEFAULT_POST_COMPACT_RESTORE_WINDOW_RATIO,
  type RestoredFiles,
  restoreRecentFiles,
} from "./post-compact-restore.js";
import { summarizeConversation } from "./summary-input.js";
import { compactSummaryText, summaryInstruction } from "./summary-request.js";

/** Share of the effective window the kept recent rounds may use at most (the target may leave them less): 25 %. */
export const DEFAULT_TAIL_BUDGET_RATIO = 0.25;

/**
 * Share of the pre-compaction context taken as system and tools at most, when the count before compaction
 * (which includes them) is far above the messages' estimate (a server counting differently): 50 %.
 */
const MAX_OVERHEAD_SHARE = 0.5;

/**
 * Share of the target the client's estimates aim at: 95 %. The server counts a little more than the estimate
 * (the emulator counts the JSON body): aiming at the target itself left the next request at 100.2–103.3 % of
 * it at a 16K window (bench/compaction-pressure.ts).
 */
export const DEFAULT_TARGET_AIM_RATIO = 0.95;

/**
 * Share of the aim left for the kept tail when the summary's `max_tokens` is bounded: 10 % (446 tokens at a
 * 16K window, about one round). Without it a summary may take all the room the target leaves and the tail gets
 * nothing. Not more: at 60K a 15 % tail already bounded the 12,000-token reserve that fits there.
 */
export const DEFAULT_MIN_TAIL_AIM_RATIO = 0.1;

/** Smallest `max_tokens` a summary request gets, however little room the target leaves: 256. */
export const DEFAULT_MIN_SUMMARY_TOKENS = 256;

/**
 * The largest share of the room after a compaction (its aim less system, tools and attachments) the artifact trail
 * may take: 25 %. The rest is the summary's and the kept tail's. At 200K the trail never comes near it.
 */
export const TRAIL_ROOM_SHARE = 0.25;

/**
 * The largest share of that room the person's current prompt takes when it goes on after the summary (a longer
 * one keeps its beginning and end; kept-prompt.ts): 50 %. A typed prompt is a few hundred tokens; a pasted log
 * can be the whole window.
 */
export const KEPT_PROMPT_ROOM_SHARE = 0.5;

/**
 * The summary's output cap: the output reserve, or what the aim leaves after system and tools, attachments, the
 * summary's frame (prefix, tags, artifact trail) and a minimal tail, if that is smaller (docs/ARCHITECTURE.md
 * "Compaction target"). At 16K the reserve (3,200) alone nearly fills the 4,704-token target; from ~64K up the
 * reserve is what binds for usual system prompts, and nothing changes there.
 */
export function summaryMaxTokens(reserve: number, aim: number, fixedTokens: number): number {
  const room = aim - fixedTokens - Math.floor(aim * DEFAULT_MIN_TAIL_AIM_RATIO);
  return Math.max(DEFAULT_MIN_SUMMARY_TOKENS, Math.min(reserve, room));
}

export type CompactTrigger = "auto" | "manual" | "reactive";

export interface CompactOptions {
  trigger: CompactTrigger;
  /** Extra instructions for the summary (manual /compact). Default none. */
  instructions?: string;
  /** More instructions for the summary (a PreCompact hook's output), after `instructions`. Default none. */
  extraInstructions?: string;
  /** Context tokens before compaction, system and tools included (for the boundary's metadata and the target). */
  preTokens: number;
}

export interface CompactOutcome {
  messages: MessageEntry[];
  /** Estimated context tokens after compaction. */
  tokens: number;
  /** Model calls made (0 when the compaction notes were used). */
  calls: number;
  usedCompactionNotes: boolean;
  /** Files re-attached after the summary. */
  restoredFiles: string[];
  /** Estimated context after compaction, system and tools included (what the next request sends before new input). */
  contextTokens: number;
  /** The bound the compaction had to reach: compactionTargetTokens above the prefix (it aims lower, at 40 %). */
  targetTokens: number;
  /** Tail results cleared and cut to fit, and rounds left out of the tail. */
  tail: { cleared: number; cut: number; droppedRounds: number };
}

/** Tokens of a forked request's system and tools: a request of one tiny message, less that message. */
function requestOverhead(fork: ForkRunner, sessionId: string): number {
  const probe = createUserEntry({ sessionId, parentUuid: null, uuid: "00000000-0000-4000-8000-0000000000aa" }, [
    textBlock("."),
  ]);
  return Math.max(
    0,
    fork.estimate({ messages: [probe], instruction: ".", maxTokens: 1 }) - 2 * estimateEntriesTokens([probe]),
  );
}

/** Joins the manual and the hook's instructions (either may be absent). */
function joinInstructions(options: CompactOptions, hookText?: string): string | undefined {
  const parts = [options.instructions, options.extraInstructions, hookText].filter(
    (part): part is string => part !== undefined && part.trim() !== "",
  );
  return parts.length === 0 ? undefined : parts.join("\n\n");
}

/** The boundary's metadata; `summaryUsage` only when a summary request was made. */
function compactMetadata(
  options: CompactOptions,
  postTokens: number,
  summaryUsage?: TurnUsage,
  notCacheSafe?: string,
): CompactMetadata {
  const metadata: CompactMetadata = { trigger: options.trigger, preTokens: options.preTokens, postTokens };
  if (summaryUsage !== undefined) metadata.summaryUsage = summaryUsage;
  if (notCacheSafe !== undefined) metadata.notCacheSafe = notCacheSafe;
  return metadata;
}

/** Compacts `view`; records go onto `chain`. Throws when the summary cannot be made. */
export async function compactConversation(
  input: CompactionInput,
  view: readonly MessageEntry[],
  chain: RecordChain,
  options: CompactOptions,
): Promise<CompactOutcome> {
  const effective = input.thresholds.estimate.effective;
  // 40 % of the threshold, not the prefix-aware target autocompact's breaker checks (thresholds.ts): aiming lower
  // than the bound leaves more room before the next compaction (the ruler grid at 16K ×4: 3 compactions, 5
  // re-reads, cost 154K aiming here; 4, 7 and 196K aiming at the bound).
  const target = input.thresholds.estimate.target;
  const viewTokens = estimateEntriesTokens(view);
  // System and tools (they stay as they are): the fork's estimate of a request without messages, else what the
  // count before compaction holds beyond the messages (a server's count can run well above the estimate).
  const overhead =
    input.fork !== undefined
      ? requestOverhead(input.fork, input.sessionId)
      : Math.min(Math.max(0, options.preTokens - viewTokens), Math.floor(target * MAX_OVERHEAD_SHARE));
  const aim = Math.floor(target * DEFAULT_TARGET_AIM_RATIO);
  const attachments = (input.restoreAttachments ?? []).filter((text) => text !== "");
  const attachmentTokens =
    attachments.reduce((sum, text) => sum + estimateTextTokens(text), 0) + (input.reservedAttachmentTokens ?? 0);
  const maxTail = Math.floor(effective * DEFAULT_TAIL_BUDGET_RATIO);
  const rounds = groupByApiRound(view);
  // Built from the whole timeline: what earlier compactions summarized away is still listed — as much of it as
  // a share of the room after the compaction holds (the most recent first; artifact-trail.ts).
  const trail = buildArtifactTrail(input.entries);
  const roomAfter = Math.max(0, aim - overhead - attachmentTokens);
  const trailText = renderArtifactTrail(trail, Math.floor(roomAfter * TRAIL_ROOM_SHARE));
  // The person's current prompt, carried after the summary when the kept tail does not hold it (kept-prompt.ts):
  // room is kept for it from the start, since whether the tail holds it is known only at the end. Not for a manual
  // /compact: it runs between turns, when the latest prompt may be answered already.
  const prompt = options.trigger === "manual" ? undefined : currentPrompt(view);
  const promptSection =
    prompt === undefined ? "" : keptPromptSection(prompt, Math.floor(roomAfter * KEPT_PROMPT_ROOM_SHARE));
  const withPrompt = [trailText, promptSection].filter((part) => part !== "").join("\n\n");
  let summary: string | undefined;
  let tail: MessageEntry[] | undefined;
  let tailFit = { cleared: 0, cut: 0, droppedRounds: 0 };
  let calls = 0;
  let summaryUsage: TurnUsage | undefined;
  let notCacheSafe: string | undefined;
  // PreCompact hooks (docs/HOOKS.md): what they print joins this summary's instructions.
  const extra = await input.beforeCompact?.(options.trigger === "manual" ? "manual" : "auto", options.instructions);
  const instructions = joinInstructions(options, extra);
  const memory = instructions === undefined ? input.autoCompact?.compactionNotes?.() : undefined;
  if (memory !== undefined) {
    const room =
      target - overhead - attachmentTokens - estimateTextTokens(compactSummaryText(memory.summary, withPrompt));
    tail = notesTail(rounds, memory.throughUuid, Math.min(maxTail, room));
    if (tail !== undefined) summary = memory.summary;
  }
  const usedCompactionNotes = summary !== undefined;
  if (summary === undefined) {
    const fork = input.fork;
    if (fork === undefined) throw new Error("no model is available for the summary request");
    const reserve = input.thresholds.estimate.reserve;
    const frame = estimateTextTokens(compactSummaryText("", withPrompt));
    const maxTokens = summaryMaxTokens(reserve, aim, overhead + attachmentTokens + frame);
    const result = await summarizeConversation(view, {
      fork,
      // Asked for in words too when bounded, so the model plans a short summary rather than being cut mid-way.
      instruction: summaryInstruction(instructions, trailText, maxTokens < reserve ? maxTokens : undefined),
      budget: Math.min(effective, fork.estimateWindow),
      maxTokens,
      sessionId: input.sessionId,
      // The main request itself was refused as too long: the view plus an instruction cannot fit either.
      ...(options.trigger === "reactive" ? { notCacheSafe: "the server refused the main request as too long" } : {}),
    });
    summary = result.summary;
    notCacheSafe = result.notCacheSafe;
    calls = result.calls;
    // Priced from what the server reported, at the model's cache prices (docs/ARCHITECTURE.md "Compaction target").
    summaryUsage = emptyUsage();
    for (const usage of result.usages) addResponseUsage(summaryUsage, usage, modelLimits(input.model));
    const room = aim - overhead - attachmentTokens - estimateTextTokens(compactSummaryText(summary, withPrompt));
    const fitted = budgetTail(rounds, effectiveKeepRecent(input.settings), Math.max(0, Math.min(maxTail, room)));
    tail = fitted.entries;
    tailFit = { cleared: fitted.cleared, cut: fitted.cut, droppedRounds: fitted.droppedRounds };
  }
  const kept = tail ?? [];
  const summaryText = compactSummaryText(summary, currentPrompt(kept) === undefined ? withPrompt : trailText);
  const used = overhead + attachmentTokens + estimateTextTokens(summaryText) + estimateEntriesTokens(kept);
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
        aim - used,
      ),
    );
  const postTokens =
    estimateEntriesTokens(kept) + estimateTextTokens(summaryText) + attachmentTokens + (restored?.tokens ?? 0);
  const logicalParent = chain.context().parentUuid;
  chain.push(
    createSystemEntry(
      { ...chain.context(), parentUuid: null },
      "compact_boundary",
      `Conversation compacted (${options.trigger}): ~${options.preTokens.toLocaleString("en-US")} → ~${postTokens.toLocaleString("en-US")} tokens`,
      {
        logicalParentUuid: logicalParent,
        compactMetadata: compactMetadata(options, postTokens, summaryUsage, notCacheSafe),
      },
    ),
  );
  chain.push(createUserEntry(chain.context(), [textBlock(summaryText)], { isCompactSummary: true, isMeta: true }));
  for (const text of attachments) chain.push(createUserEntry(chain.context(), [textBlock(text)], { isMeta: true }));
  if (restored !== undefined)
    chain.push(createUserEntry(chain.context(), [textBlock(restored.text)], { isMeta: true }));
  copyTail(kept, chain);
  const entries: TimelineEntry[] = [...input.entries, ...chain.records];
  const messages = projectApiView(entries, input.settings);
  const tokens = estimateEntriesTokens(messages);
  // Judged (autocompact's breaker) against the bound above the prefix, not the lower aim — and never below what no
  // compaction can remove: system and tools, the summary, and the round in flight (the tool result the model is
  // about to read is never cut). Memory files re-attached over the target still count as a miss: they can be
  // shortened, and otherwise every turn would compact (test/compaction/progress.test.ts). Where system and tools are most of 40 % of the threshold, judging against that
  // made every compaction a "failure" and switched autocompact off by the third (16K counted ×4.1).
  const inFlight = rounds.at(-1)?.entries ?? [];
  const judgedTarget = Math.max(
    compactionTarget(input.thresholds, input.fixedTokens ?? overhead),
    overhead + estimateTextTokens(summaryText) + Math.min(estimateEntriesTokens(inFlight), estimateEntriesTokens(kept)),
  );
  return {
    messages,
    tokens,
    calls,
    usedCompactionNotes,
    restoredFiles: restored?.files ?? [],
    contextTokens: tokens + overhead,
    targetTokens: judgedTarget,
    tail: tailFit,
  };
}
