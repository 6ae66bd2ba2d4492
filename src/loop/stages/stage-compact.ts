/**
 * Stage 1 of an iteration: the compaction tiers, in their fixed order. They only add records; this stage
 * records them, resets the latches after a compaction and tells the cache detector which drop to expect.
 * It is also compaction's one entrance outside a turn: /compact runs it with a `CompactRequest`
 * (query.ts `compactNow`), so the input, the memory re-attached, the SessionStart hooks and the latches after
 * a compaction are the loop's (docs/ARCHITECTURE.md "One entrance for compaction").
 */
import {
  type BudgetLimits,
  type CompactionInput,
  type CompactionOutput,
  type CompactRequest,
  compactByHand,
  runCompactionTiers,
} from "../../compaction/index.js";
import { hookContextEntries } from "../../hooks/index.js";
import { attachmentExtra, loadedMemory, MEMORY_ATTACHMENT_TYPE, memoryToReattach } from "../../memory/index.js";
import { createAttachmentEntry } from "../../messages/index.js";
import { emptyLatches, fromLastCompaction } from "../../request/index.js";
import { expectCompactionTarget } from "../budget/budget-learning.js";
import { cachedDeleteTokens, DEFAULT_CACHE_EDIT_ESTIMATE_SLACK } from "../budget/expected-drops.js";
import { compactionInput } from "../compaction/compaction-input.js";
import { reattachTodos } from "../compaction/todo-reattach.js";
import type { EngineEvent } from "../events.js";
import { capabilities, recordSideRequests, type TurnState } from "../turn-state.js";

/**
 * Runs the tiers (or, given `request`, a compaction now) and records what they produced; yields the records a
 * person should see.
 */
export async function* compactStage(
  turn: TurnState,
  limits: BudgetLimits,
  request?: CompactRequest,
): AsyncGenerator<EngineEvent, CompactionOutput> {
  const { context } = turn;
  const detector = context.cacheDetector;
  const input = compactionInput(turn, limits);
  const compaction = await (request !== undefined ? compactByHand(input, request) : runTiers(turn, input)).finally(() =>
    recordSideRequests(turn),
  );
  for (const record of compaction.records) {
    turn.recorder.append(record);
    if (record.type === "system" || record.type === "attachment") yield { type: "entry", entry: record };
  }
  yield* reattachMemory(turn, compaction);
  yield* reattachTodos(turn, compaction);
  for (const notice of turn.hookNotices.splice(0)) yield turn.recorder.notice("warning", notice);
  // PostCompact hooks (Claude Code's): the trigger and the summary the conversation now starts from.
  if (compaction.compacted === true && context.hooks?.has("PostCompact") === true) {
    const trigger = request !== undefined ? "manual" : "auto";
    const fields = { trigger, compact_summary: compactSummary(compaction) };
    const outcome = await context.hooks.run("PostCompact", fields, trigger, context.signal);
    for (const notice of outcome.notices) yield turn.recorder.notice("warning", notice);
  }
  // After a compaction the session starts over from its summary: SessionStart hooks run with source "compact".
  if (compaction.compacted === true && context.hooks?.has("SessionStart") === true) {
    const outcome = await context.hooks.run("SessionStart", { source: "compact" }, "compact", context.signal);
    const entries = hookContextEntries(turn.recorder.context(), "SessionStart", outcome.context);
    for (const entry of entries) {
      turn.recorder.append(entry);
      yield { type: "entry", entry };
    }
    // Sent in this request too; the records sit at the timeline's end, where the next pass projects them.
    if (entries.length > 0) compaction.messages = [...compaction.messages, ...entries];
    for (const notice of outcome.notices) yield turn.recorder.notice("warning", notice);
  }
  // Latches reset on compaction (docs/PIPELINE.md §4); the boundary makes a resume agree.
  if (compaction.compacted === true) context.state.latches = emptyLatches();
  if (compaction.compacted === true) expectCompactionTarget(turn, limits);
  if (compaction.compacted === true) detector?.expectDrop("compaction"); // docs/PIPELINE.md §8: not a break
  if (compaction.expectCacheDrop) detector?.expectDrop(compaction.expectCacheDrop);
  // Cache edits delete tokens from the cached prefix on purpose: the read may fall by that much, no more.
  if (compaction.newCacheEdits.length > 0)
    detector?.expectDrop(
      `cache edits deleted ${compaction.newCacheEdits.length} old tool results`,
      undefined,
      Math.ceil(cachedDeleteTokens(compaction.records) * DEFAULT_CACHE_EDIT_ESTIMATE_SLACK),
    );
  return compaction;
}

/** The text of the summary a compaction recorded ("" when it recorded none, as a server compaction may not). */
function compactSummary(compaction: CompactionOutput): string {
  const summary = compaction.records.find((record) => record.type === "user" && record.isCompactSummary === true);
  if (summary?.type !== "user") return "";
  const content = summary.message.content;
  if (typeof content === "string") return content;
  return content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** The tiers in their order. Server-side compaction where declared replaces autocompact (the overflow chain keeps its own backstop). */
function runTiers(turn: TurnState, input: CompactionInput): Promise<CompactionOutput> {
  const declared = capabilities(turn);
  const serverCompacts = declared.serverCompaction === true && declared.betas !== false;
  return runCompactionTiers(serverCompacts ? withoutAutocompact(input) : input);
}

/** The tiers' input with autocompact off (the server compacts; docs/API-SURFACE.md "Server-side compaction"). */
function withoutAutocompact(input: CompactionInput): CompactionInput {
  return { ...input, settings: { ...input.settings, autocompact: false } };
}

/**
 * Memory files a tier took out of the view are recorded again, verbatim, and sent in this request: the
 * records land at the end of the timeline, so the next pass projects them at the same place
 * (docs/MEMORY.md "Kept through compaction").
 */
function* reattachMemory(turn: TurnState, compaction: CompactionOutput): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.memory === undefined) return;
  // What the request will hold: a server compaction block cuts off everything before it (request/server-compaction.ts).
  const missing = memoryToReattach(fromLastCompaction(compaction.messages), loadedMemory(context.timeline.entries));
  if (missing.length === 0) return;
  const added = missing.map((memory) =>
    createAttachmentEntry(recorder.context(), MEMORY_ATTACHMENT_TYPE, memory.content, attachmentExtra(memory)),
  );
  for (const entry of added) {
    recorder.append(entry);
    yield { type: "entry", entry };
  }
  compaction.messages = [...compaction.messages, ...added];
}
