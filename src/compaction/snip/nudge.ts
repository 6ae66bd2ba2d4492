/**
 * The `context_efficiency` nudge: after each ~10K tokens of growth, an attachment reminds the model that
 * Snip exists. Growth is measured from the latest reset point — the last nudge, snip boundary or compaction
 * (compact or microcompact boundary) — by re-projecting the timeline as it stood there. No counter is
 * stored anywhere, so a resumed session nudges exactly as the original would have.
 */
import type { AttachmentEntry, TimelineEntry } from "../../messages/index.js";
import { createAttachmentEntry } from "../../messages/index.js";
import { apiView, filterGrowing, sharedPrefixLength } from "../../timeline/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";

/** Attachment type of the nudge. */
export const CONTEXT_EFFICIENCY_ATTACHMENT = "context_efficiency";

function isResetPoint(entry: TimelineEntry): boolean {
  if (entry.type === "attachment") return entry.attachment.type === CONTEXT_EFFICIENCY_ATTACHMENT;
  if (entry.type !== "system" || entry.isSidechain) return false;
  return (
    entry.subtype === "snip_boundary" ||
    entry.subtype === "compact_boundary" ||
    entry.subtype === "microcompact_boundary"
  );
}

export interface NudgeGrowth {
  /** Estimated tokens of the API view now. */
  currentTokens: number;
  /** Estimated tokens of the API view at the last reset point (0 when there is none). */
  baselineTokens: number;
}

/** The view's size as it stood at a reset point, with the entries it was measured on. */
interface Baseline {
  entries: readonly TimelineEntry[];
  tokens: number;
}

/**
 * Keyed by the reset entry: the baseline is measured once per reset point, not every turn. Not
 * `memoizeByObject`: it is measured again when the entries before the reset point are not the same objects.
 */
const baselines = new WeakMap<TimelineEntry, Baseline>();

/** Estimated tokens of the API view of `entries[0..resetIndex]`. */
function baselineTokens(entries: readonly TimelineEntry[], resetIndex: number): number {
  const reset = entries[resetIndex]!;
  const known = baselines.get(reset);
  if (known !== undefined && sharedPrefixLength(known.entries, entries) === known.entries.length) return known.tokens;
  const prefix = entries.slice(0, resetIndex + 1);
  const tokens = estimateEntriesTokens(apiView(prefix));
  baselines.set(reset, { entries: prefix, tokens });
  return tokens;
}

/** Index of the last reset point in `entries`, or -1. The scan for reset points continues from last turn's. */
function lastResetIndex(entries: readonly TimelineEntry[]): number {
  const reset = filterGrowing(entries, isResetPoint).at(-1);
  return reset === undefined ? -1 : entries.lastIndexOf(reset);
}

/** How much the API view grew since the last nudge, snip or compaction. */
export function contextGrowth(entries: readonly TimelineEntry[]): NudgeGrowth {
  const resetIndex = lastResetIndex(entries);
  const currentTokens = estimateEntriesTokens(apiView(entries));
  return { currentTokens, baselineTokens: resetIndex < 0 ? 0 : baselineTokens(entries, resetIndex) };
}

export interface NudgeInput {
  entries: readonly TimelineEntry[];
  intervalTokens: number;
  sessionId: string;
  parentUuid: string | null;
  now: Date;
}

/** The nudge attachment to append, or undefined when growth is below the interval. */
export function contextEfficiencyNudge(input: NudgeInput): AttachmentEntry | undefined {
  const { currentTokens, baselineTokens } = contextGrowth(input.entries);
  const growth = currentTokens - baselineTokens;
  if (growth < input.intervalTokens) return undefined;
  const content =
    // Request assembly wraps attachments in <system-reminder>; the text itself stays plain.
    `Your context has grown by about ${growth} tokens (now about ${currentTokens}). ` +
    "If earlier messages or tool results are no longer needed, remove them with the Snip tool, " +
    "passing the ids from their [id:...] tags.";
  return createAttachmentEntry(
    { sessionId: input.sessionId, parentUuid: input.parentUuid, now: input.now },
    CONTEXT_EFFICIENCY_ATTACHMENT,
    content,
    { contextTokens: currentTokens },
  );
}
