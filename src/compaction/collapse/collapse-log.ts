/**
 * The collapse log: committed spans (CollapseCommitRecord, replayed every turn and on resume) and the
 * ctx-agent's staged spans (the latest CollapseSnapshotRecord wins), and the projection that shows each
 * committed span to the API as its summary. The UI view is untouched: it still shows every entry.
 */
import type {
  CollapseCommitRecord,
  CollapseSnapshotRecord,
  MessageEntry,
  StagedCollapse,
  TimelineEntry,
  UserEntry,
} from "../../messages/index.js";
import { textBlock } from "../../messages/index.js";
import { filterGrowing, memoizeByObject } from "../../timeline/index.js";

function isCommit(entry: TimelineEntry): entry is CollapseCommitRecord {
  return entry.type === "collapse-commit";
}

function isSnapshot(entry: TimelineEntry): entry is CollapseSnapshotRecord {
  return entry.type === "collapse-snapshot";
}

/** Every commit record, in order. */
export function collapseCommits(entries: readonly TimelineEntry[]): CollapseCommitRecord[] {
  return filterGrowing(entries, isCommit);
}

/** The staged spans of the latest snapshot (none before the first). */
export function stagedCollapses(entries: readonly TimelineEntry[]): StagedCollapse[] {
  return filterGrowing(entries, isSnapshot).at(-1)?.staged.slice() ?? [];
}

/** The text a committed span is shown as. */
export function collapsedSpanText(summary: string): string {
  return `[Earlier task collapsed to a summary]\n${summary}`;
}

/** One summary entry per commit, so every turn's projection shows the same object (identity memos downstream). */
const spanEntries = memoizeByObject(collapsedSpanEntryFresh);

/** The user entry standing for a committed span (its uuid is the commit's `summaryUuid`; never stored). */
export function collapsedSpanEntry(commit: CollapseCommitRecord): UserEntry {
  return spanEntries(commit);
}

function collapsedSpanEntryFresh(commit: CollapseCommitRecord): UserEntry {
  return {
    uuid: commit.summaryUuid,
    parentUuid: null,
    timestamp: commit.timestamp,
    sessionId: commit.sessionId,
    type: "user",
    isMeta: true,
    message: { role: "user", content: [textBlock(collapsedSpanText(commit.summary))] },
  };
}

/** Position of a span in `view`, when both ends are there in order. */
export function spanRange(
  view: readonly MessageEntry[],
  firstUuid: string,
  lastUuid: string,
): { first: number; last: number } | undefined {
  const first = view.findIndex((entry) => entry.uuid === firstUuid);
  if (first < 0) return undefined;
  const last = view.findIndex((entry, index) => index >= first && entry.uuid === lastUuid);
  return last < 0 ? undefined : { first, last };
}

/**
 * `view` with each committed span replaced by its summary entry, commits applied in log order. A commit
 * whose ends are not both in the view (compacted away, or inside an earlier span) changes nothing.
 */
export function projectCollapses(
  view: readonly MessageEntry[],
  commits: readonly CollapseCommitRecord[],
): MessageEntry[] {
  let result = view.slice();
  for (const commit of commits) {
    const range = spanRange(result, commit.firstArchivedUuid, commit.lastArchivedUuid);
    if (range === undefined) continue;
    result = [...result.slice(0, range.first), collapsedSpanEntry(commit), ...result.slice(range.last + 1)];
  }
  return result;
}
