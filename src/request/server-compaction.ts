/**
 * Server-side compaction as a request sends it (docs/API-SURFACE.md, "Server-side compaction"): the
 * `compact_20260112` edit in `context_management.edits` under beta `compact-2026-01-12`, and the view a request is
 * built from once the server has answered with a `compaction` block — that assistant message first, nothing
 * before it (the server would ignore it anyway, and it would be uploaded for nothing).
 */
import type { MessageEntry } from "../messages/index.js";

/** The beta that unlocks the compact_20260112 edit and compaction blocks sent back. */
export const COMPACT_BETA = "compact-2026-01-12";

/** Trigger of the edit in input tokens (the API's own default; its minimum is 50,000). */
export const DEFAULT_SERVER_COMPACTION_TRIGGER_TOKENS = 150_000;
/** The smallest trigger the API accepts. */
export const MIN_SERVER_COMPACTION_TRIGGER_TOKENS = 50_000;

/** How threadline asks for server-side compaction (only where the server declares `serverCompaction`). */
export interface ServerCompactionSettings {
  /** Compact when the request's input reaches this many tokens. Default DEFAULT_SERVER_COMPACTION_TRIGGER_TOKENS. */
  triggerTokens: number;
  /** Stop after the compaction block (`stop_reason: "compaction"`); the loop then continues the turn. Default true. */
  pauseAfterCompaction: boolean;
  /** Replaces the server's summary prompt entirely. Default none (the server's own). */
  instructions?: string;
}

export const DEFAULT_SERVER_COMPACTION_SETTINGS: Readonly<ServerCompactionSettings> = Object.freeze({
  triggerTokens: DEFAULT_SERVER_COMPACTION_TRIGGER_TOKENS,
  pauseAfterCompaction: true,
});

/** The edit as the SDK's `BetaCompact20260112Edit` spells it, in a fixed key order. */
export interface CompactEdit {
  type: "compact_20260112";
  trigger: { type: "input_tokens"; value: number };
  pause_after_compaction: boolean;
  instructions?: string;
}

/** The edit for `settings` (a trigger under the API's minimum is raised to it, so the request stays valid). */
export function compactEdit(settings: ServerCompactionSettings): CompactEdit {
  const value = Math.max(MIN_SERVER_COMPACTION_TRIGGER_TOKENS, Math.floor(settings.triggerTokens));
  const edit: CompactEdit = {
    type: "compact_20260112",
    trigger: { type: "input_tokens", value },
    pause_after_compaction: settings.pauseAfterCompaction,
  };
  if (settings.instructions !== undefined && settings.instructions !== "") edit.instructions = settings.instructions;
  return edit;
}

/**
 * The entries from the last assistant entry holding a compaction block with content on (that entry first); all of
 * `entries` when there is none. A compaction block with null content summarises nothing and cuts nothing.
 */
export function fromLastCompaction(entries: readonly MessageEntry[]): readonly MessageEntry[] {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type !== "assistant") continue;
    if (entry.message.content.some((block) => block.type === "compaction" && block.content !== null))
      return index === 0 ? entries : entries.slice(index);
  }
  return entries;
}
