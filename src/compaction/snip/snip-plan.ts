/**
 * The pure half of the Snip tool: resolve short ids against the API view, expand to whole pairs and
 * responses, and decide whether the snip is allowed. All-or-nothing: any unknown, ambiguous or refused id
 * fails the whole call, so the model never has to guess what partly happened.
 */
import type { MessageEntry, TimelineEntry } from "../../messages/index.js";
import { normalizeSnipId, shortId } from "../../messages/index.js";
import { apiView } from "../../timeline/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { snipClosure } from "./snip-closure.js";

/** The Snip tool's name (its own calls and results are never removable). */
export const SNIP_TOOL_NAME = "Snip";

export type SnipPlan =
  | {
      ok: true;
      /** Every uuid the boundary removes (requested entries plus their pairs and responses), in view order. */
      removedUuids: string[];
      /** Uuids the ids named directly. */
      requestedUuids: string[];
      /** Estimated tokens the removal frees. */
      tokensFreed: number;
    }
  | { ok: false; message: string };

export interface SnipPlanOptions {
  /** The tool_use id of the Snip call being run: its whole response is protected. */
  currentToolUseId?: string;
}

/** Non-meta user entries of the view, by short id (and full uuid, which models sometimes copy). */
function candidatesById(view: readonly MessageEntry[]): Map<string, string[]> {
  const byId = new Map<string, string[]>();
  for (const entry of view) {
    if (entry.type !== "user" || entry.isMeta) continue;
    for (const key of new Set([shortId(entry.uuid), entry.uuid.toLowerCase()])) {
      const uuids = byId.get(key) ?? [];
      uuids.push(entry.uuid);
      byId.set(key, uuids);
    }
  }
  return byId;
}

/** Protected: every response holding a Snip call (or the current call) and the results answering Snip calls. */
function protectedPredicate(view: readonly MessageEntry[], currentToolUseId: string | undefined) {
  const snipToolUseIds = new Set<string>();
  const protectedResponses = new Set<string>();
  for (const entry of view) {
    if (entry.type !== "assistant") continue;
    const block = entry.message.content[0];
    if (block.type === "tool_use" && (block.name === SNIP_TOOL_NAME || block.id === currentToolUseId)) {
      snipToolUseIds.add(block.id);
      protectedResponses.add(entry.message.id);
    }
  }
  return (entry: MessageEntry): boolean => {
    if (entry.type === "assistant") return protectedResponses.has(entry.message.id);
    if (entry.type !== "user" || typeof entry.message.content === "string") return false;
    return entry.message.content.some((block) => block.type === "tool_result" && snipToolUseIds.has(block.tool_use_id));
  };
}

function quoteIds(ids: readonly string[]): string {
  return ids.map((id) => `[id:${id}]`).join(", ");
}

/** Decides what snipping `ids` removes from the timeline's API view, or why it cannot. */
export function planSnip(
  entries: readonly TimelineEntry[],
  ids: readonly string[],
  options: SnipPlanOptions = {},
): SnipPlan {
  const view = apiView(entries);
  const byId = candidatesById(view);
  const unknown: string[] = [];
  const ambiguous: string[] = [];
  const requested = new Set<string>();
  for (const raw of ids) {
    const id = normalizeSnipId(raw);
    const matches = byId.get(id);
    if (matches === undefined) unknown.push(id);
    else if (matches.length > 1) ambiguous.push(id);
    else requested.add(matches[0]!);
  }
  if (unknown.length > 0 || ambiguous.length > 0) {
    const parts: string[] = [];
    if (unknown.length > 0) parts.push(`unknown id${unknown.length === 1 ? "" : "s"} ${quoteIds(unknown)}`);
    if (ambiguous.length > 0) parts.push(`ambiguous id${ambiguous.length === 1 ? "" : "s"} ${quoteIds(ambiguous)}`);
    return {
      ok: false,
      message: `Nothing was snipped: ${parts.join("; ")}. Use the [id:...] tags shown on user messages that are still in the conversation.`,
    };
  }
  const isProtected = protectedPredicate(view, options.currentToolUseId);
  const closure = snipClosure(view, requested, isProtected);
  if (closure.blocked.length > 0) {
    const refused = [...requested].filter((uuid) => snipClosure(view, [uuid], isProtected).blocked.length > 0);
    return {
      ok: false,
      message: `Nothing was snipped: ${quoteIds(refused.map(shortId))} would remove a Snip call or its result, which must stay.`,
    };
  }
  const removedSet = new Set(closure.removed);
  return {
    ok: true,
    removedUuids: closure.removed,
    requestedUuids: view.filter((entry) => requested.has(entry.uuid)).map((entry) => entry.uuid),
    tokensFreed: estimateEntriesTokens(view.filter((entry) => removedSet.has(entry.uuid))),
  };
}
