/**
 * The kept tail of a compaction, budgeted in tokens (docs/ARCHITECTURE.md "Compaction target"). The tail starts
 * as the rounds that hold the last `keepRecent` tool results (never every round); when it is over its budget:
 * 1. every tool result in it but the last DEFAULT_TAIL_VERBATIM_RESULTS is cleared to its placeholder;
 * 2. the last DEFAULT_TAIL_VERBATIM_RESULTS stay verbatim unless the budget cannot hold them; then each one
 *    above an equal share of what the budget leaves for them is cut to that share, with a note naming how to
 *    read the rest (a Read: the offset to read from; any other tool: run it again);
 * 3. only then are the oldest rounds dropped from the tail (at least the newest round stays).
 * A tail that is still over the budget with one round left is kept as it is: the caller sees the miss.
 *
 * The one owner of what a kept tail keeps (issue 54): the summary's tail (`budgetTail`), the tail after the
 * compaction notes (`notesTail`), the rounds the overflow chain's drop keeps (`roundsWithinRoom`), and the copies
 * every compaction records of what it keeps (`copyTail`).
 */
import { randomUUID } from "node:crypto";
import type {
  AssistantEntry,
  MessageEntry,
  ToolResultBlock,
  ToolUseBlock,
  UserContentBlock,
  UserEntry,
} from "../../messages/index.js";
import { charsForTokens } from "../../messages/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import type { RecordChain } from "../record-chain.js";
import { applyClearedToolResults, collectToolResults } from "../results/compactable-results.js";
import { type ApiRound, startsWithResponse } from "./api-rounds.js";

/** Tool results at the end of the tail that stay verbatim while the budget holds them: 3. */
export const DEFAULT_TAIL_VERBATIM_RESULTS = 3;

/** A result is never cut below this many tokens (a cut to crumbs tells the model nothing): 200. */
export const MIN_CUT_RESULT_TOKENS = 200;

/** What the tail keeps, and what it had to do to fit. */
export interface BudgetedTail {
  entries: MessageEntry[];
  tokens: number;
  /** Results cleared to placeholders, and results cut, to fit. */
  cleared: number;
  cut: number;
  /** Rounds left out of the tail to fit (beyond what the keep count asked for). */
  droppedRounds: number;
}

function toolResultCount(round: ApiRound): number {
  let count = 0;
  for (const entry of round.entries) {
    if (entry.type !== "user" || typeof entry.message.content === "string") continue;
    for (const block of entry.message.content) if (block.type === "tool_result") count++;
  }
  return count;
}

/** Trailing rounds holding the last `keepRecent` tool results; never every round, never a leading non-response. */
export function tailRoundsFor(rounds: readonly ApiRound[], keepRecent: number): number {
  const eligible = rounds.length - (rounds.length > 0 && !startsWithResponse(rounds[0]!) ? 1 : 0);
  const most = Math.min(eligible, rounds.length - 1);
  if (most <= 0) return 0;
  let count = 1;
  let results = toolResultCount(rounds.at(-1)!);
  while (count < most && results < keepRecent) {
    count++;
    results += toolResultCount(rounds.at(-count)!);
  }
  return count;
}

function resultText(block: ToolResultBlock): string | undefined {
  if (typeof block.content === "string") return block.content;
  if (!Array.isArray(block.content)) return "";
  if (block.content.some((part) => part.type !== "text")) return undefined;
  return block.content.map((part) => (part.type === "text" ? part.text : "")).join("\n");
}

/** The note that ends a cut result: how much is shown and how to get the rest. */
export function cutNote(
  use: ToolUseBlock | undefined,
  shownLines: number,
  totalLines: number,
  why = "after a compaction",
): string {
  const path = use?.name === "Read" ? (use.input as Record<string, unknown> | null)?.file_path : undefined;
  const base = (use?.input as Record<string, unknown> | null)?.offset;
  const offset = (typeof base === "number" ? base : 1) + shownLines;
  const how =
    typeof path === "string"
      ? `Read ${path} with offset ${offset} for the rest`
      : `run ${use?.name ?? "the tool"} again for the rest`;
  return `[Cut to fit the context ${why}: ${shownLines} of ${totalLines} lines shown; ${how}.]`;
}

