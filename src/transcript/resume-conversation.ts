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
 *    entries off that path (abandoned branches) are dropped, except a branch a rewind record left: the chain
 *    ending just before each conversation rewind is kept too, so the rewound turns stay listed and can be
 *    gone back to (docs/REWIND.md; the timeline, not this walk, decides which branch continues). Sidechain entries (subagent transcripts) and
 *    parentless records are kept, in file order, for the later stages.
 */
import type { MessageEntry, TimelineEntry } from "../messages/index.js";
import { isConversationRewind, isMessageEntry } from "../messages/index.js";
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

/** Everything resume learns about one uuid, kept in one map (map operations dominate on 100 MB files). */
interface Node {
  /** The first entry with this uuid; later repeats are dropped. */
  entry: MessageEntry;
  removed: boolean;
  /** The survivor as output (a copy when re-pointed); undefined for removed entries. */
  survivor?: MessageEntry;
  /** The parent followed towards the root (repaired); for removed entries, memoized nearest survivor. */
  walkParent?: string | null;
  /** Removed entries only: whether `walkParent` was computed (null is a valid answer). */
  resolved?: boolean;
  onMainChain?: boolean;
}

/** Rebuilds the conversation to resume from a transcript's entries. */
export function resumeConversation(entries: readonly TimelineEntry[]): ResumeResult {
  const nodes = new Map<string, Node>();
  for (const entry of entries) {
    if (isMessageEntry(entry) && !nodes.has(entry.uuid)) nodes.set(entry.uuid, { entry, removed: false });
  }
  let removedCount = 0;
  for (const uuid of removedUuids(entries)) {
    const node = nodes.get(uuid);
    if (node !== undefined && !isBoundary(node.entry) && !node.removed) {
      node.removed = true;
      removedCount++;
    }
  }

  // Nearest surviving ancestor of a link, memoized on removed nodes so long removed runs are walked once.
  // undefined: the chain leads to a uuid that is not in the file at all.
  const nearestSurvivor = (start: string | null): string | null | undefined => {
    const walked: Node[] = [];
    let current: string | null | undefined = start;
    while (current !== null && current !== undefined) {
      const node = nodes.get(current);
      if (node === undefined) {
        current = undefined;
        break;
      }
      if (!node.removed) break;
      if (node.resolved) {
        current = node.walkParent ?? null;
        break;
      }
      walked.push(node);
      // A cycle of removed entries cannot reach a survivor; treat it as reaching the root.
      if (walked.length > removedCount) {
        current = null;
        break;
      }
      current = chainLink(node.entry);
    }
    for (const node of walked) {
      node.resolved = true;
      node.walkParent = current ?? null;
    }
    return current;
  };

  const lastSurvivorOfLane = new Map<string, string>();
  let repointed = 0;
  let leaf: Node | undefined;
  const tips: Node[] = [];
  for (const entry of entries) {
    if (!isMessageEntry(entry)) continue;
    const node = nodes.get(entry.uuid)!;
    if (node.entry !== entry || node.removed) continue;
    if (isConversationRewind(entry) && leaf !== undefined) tips.push(leaf);
    const lane = laneOf(entry);
    let parent = nearestSurvivor(chainLink(entry));
    if (parent === undefined) parent = lastSurvivorOfLane.get(lane) ?? null;
    let output = entry;
    // A compact boundary keeps parentUuid null (it starts the API's chain); only its walk link is repaired.
    if (entry.parentUuid !== null && parent !== entry.parentUuid) {
      output = { ...entry, parentUuid: parent };
      repointed++;
    }
    node.survivor = output;
    node.walkParent = parent;
    lastSurvivorOfLane.set(lane, entry.uuid);
    if (!entry.isSidechain) leaf = node;
  }

  for (const tip of [leaf, ...tips]) {
    for (let node = tip; node !== undefined && !node.onMainChain; ) {
      node.onMainChain = true;
      const parent = node.walkParent;
      node = parent === null || parent === undefined ? undefined : nodes.get(parent);
    }
  }

  const result: TimelineEntry[] = [];
  let dropped = 0;
  for (const entry of entries) {
    if (!isMessageEntry(entry)) {
      result.push(entry);
      continue;
    }
    const node = nodes.get(entry.uuid)!;
    const survivor = node.entry === entry ? node.survivor : undefined;
    if (survivor !== undefined && (survivor.isSidechain || node.onMainChain === true)) result.push(survivor);
    else dropped++;
  }
  return { entries: result, leafUuid: leaf?.entry.uuid ?? null, dropped, repointed };
}
