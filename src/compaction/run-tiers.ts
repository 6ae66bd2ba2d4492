/**
 * One compaction pass, run every turn before request assembly: the tiers of `COMPACTION_TIERS` folded in
 * their fixed order. Pure with respect to the timeline: records are returned for the loop to append, and the
 * returned view already reflects them, so the next turn (projecting the timeline with those records
 * appended) yields the same bytes.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { apiViewWithErrors } from "../timeline/index.js";
import { autocompactTier } from "./autocompact/autocompact-tier.js";
import { collapseTier } from "./collapse/collapse-tier.js";
import { microcompactTier } from "./microcompact/microcompact-tier.js";
import { RecordChain } from "./record-chain.js";
import { snipTier } from "./snip/snip-tier.js";
import type { Tier, TierOutput, TierPass } from "./tier.js";
import type { CompactionInput, CompactionOutput } from "./types.js";

/**
 * The tiers, in the order every pass runs them (docs/PIPELINE.md §3): snip shrinks what microcompact scans;
 * microcompact's cache edits are placed before collapse projects; collapse may make autocompact unnecessary;
 * autocompact is the backstop. The prompt-too-long chain asks them in the same order.
 */
export const COMPACTION_TIERS: readonly Tier[] = [snipTier, microcompactTier, collapseTier, autocompactTier];

/** The fold's state: what the tiers so far left, seen by the next one as a `TierPass`. */
class PassState implements TierPass {
  readonly chain: RecordChain;
  tokens: number | undefined;
  #messages: MessageEntry[] | undefined;
  #entries: TimelineEntry[] | undefined;

  constructor(readonly input: CompactionInput) {
    this.chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
  }

  /** One array per record count, so the tiers (and the view) between two pushes share it. */
  get entries(): readonly TimelineEntry[] {
    const records = this.chain.records;
    if (records.length === 0) return this.input.entries;
    if (this.#entries?.length !== this.input.entries.length + records.length)
      this.#entries = [...this.input.entries, ...records];
    return this.#entries;
  }

  get messages(): MessageEntry[] {
    this.#messages ??= apiViewWithErrors(this.entries);
    return this.#messages;
  }

  set messages(messages: MessageEntry[]) {
    this.#messages = messages;
  }
}

/** Runs the enabled tiers of `tiers` (default COMPACTION_TIERS) in order; a disabled tier is skipped entirely. */
export async function runCompactionTiers(
  input: CompactionInput,
  tiers: readonly Tier[] = COMPACTION_TIERS,
): Promise<CompactionOutput> {
  const pass = new PassState(input);
  const output: CompactionOutput = {
    messages: [],
    records: pass.chain.records,
    newCacheEdits: [],
    relayBreakpoints: [],
    cacheEditing: false,
    snipTags: false,
  };
  let replaced = false;
  const kept: Array<(chain: RecordChain) => void> = [];
  for (const tier of tiers) {
    if (!tier.enabled(input.settings)) continue;
    const result: TierOutput = await tier.run(pass);
    if (result.messages !== undefined) pass.messages = result.messages;
    if (result.tokens !== undefined) pass.tokens = result.tokens;
    if (result.newCacheEdits !== undefined) output.newCacheEdits = result.newCacheEdits;
    if (result.relayBreakpoints !== undefined) output.relayBreakpoints = result.relayBreakpoints;
    if (result.cacheEditing !== undefined) output.cacheEditing = result.cacheEditing;
    if (result.snipTags !== undefined) output.snipTags = result.snipTags;
    if (result.contextManagement !== undefined) output.contextManagement = result.contextManagement;
    if (result.expectCacheDrop !== undefined) output.expectCacheDrop ??= result.expectCacheDrop;
    if (result.compacted === true) output.compacted = true;
    if (result.replacedView === true) replaced = true;
    if (result.recordIfKept !== undefined) kept.push(result.recordIfKept);
  }
  if (pass.tokens !== undefined) output.tokens = pass.tokens;
  // Cache edits go out (and are recorded) only when the messages they name are still the ones sent.
  if (replaced) {
    output.newCacheEdits = [];
    // The prefix the relays were for was replaced too.
    output.relayBreakpoints = [];
  }
  if (!replaced) for (const record of kept) record(pass.chain);
  output.messages = pass.messages;
  return output;
}