/** `block` cut at a line to at most ~`maxTokens`, ending with the note; undefined when it cannot be cut. */
export function cutToolResult(
  block: ToolResultBlock,
  use: ToolUseBlock | undefined,
  maxTokens: number,
  /** What the note says the cut was for. Default "after a compaction". */
  why?: string,
): ToolResultBlock | undefined {
  const text = resultText(block);
  if (text === undefined) return undefined;
  const lines = text.split("\n");
  // The ruler backwards (messages/tokens.ts); the note and the block's frame take ~60 tokens.
  const room = Math.max(0, charsForTokens(maxTokens - 60));
  let size = 0;
  let shown = 0;
  while (shown < lines.length && size + lines[shown]!.length + 1 <= room) size += lines[shown++]!.length + 1;
  if (shown >= lines.length) return undefined;
  const content = `${lines.slice(0, shown).join("\n")}\n${cutNote(use, shown, lines.length, why)}`;
  return { ...block, content };
}

function toolUses(entries: readonly MessageEntry[]): Map<string, ToolUseBlock> {
  const uses = new Map<string, ToolUseBlock>();
  for (const entry of entries)
    if (entry.type === "assistant")
      for (const block of entry.message.content) if (block.type === "tool_use") uses.set(block.id, block);
  return uses;
}

/** `entries` with the results in `caps` cut to their cap (those that cannot be cut stay); counts the cuts. */
export function cutResults(
  entries: readonly MessageEntry[],
  caps: ReadonlyMap<string, number>,
  /** What each cut's note says it was for (cutToolResult's default when absent). */
  why?: string,
): { entries: MessageEntry[]; cut: number } {
  const uses = toolUses(entries);
  let cut = 0;
  const out = entries.map((entry): MessageEntry => {
    if (entry.type !== "user" || typeof entry.message.content === "string") return entry;
    let changed = false;
    const content = entry.message.content.map((block): UserContentBlock => {
      const cap = block.type === "tool_result" ? caps.get(block.tool_use_id) : undefined;
      if (block.type !== "tool_result" || cap === undefined) return block;
      const smaller = cutToolResult(block, uses.get(block.tool_use_id), cap, why);
      if (smaller === undefined) return block;
      changed = true;
      cut++;
      return smaller;
    });
    if (!changed) return entry;
    const copy: UserEntry = { ...entry, message: { ...entry.message, content } };
    return copy;
  });
  return { entries: out, cut };
}

/** One candidate tail fitted to `budget` by clearing, then cutting (steps 1–2 above). */
export function fitTail(entries: readonly MessageEntry[], budget: number): Omit<BudgetedTail, "droppedRounds"> {
  let tokens = estimateEntriesTokens(entries);
  if (tokens <= budget) return { entries: entries.slice(), tokens, cleared: 0, cut: 0 };
  const results = collectToolResults(entries);
  const older = results.slice(0, Math.max(0, results.length - DEFAULT_TAIL_VERBATIM_RESULTS));
  let current = applyClearedToolResults(entries, new Set(older.map((result) => result.toolUseId)));
  tokens = estimateEntriesTokens(current);
  if (tokens <= budget) return { entries: current, tokens, cleared: older.length, cut: 0 };
  const recent = collectToolResults(current).slice(-DEFAULT_TAIL_VERBATIM_RESULTS);
  const recentTokens = recent.reduce((sum, result) => sum + result.tokens, 0);
  // What the budget leaves for the recent results, shared out so smaller ones keep their slack for bigger ones.
  let room = budget - (tokens - recentTokens);
  const caps = new Map<string, number>();
  const bySize = [...recent].sort((left, right) => left.tokens - right.tokens);
  bySize.forEach((result, index) => {
    const share = Math.max(MIN_CUT_RESULT_TOKENS, Math.floor(room / (bySize.length - index)));
    if (result.tokens > share) caps.set(result.toolUseId, share);
    room -= Math.min(result.tokens, share);
  });
  const cut = cutResults(current, caps);
  current = cut.entries;
  return { entries: current, tokens: estimateEntriesTokens(current), cleared: older.length, cut: cut.cut };
}

