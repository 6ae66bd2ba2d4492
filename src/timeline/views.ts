/**
 * Views: pure projections of the timeline. `uiView` shows everything, `persistView` keeps everything,
 * `apiView` keeps what the model may see, after applying removal records (snip boundaries, superseded
 * partial responses) and starting at the last compact boundary.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isMainCompactBoundary, isMessageEntry } from "../messages/index.js";
import { sharedPrefixLength } from "./prefix.js";

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
  return viewsOf(entries).withoutErrors.slice();
}

/** Like `apiView` but keeps synthetic API-error messages, which normalization reads and then drops. */
export function apiViewWithErrors(entries: readonly TimelineEntry[]): MessageEntry[] {
  return viewsOf(entries).withErrors.slice();
}

/** Both API views of the entries processed so far, kept to be extended while the timeline only grows. */
interface Views {
  entries: TimelineEntry[];
  removed: Set<string>;
  withErrors: MessageEntry[];
  withoutErrors: MessageEntry[];
}

/**
 * Keyed by a timeline's first entry, so each session keeps its own. A plain WeakMap, not `memoizeByObject`:
 * the views are rebuilt and replaced when a record reaches back or a longer list arrives.
 */
const memos = new WeakMap<TimelineEntry, Views>();

/** Records whose effect reaches entries before them: when one is appended, the views are built again. */
function reachesBack(entry: TimelineEntry): boolean {
  if (entry.type !== "system") return false;
  return entry.subtype === "snip_boundary" || entry.subtype === "stream_superseded" || isMainCompactBoundary(entry);
}

/**
 * The views of `entries`. When last call's entries are a prefix of these and nothing appended since reaches
 * back, only the new entries are filtered; otherwise everything is (a snip, a compaction, another list).
 */
function viewsOf(entries: readonly TimelineEntry[]): Views {
  const first = entries[0];
  if (first === undefined) return { entries: [], removed: new Set(), withErrors: [], withoutErrors: [] };
  const memo = memos.get(first);
  if (memo !== undefined && memo.entries.length <= entries.length) {
    const known = memo.entries.length;
    let extendable = sharedPrefixLength(memo.entries, entries) === known;
    for (let index = known; extendable && index < entries.length; index++) extendable = !reachesBack(entries[index]!);
    if (extendable) {
      for (let index = known; index < entries.length; index++) addEntry(memo, entries[index]!);
      return memo;
    }
  }
  const views = buildViews(entries);
  // A shorter list (a view as it stood earlier) does not replace the memo of the longer one.
  if (memo === undefined || entries.length >= memo.entries.length) memos.set(first, views);
  return views;
}

function buildViews(entries: readonly TimelineEntry[]): Views {
  const views: Views = { entries: [], removed: removedUuids(entries), withErrors: [], withoutErrors: [] };
  let start = 0;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (isMainCompactBoundary(entry)) {
      start = index + 1;
      break;
    }
  }
  views.entries = entries.slice(0, start);
  for (let index = start; index < entries.length; index++) addEntry(views, entries[index]!);
  return views;
}

function addEntry(views: Views, entry: TimelineEntry): void {
  views.entries.push(entry);
  if (!isMessageEntry(entry) || views.removed.has(entry.uuid)) return;
  if (entry.type === "assistant" && entry.isApiErrorMessage && !entry.isVirtual && !entry.isSidechain) {
    views.withErrors.push(entry);
    return;
  }
  if (!isApiVisible(entry)) return;
  views.withErrors.push(entry);
  views.withoutErrors.push(entry);
}
