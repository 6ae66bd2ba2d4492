/**
 * Stage 1 of an iteration: the compaction tiers, in their fixed order. They only add records; this stage
 * records them, resets the latches after a compaction and tells the cache detector which drop to expect.
 */
import { type CompactionOutput, runCompactionTiers } from "../compaction/index.js";
import { attachmentExtra, loadedMemory, MEMORY_ATTACHMENT_TYPE, memoryToReattach } from "../memory/index.js";
import { createAttachmentEntry, type ModelLimits } from "../messages/index.js";
import { emptyLatches } from "../request/index.js";
import { compactionInput } from "./compaction-input.js";
import type { EngineEvent } from "./events.js";
import { cachedDeleteTokens, DEFAULT_CACHE_EDIT_ESTIMATE_SLACK } from "./expected-drops.js";
import { recordSideRequests, type TurnState } from "./turn-state.js";

/** Runs the tiers and records what they produced; yields the records a person should see. */
export async function* compactStage(
  turn: TurnState,
  limits: ModelLimits,
): AsyncGenerator<EngineEvent, CompactionOutput> {
  const { context } = turn;
  const detector = context.cacheDetector;
  const compaction = await runCompactionTiers(compactionInput(turn, limits)).finally(() => recordSideRequests(turn));
  for (const record of compaction.records) {
    turn.recorder.append(record);
    if (record.type === "system" || record.type === "attachment") yield { type: "entry", entry: record };
  }
  yield* reattachMemory(turn, compaction);
  // Latches reset on compaction (docs/PIPELINE.md §4); the boundary makes a resume agree.
  if (compaction.compacted === true) context.state.latches = emptyLatches();
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

/**
 * Memory files a tier took out of the view are recorded again, verbatim, and sent in this request: the
 * records land at the end of the timeline, so the next pass projects them at the same place
 * (docs/MEMORY.md "Kept through compaction").
 */
function* reattachMemory(turn: TurnState, compaction: CompactionOutput): Generator<EngineEvent> {
  const { context, recorder } = turn;
  if (context.memory === undefined) return;
  const missing = memoryToReattach(compaction.messages, loadedMemory(context.timeline.entries));
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
