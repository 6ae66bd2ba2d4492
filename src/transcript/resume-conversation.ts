/**
 * Resume: rebuild the conversation from a transcript's entries (pure; no I/O).
 *
 * 1. Removal records (snip boundaries, stream-superseded records; the same set `apiView` applies) take their
 *    uuids out. Boundary records themselves are never removed: later stages read them.
 * 2. Every survivor whose parent was removed is re-pointed to its nearest surviving ancestor, walking up the
 *    removed chain, so no survivor is ever skipped. A parent missing from the file altogether (a garbage line
 *    in the middle) is replaced by the previous survivor of the same chain, the writer's parent in an
 *    append-only log.
 * 3. The latest non-sidechain entry is the leaf; its ancestors (crossing compact boundaries through
 *    `logicalParentUuid`, so the UI keeps the pre-compaction history) form the main chain. Main-chain
 *    entries off that path (abandoned branches) are dropped. Sidechain entries (subagent transcripts) and
 *    parentless records are kept, in file order, for the later stages.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isMessageEntry } from "../messages/index.js";
import { removedUuids } from "../timeline/index.js";

export interface ResumeResult {
  /** Entries ready for `new Timeline(entries)`, in file order. Re-pointed entries are copies. */
  entries: TimelineEntry[];
  /** The main chain's last entry: the parent of the next message. Null when there is none. */
  leafUuid: string | null;
  /** Message entries left out: removed, on an abandoned branch, or a repeated uuid. */
  dropped: number;
  /** Survivors whose `parentUuid` was rewritten (parent removed or missing from the file). */
  repointed: number;
}

/** System subtypes that are records for later stages; a removal never takes them out. */
const BOUNDARY_SUBTYPES: ReadonlySet<string> = new Set([
  "compact_boundary",
  "microcompact_boundary",
  "snip_boundary",
  "stream_superseded",
]);

function isBoundary(entry: MessageEntry): boolean {
  return entry.type === "system" && BOUNDARY_SUBTYPES.has(entry.subtype);
}

/** The link followed towards the root: a compact boundary starts a new chain but remembers its logical parent. */
function chainLink(entry: MessageEntry): string | null {
  if (entry.parentUuid !== null) return entry.parentUuid;
  if (entry.type === "system" && entry.subtype === "compact_boundary") return entry.logicalParentUuid ?? null;
  return null;
}

/** Chains are per agent: the main conversation, and one sidechain per subagent. */
function laneOf(entry: MessageEntry): string {
  return entry.isSidechain ? `sidechain:${entry.agentId ?? ""}` : "main";
}

/** Rebuilds the conversation to resume from a transcript's entries. */
export function resumeConversation(entries: readonly TimelineEntry[]): ResumeResult {
  const firstByUuid = new Map<string, MessageEntry>();
  for (const entry of entries) {
    if (isMessageEntry(entry) && !firstByUuid.has(entry.uuid)) firstByUuid.set(entry.uuid, entry);
  }
  const removed = new Set<string>();
  for (const uuid of removedUuids(entries)) {
    const target = firstByUuid.get(uuid);
    if (target !== undefined && !isBoundary(target)) removed.add(uuid);
  }

  // Nearest surviving ancestor of each removed uuid, memoized so long removed runs are walked once.
  const survivorAbove = new Map<string, string | null>();
  const nearestSurvivor = (start: string | null): string | null | undefined => {
    const walked: string[] = [];
    let current: string | null | undefined = start;
    while (current !== null && current !== undefined && removed.has(current)) {
      const known = survivorAbove.get(current);
      if (known !== undefined || survivorAbove.has(current)) {
        current = known ?? null;
        break;
      }
      walked.push(current);
      // A cycle of removed entries cannot reach a survivor; treat it as reaching the root.
      if (walked.length > removed.size) {
        current = null;
        break;
      }
      current = chainLink(firstByUuid.get(current)!);
    }
    // undefined: the chain leads to a uuid that is not in the file at all.
    if (current !== null && current !== undefined && !firstByUuid.has(current)) current = undefined;
    for (const uuid of walked) survivorAbove.set(uuid, current ?? null);
    return current;
  };

  const survivors = new Map<string, MessageEntry>();
  const walkParent = new Map<string, string | null>();
  const lastSurvivorOfLane = new Map<string, string>();
  let repointed = 0;
  let leafUuid: string | null = null;
  for (const entry of entries) {
    if (!isMessageEntry(entry) || firstByUuid.get(entry.uuid) !== entry || removed.has(entry.uuid)) continue;
    const lane = laneOf(entry);
    const link = chainLink(entry);
    let parent = nearestSurvivor(link);
    if (parent === undefined) parent = lastSurvivorOfLane.get(lane) ?? null;
    let output = entry;
    // A compact boundary keeps parentUuid null (it starts the API's chain); only its walk link is repaired.
    if (entry.parentUuid !== null && parent !== entry.parentUuid) {
      output = { ...entry, parentUuid: parent };
      repointed++;
    }
    survivors.set(entry.uuid, output);
    walkParent.set(entry.uuid, parent);
    lastSurvivorOfLane.set(lane, entry.uuid);
    if (!entry.isSidechain) leafUuid = entry.uuid;
  }

  const mainChain = new Set<string>();
  for (let current = leafUuid; current !== null && !mainChain.has(current); ) {
    mainChain.add(current);
    current = walkParent.get(current) ?? null;
  }

  const result: TimelineEntry[] = [];
  let dropped = 0;
  for (const entry of entries) {
    if (!isMessageEntry(entry)) {
      result.push(entry);
      continue;
    }
    const survivor = firstByUuid.get(entry.uuid) === entry ? survivors.get(entry.uuid) : undefined;
    if (survivor !== undefined && (survivor.isSidechain || mainChain.has(survivor.uuid))) result.push(survivor);
    else dropped++;
  }
  return { entries: result, leafUuid, dropped, repointed };
}
