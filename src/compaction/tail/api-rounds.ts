/**
 * API rounds: the view cut into groups, a new group at each new assistant `message.id`. A group is one
 * model response plus the user messages answering it, so dropping or keeping whole groups never separates
 * a tool_use from its tool_result. Group 0 holds whatever precedes the first response.
 */
import type { MessageEntry } from "../../messages/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";

export interface ApiRound {
  entries: MessageEntry[];
  tokens: number;
}

/** The view's API rounds, in order (no empty groups). */
export function groupByApiRound(view: readonly MessageEntry[]): ApiRound[] {
  const groups: MessageEntry[][] = [];
  let current: MessageEntry[] = [];
  let lastId: string | undefined;
  for (const entry of view) {
    if (entry.type === "assistant" && entry.message.id !== lastId) {
      if (current.length > 0) groups.push(current);
      current = [];
      lastId = entry.message.id;
    }
    current.push(entry);
  }
  if (current.length > 0) groups.push(current);
  return groups.map((entries) => ({ entries, tokens: estimateEntriesTokens(entries) }));
}

/** Whether a round begins with a model response (every group but a leading one does). */
export function startsWithResponse(round: ApiRound): boolean {
  return round.entries[0]?.type === "assistant";
}
