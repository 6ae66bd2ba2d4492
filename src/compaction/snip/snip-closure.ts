/**
 * Which entries a snip really removes. A tool_use and its tool_result live or die together, and so do the
 * entries of one response (same `message.id`): removing part of a response could leave orphan thinking
 * (which assembly would then drop, silently changing the reply). So: a removed user entry holding tool_results takes the responses whose
 * tool_use they answer; a removed assistant entry takes its whole response and every user entry holding a
 * result for one of its tool_uses; repeated to a fixed point.
 */
import type { MessageEntry } from "../../messages/index.js";

export interface SnipClosure {
  /** Every uuid removed, requested ones included, in view order. */
  removed: string[];
  /** Uuids the closure reached that may not be removed (protected), in view order; empty when allowed. */
  blocked: string[];
}

interface PairIndex {
  /** tool_use id → uuid of the assistant entry holding it. */
  useEntry: Map<string, string>;
  /** tool_use id → uuids of user entries holding a result for it. */
  resultEntries: Map<string, string[]>;
  /** entry uuid → tool_use ids it holds (assistant) or answers (user). */
  toolIds: Map<string, string[]>;
  /** assistant entry uuid → uuids of every entry of the same response. */
  responseSiblings: Map<string, string[]>;
}

function indexPairs(view: readonly MessageEntry[]): PairIndex {
  const useEntry = new Map<string, string>();
  const resultEntries = new Map<string, string[]>();
  const toolIds = new Map<string, string[]>();
  const byResponse = new Map<string, string[]>();
  const responseSiblings = new Map<string, string[]>();
  for (const entry of view) {
    if (entry.type === "assistant") {
      const siblings = byResponse.get(entry.message.id) ?? [];
      siblings.push(entry.uuid);
      byResponse.set(entry.message.id, siblings);
      responseSiblings.set(entry.uuid, siblings);
      const block = entry.message.content[0];
      if (block.type !== "tool_use") continue;
      useEntry.set(block.id, entry.uuid);
      toolIds.set(entry.uuid, [block.id]);
    } else if (entry.type === "user" && typeof entry.message.content !== "string") {
      const ids: string[] = [];
      for (const block of entry.message.content) {
        if (block.type !== "tool_result") continue;
        ids.push(block.tool_use_id);
        const holders = resultEntries.get(block.tool_use_id) ?? [];
        holders.push(entry.uuid);
        resultEntries.set(block.tool_use_id, holders);
      }
      if (ids.length > 0) toolIds.set(entry.uuid, ids);
    }
  }
  return { useEntry, resultEntries, toolIds, responseSiblings };
}

/** Expands `requested` (uuids in `view`) to whole pairs and responses; protected entries reached are `blocked`. */
export function snipClosure(
  view: readonly MessageEntry[],
  requested: Iterable<string>,
  isProtected: (entry: MessageEntry) => boolean,
): SnipClosure {
  const index = indexPairs(view);
  const removed = new Set<string>();
  const pending = [...requested];
  while (pending.length > 0) {
    const uuid = pending.pop()!;
    if (removed.has(uuid)) continue;
    removed.add(uuid);
    const partners: Array<string | undefined> = [...(index.responseSiblings.get(uuid) ?? [])];
    for (const toolId of index.toolIds.get(uuid) ?? []) {
      partners.push(index.useEntry.get(toolId), ...(index.resultEntries.get(toolId) ?? []));
    }
    for (const partner of partners) if (partner !== undefined && !removed.has(partner)) pending.push(partner);
  }
  const inOrder = view.filter((entry) => removed.has(entry.uuid));
  return {
    removed: inOrder.map((entry) => entry.uuid),
    blocked: inOrder.filter(isProtected).map((entry) => entry.uuid),
  };
}
