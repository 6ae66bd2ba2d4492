/**
 * The contract every compaction tier implements. The pass (`run-tiers.ts`) folds a fixed list of tiers in
 * order, each reading what the earlier ones left (`TierPass`) and returning what it changed (`TierOutput`); the
 * prompt-too-long chain (`loop/recovery/prompt-too-long.ts`) asks the same list, in the same order, for an `overflow` step.
 * Adding a tier is one file exporting a `Tier`, one entry in `COMPACTION_TIERS`, and its switch in
 * `CompactionSettings`.
 */
import type { CacheEditDelete, MessageEntry, TimelineEntry } from "../messages/index.js";
import type { ContextManagementEdit } from "../request/index.js";
import type { RecordChain } from "./record-chain.js";
import type { CompactionSettings } from "./settings.js";
import type { CompactionInput } from "./types.js";

/** What one pass has made so far, as the next tier sees it. */
export interface TierPass {
  readonly input: CompactionInput;
  /** This pass's records so far; a tier pushes its own here, in order (each chained to the previous). */
  readonly chain: RecordChain;
  /** The timeline with this pass's records so far appended (the timeline's own array when there are none). */
  readonly entries: readonly TimelineEntry[];
  /**
   * The API view the earlier tiers left: projected from `entries` the first time a tier reads it, then as
   * each tier that changed it returned it. A tier whose records change the view returns the new view.
   */
  readonly messages: MessageEntry[];
  /** The context-token estimate the earlier tiers left; undefined when none measured the view. */
  readonly tokens: number | undefined;
}

/** What a tier changed in one pass; every field is optional (an empty object: nothing changed). */
export interface TierOutput {
  /** The view after this tier. */
  messages?: MessageEntry[];
  /** Estimated context tokens of that view (the last usage figure is then stale). */
  tokens?: number;
  /** Cache edits to place (and pin) this turn. */
  newCacheEdits?: CacheEditDelete[];
  /** Relay cache markers for assembly (see CompactionOutput.relayBreakpoints). */
  relayBreakpoints?: string[];
  /** Assembly sends cache_reference marks and pinned blocks. */
  cacheEditing?: boolean;
  /** Assembly tags non-meta user messages with short ids. */
  snipTags?: boolean;
  /** The public-API `context_management` body field. */
  contextManagement?: { edits: ContextManagementEdit[] };
  /** Why the next cache read is expected to drop; the first tier that gives a reason wins. */
  expectCacheDrop?: string;
  /** The tier replaced part of the view: this pass's cache edits name messages no longer sent, so none go out. */
  replacedView?: boolean;
  /** A compaction happened: header latches reset (docs/PIPELINE.md §4). */
  compacted?: boolean;
  /** Records to push at the end of the pass, only when no later tier replaced the view (see `replacedView`). */
  recordIfKept?: (chain: RecordChain) => void;
}

/** The numbers of a "prompt is too long" refusal, when the server gave them. */
export interface OverflowFacts {
  actualTokens?: number;
  maxTokens?: number;
}

/** The loop_continue reason of a retry an overflow step made possible. */
export type OverflowReason =
  | "overflow_clear"
  | "collapse_drain"
  | "reactive_compact"
  | "overflow_drop"
  | "overflow_cut";

/**
 * What an overflow step did: `nothing` (it had nothing to offer: it does not count as tried), `retry` (its
 * records make the request smaller; `compacted` when header latches reset), or `failed` (`message` is added to
 * the final error, e.g. "compaction failed: …").
 */
export type OverflowOutcome =
  | { kind: "nothing" }
  | { kind: "retry"; compacted: boolean }
  | { kind: "failed"; message: string };

/** A tier's step in the prompt-too-long chain; it runs at most once per turn, and only while its tier is on. */
export interface OverflowStep {
  readonly reason: OverflowReason;
  /** How the final error names the step once it was tried ("collapse drain"). */
  readonly label: string;
  /** Whether the step can run for this input at all (reactive compaction needs a fork runner). Default: yes. */
  available?(input: CompactionInput): boolean;
  /** Makes room now, pushing records onto `chain` (the view is `input.entries` projected). */
  relieve(input: CompactionInput, chain: RecordChain, overflow: OverflowFacts): Promise<OverflowOutcome>;
}

export interface Tier {
  /** The tier's name, as docs/PIPELINE.md §3 spells it. */
  readonly name: string;
  /** Whether the settings turn the tier on. A tier that is off is never run by any path (docs/INVARIANTS.md #6). */
  enabled(settings: CompactionSettings): boolean;
  /** One pass: reads what the earlier tiers left, pushes its records onto `pass.chain`, returns what it changed. */
  run(pass: TierPass): TierOutput | Promise<TierOutput>;
  /** What the prompt-too-long chain may ask of this tier. Default: nothing. */
  overflow?: OverflowStep;
}