/** The tail to keep after a compaction, within `budget` tokens where it can be (see the file comment). */
export function budgetTail(rounds: readonly ApiRound[], keepRecent: number, budget: number): BudgetedTail {
  const wanted = tailRoundsFor(rounds, keepRecent);
  for (let count = wanted; count > 0; count--) {
    const fitted = fitTail(
      rounds.slice(-count).flatMap((round) => round.entries),
      budget,
    );
    if (fitted.tokens <= budget || count === 1) return { ...fitted, droppedRounds: wanted - count };
  }
  return { entries: [], tokens: 0, cleared: 0, cut: 0, droppedRounds: 0 };
}

/** Number of trailing rounds to keep: enough for `keepRecent` tool results, within `budget`, never all. */
export function tailRoundCount(rounds: readonly ApiRound[], keepRecent: number, budget: number): number {
  let count = tailRoundsFor(rounds, keepRecent);
  while (count > 1 && tokensOf(rounds.slice(-count)) > budget) count--;
  return count;
}

function tokensOf(rounds: readonly ApiRound[]): number {
  return rounds.reduce((sum, round) => sum + round.tokens, 0);
}

/** Copies of the kept entries, chained after the summary; copied responses drop their (stale) usage. */
export function copyTail(tail: readonly MessageEntry[], chain: RecordChain): void {
  const renamed = new Map<string, string>();
  for (const entry of tail) {
    const uuid = randomUUID();
    renamed.set(entry.uuid, uuid);
    const base = { uuid, parentUuid: chain.context().parentUuid, timestamp: chain.now.toISOString() };
    if (entry.type === "assistant") {
      const { usage: _stale, ...message } = entry.message;
      const copy: AssistantEntry = { ...entry, ...base, message };
      chain.push(copy);
    } else if (entry.type === "user") {
      const copy: UserEntry = { ...entry, ...base };
      const source = entry.sourceToolAssistantUUID;
      if (source !== undefined) copy.sourceToolAssistantUUID = renamed.get(source) ?? source;
      chain.push(copy);
    } else {
      chain.push({ ...entry, ...base });
    }
  }
}

/** The kept rounds when the compaction notes cover the conversation up to its `throughUuid` (undefined: it cannot). */
export function notesTail(
  rounds: readonly ApiRound[],
  throughUuid: string,
  budget: number,
): MessageEntry[] | undefined {
  const index = rounds.findIndex((round) => round.entries.some((entry) => entry.uuid === throughUuid));
  if (index <= 0 || !startsWithResponse(rounds[index]!)) return undefined;
  // The rounds after the memory's end, fitted like any tail (old results cleared, recent ones cut).
  const kept = fitTail(
    rounds.slice(index).flatMap((round) => round.entries),
    budget,
  );
  return kept.tokens > budget ? undefined : kept.entries;
}

/** Slack the overflow drop leaves under its room, since the estimate of what it keeps is not exact: 200 tokens. */
export const DROP_ROOM_SLACK_TOKENS = 200;

/**
 * How many trailing rounds the overflow chain's drop keeps (overflow-steps.ts): all but the oldest, then fewer
 * until `overhead` plus what is kept (and the slack) fits `room` and the kept tail starts with a response; at
 * least the newest round stays.
 */
export function roundsWithinRoom(rounds: readonly ApiRound[], overhead: number, room: number): number {
  let keep = rounds.length - 1;
  let kept = rounds.slice(-keep).reduce((sum, round) => sum + round.tokens, 0);
  while (
    keep > 1 &&
    (overhead + kept + DROP_ROOM_SLACK_TOKENS > room || !startsWithResponse(rounds[rounds.length - keep]!))
  ) {
    kept -= rounds[rounds.length - keep]!.tokens;
    keep--;
  }
  return keep;
}
