/**
 * Views: pure projections of the timeline. `uiView` shows everything, `persistView` keeps everything,
 * `apiView` keeps what the model may see, after applying removal records (snip boundaries, superseded
 * partial responses) and starting at the last compact boundary.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isMessageEntry } from "../messages/index.js";

/** Every message entry, in order: what the UI renders. */
export function uiView(entries: readonly TimelineEntry[]): MessageEntry[] {
  return entries.filter(isMessageEntry);
}

/** Every entry, records included: what the transcript stores. */
export function persistView(entries: readonly TimelineEntry[]): TimelineEntry[] {
  return entries.slice();
}

/** Uuids removed from the API view by snip boundaries and stream-superseded records. */
export function removedUuids(entries: readonly TimelineEntry[]): Set<string> {
  const removed = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "system") continue;
    if (entry.subtype === "snip_boundary") for (const uuid of entry.snipMetadata?.removedUuids ?? []) removed.add(uuid);
    if (entry.subtype === "stream_superseded") for (const uuid of entry.supersededUuids ?? []) removed.add(uuid);
  }
  return removed;
}

/** Whether a message entry may be shown to the model at all (before records are applied). */
export function isApiVisible(entry: MessageEntry): boolean {
  if (entry.isSidechain) return false;
  switch (entry.type) {
    case "user":
      return !entry.isVirtual;
    case "assistant":
      return !entry.isVirtual && !entry.isApiErrorMessage;
    case "attachment":
      return true;
    case "system":
      return entry.subtype === "local_command";
    case "progress":
      return false;
  }
}

/**
 * What the model sees: main-chain user, assistant and attachment entries (and local_command system
 * output) after the last compact boundary, minus snipped and superseded entries.
 * Synthetic API-error messages are dropped here; `apiViewWithErrors` keeps them for the media-stripping step.
 */
export function apiView(entries: readonly TimelineEntry[]): MessageEntry[] {
  return apiViewWithErrors(entries).filter((entry) => !(entry.type === "assistant" && entry.isApiErrorMessage));
}

/** Like `apiView` but keeps synthetic API-error messages, which normalization reads and then drops. */
export function apiViewWithErrors(entries: readonly TimelineEntry[]): MessageEntry[] {
  const removed = removedUuids(entries);
  let start = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "system" && entry.subtype === "compact_boundary" && !entry.isSidechain) {
      start = index + 1;
      break;
    }
  }
  const result: MessageEntry[] = [];
  for (let index = start; index < entries.length; index++) {
    const entry = entries[index]!;
    if (!isMessageEntry(entry) || removed.has(entry.uuid)) continue;
    if (entry.type === "assistant" && entry.isApiErrorMessage && !entry.isVirtual && !entry.isSidechain) {
      result.push(entry);
      continue;
    }
    if (isApiVisible(entry)) result.push(entry);
  }
  return result;
}
