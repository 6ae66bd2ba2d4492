/**
 * Memory through every compaction tier (docs/MEMORY.md "Kept through compaction"). Snip, collapse and
 * autocompact can each take a memory attachment out of the projected view (it sat in a removed span, before
 * a compact boundary, inside a collapsed span). After the tiers ran, every memory attachment ever recorded
 * in the session whose text is no longer in the view is attached again, verbatim; one still visible is not
 * repeated. Pure: the loop records what this returns, so the next pass projects it like any other entry.
 */
import type { AttachmentEntry, MessageEntry, TimelineEntry } from "../messages/index.js";
import { filterGrowing } from "../timeline/index.js";
import { isMemoryAttachment, memoryData } from "./memory-attachment.js";
import type { MemoryAttachmentData } from "./memory-types.js";

/** The memory attachments of `entries`, one per distinct text, in the order first recorded. */
export function loadedMemory(entries: readonly TimelineEntry[]): MemoryAttachmentData[] {
  const seen = new Set<string>();
  const loaded: MemoryAttachmentData[] = [];
  for (const entry of filterGrowing(entries, isMemoryAttachment)) {
    if (seen.has(entry.attachment.content)) continue;
    seen.add(entry.attachment.content);
    loaded.push(memoryData(entry));
  }
  return loaded;
}

/** Which of `loaded` must be attached again because `view` (the projected API view) no longer holds them. */
export function memoryToReattach(
  view: readonly MessageEntry[],
  loaded: readonly MemoryAttachmentData[],
): MemoryAttachmentData[] {
  if (loaded.length === 0) return [];
  const visible = new Set<string>();
  for (const entry of view) if (isMemoryAttachment(entry)) visible.add((entry as AttachmentEntry).attachment.content);
  return loaded
    .filter((memory) => !visible.has(memory.content))
    .map((memory) => ({ ...memory, memoryOrigin: "reattach" as const }));
}
