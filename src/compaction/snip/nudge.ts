/**
 * The `context_efficiency` nudge: after each ~10K tokens of growth, an attachment reminds the model that
 * Snip exists. Growth is measured from the latest reset point — the last nudge, snip boundary or compaction
 * (compact or microcompact boundary) — by re-projecting the timeline as it stood there. No counter is
 * stored anywhere, so a resumed session nudges exactly as the original would have.
 */
import type { AttachmentEntry, TimelineEntry } from "../../messages/index.js";
import { createAttachmentEntry } from "../../messages/index.js";
import { apiView } from "../../timeline/index.js";
import { estimateEntriesTokens } from "../entry-tokens.js";

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

/** How much the API view grew since the last nudge, snip or compaction. */
export function contextGrowth(entries: readonly TimelineEntry[]): NudgeGrowth {
  let resetIndex = -1;
  for (let index = entries.length - 1; index >= 0; index--) {
    if (isResetPoint(entries[index]!)) {
      resetIndex = index;
      break;
    }
  }
  const currentTokens = estimateEntriesTokens(apiView(entries));
  const baselineTokens = resetIndex < 0 ? 0 : estimateEntriesTokens(apiView(entries.slice(0, resetIndex + 1)));
  return { currentTokens, baselineTokens };
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
