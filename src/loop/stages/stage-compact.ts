/**
 * Stage 1 of an iteration: the compaction tiers, in their fixed order. They only add records; this stage
 * hands them to the one after-work (after-compaction.ts: records, re-attached memory and task list, hooks,
 * latches, the expected cache drop) and tells the cache detector what the pass's own clears and edits drop.
 * It is also compaction's entrance outside a turn: /compact runs it with a `CompactRequest` (query.ts
 * `compactNow`), so the input and the after-work are the loop's (docs/ARCHITECTURE.md "One entrance for
 * compaction").
 */
import {
  type BudgetLimits,
  type CompactionInput,
  type CompactionOutput,
  type CompactRequest,
  compactByHand,
  runCompactionTiers,
} from "../../compaction/index.js";
import { afterCompaction } from "../after-compaction.js";
import { cachedDeleteTokens, DEFAULT_CACHE_EDIT_ESTIMATE_SLACK } from "../budget/expected-drops.js";
import { compactionInput } from "../compaction/compaction-input.js";
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
  compaction.messages = yield* afterCompaction(turn, limits, {
    records: compaction.records,
    messages: compaction.messages,
    ...(compaction.compacted === true ? { compacted: true } : {}),
    trigger: request !== undefined ? "manual" : "auto",
  });
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
