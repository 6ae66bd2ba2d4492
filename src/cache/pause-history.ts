/**
 * What the pause policy learns from a session's records (docs/PROMPT-CACHE.md, "Pauses"): the person's own
 * gaps between a turn's last response and their next prompt (a resumed session's earlier runs included, so
 * print mode learns too), the context the cache holds, and what a turn writes to it. Pure.
 */
import type { TimelineEntry, Usage } from "../messages/index.js";
import { isTypedPrompt } from "../timeline/index.js";

export interface PauseHistory {
  /** Gaps before each prompt after the first, oldest first, in ms. */
  gapsMs: number[];
  /** Tokens in the last response's request (input + cache read + cache write), 0 before any. */
  contextTokens: number;
  /** Cache writes per turn, averaged over the turns seen (0 before any). */
  turnWriteTokens: number;
  /** When the last response was recorded (ms since the epoch), or undefined. */
  lastResponseAt: number | undefined;
}

function requestTokens(usage: Usage): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** Reads the pause history from a session's entries, in order. */
export function pauseHistory(entries: readonly TimelineEntry[]): PauseHistory {
  const gapsMs: number[] = [];
  const turnWrites: number[] = [];
  let contextTokens = 0;
  let lastResponseAt: number | undefined;
  let currentWrites: number | undefined;
  // A response is one entry per block, each carrying the message's usage: the last one of an id counts.
  const writesById = new Map<string, number>();
  const closeTurn = () => {
    if (currentWrites === undefined) return;
    let sum = currentWrites;
    for (const writes of writesById.values()) sum += writes;
    if (sum > 0) turnWrites.push(sum);
    writesById.clear();
    currentWrites = undefined;
  };
  for (const entry of entries) {
    if (entry.type === "user" && isTypedPrompt(entry)) {
      const at = Date.parse(entry.timestamp);
      if (lastResponseAt !== undefined && Number.isFinite(at) && at >= lastResponseAt) gapsMs.push(at - lastResponseAt);
      closeTurn();
      currentWrites = 0;
      continue;
    }
    if (entry.type === "side-request" && entry.purpose === "keep-warm") continue;
    if (entry.type !== "assistant" || entry.isSidechain === true || entry.isApiErrorMessage === true) continue;
    const usage = entry.message.usage;
    if (usage === undefined || usage === null) continue;
    const at = Date.parse(entry.timestamp);
    if (Number.isFinite(at)) lastResponseAt = at;
    contextTokens = requestTokens(usage);
    if (currentWrites !== undefined) writesById.set(entry.message.id, usage.cache_creation_input_tokens ?? 0);
  }
  closeTurn();
  const turnWriteTokens =
    turnWrites.length === 0 ? 0 : Math.round(turnWrites.reduce((sum, value) => sum + value, 0) / turnWrites.length);
  return { gapsMs, contextTokens, turnWriteTokens, lastResponseAt };
}

/**
 * Tokens the last turn wrote with the 1-hour TTL (`cache_creation.ephemeral_1h_input_tokens`, each response
 * counted once): what the cold-start hedge held, for the pause report.
 */
export function lastTurnOneHourWrites(entries: readonly TimelineEntry[]): number {
  const byId = new Map<string, number>();
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type === "user" && isTypedPrompt(entry)) break;
    if (entry.type !== "assistant" || entry.isSidechain === true || byId.has(entry.message.id)) continue;
    byId.set(entry.message.id, entry.message.usage?.cache_creation?.ephemeral_1h_input_tokens ?? 0);
  }
  let sum = 0;
  for (const tokens of byId.values()) sum += tokens;
  return sum;
}
