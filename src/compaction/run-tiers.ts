/**
 * One compaction pass, run every turn before request assembly, in the fixed order
 * snip ▸ microcompact ▸ collapse ▸ autocompact. Pure with respect to the timeline: records are returned
 * for the loop to append, and the returned view already reflects them, so the next turn (projecting the
 * timeline with those records appended) yields the same bytes.
 */
import type { TimelineEntry } from "../messages/index.js";
import { apiViewWithErrors } from "../timeline/index.js";
import { runMicrocompact } from "./microcompact/run-microcompact.js";
import { RecordChain } from "./record-chain.js";
import { contextEfficiencyNudge } from "./snip/nudge.js";
import { applyCollapsesIfNeeded, autoCompactIfNeeded } from "./tier-hooks.js";
import type { CompactionInput, CompactionOutput } from "./types.js";

/** Runs the enabled tiers; a disabled tier is skipped entirely. */
export async function runCompactionTiers(input: CompactionInput): Promise<CompactionOutput> {
  const { settings } = input;
  const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);

  // Tier 1: snip. The model snips through its tool; the pass only nudges.
  if (settings.snip) {
    const nudge = contextEfficiencyNudge({
      entries: input.entries,
      intervalTokens: settings.nudgeIntervalTokens,
      sessionId: input.sessionId,
      parentUuid: input.parentUuid,
      now: input.now,
    });
    if (nudge !== undefined) chain.push(nudge);
  }
  const entries: readonly TimelineEntry[] =
    chain.records.length === 0 ? input.entries : [...input.entries, ...chain.records];
  let messages = apiViewWithErrors(entries);

  const output: CompactionOutput = {
    messages,
    records: chain.records,
    newCacheEdits: [],
    cacheEditing: false,
    snipTags: settings.snip,
  };

  // Tier 2: microcompact.
  let recordCachedDeletes: ((records: RecordChain) => void) | undefined;
  if (settings.microcompact) {
    const result = runMicrocompact(input, entries, messages, chain);
    messages = result.messages;
    output.newCacheEdits = result.newCacheEdits;
    output.cacheEditing = result.cacheEditing;
    if (result.contextManagement !== undefined) output.contextManagement = result.contextManagement;
    if (result.expectCacheDrop !== undefined) output.expectCacheDrop = result.expectCacheDrop;
    recordCachedDeletes = result.recordCachedDeletes;
  }

  // Tiers 3 and 4: each hands its view and token estimate to the next.
  let tokens: number | undefined;
  let replaced = false;
  if (settings.collapse) {
    const recordsBefore = chain.records.length;
    const collapsed = await applyCollapsesIfNeeded(input, messages, chain);
    messages = collapsed.messages;
    tokens = collapsed.tokens;
    // A commit replaces a span of the view with its summary: the cached prefix drops, as intended.
    if (chain.records.slice(recordsBefore).some((record) => record.type === "collapse-commit")) {
      output.expectCacheDrop ??= "context collapse committed staged spans";
      replaced = true;
    }
  }
  if (settings.autocompact) {
    const compacted = await autoCompactIfNeeded(input, messages, chain, tokens);
    messages = compacted.messages;
    tokens = compacted.tokens;
    if (compacted.compacted === true) {
      output.compacted = true;
      replaced = true;
    }
  }
  if (tokens !== undefined) output.tokens = tokens;
  // Cached deletes go out (and are recorded) only when the messages they name are still the ones sent.
  if (replaced) output.newCacheEdits = [];
  else recordCachedDeletes?.(chain);

  output.messages = messages;
  return output;
}
