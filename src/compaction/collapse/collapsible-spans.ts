/**
 * Which parts of the conversation may collapse: finished tasks. A task starts at a prompt the person typed
 * and runs to the next one; it is finished when a later task exists. Its span is everything but its final
 * answer (the answer stays verbatim, and keeps the projected summary from merging into the next prompt).
 * Spans never hold one of the most recent compactable tool results, never overlap a staged or committed
 * span, and adjacent eligible tasks merge into one span (one ctx-agent call stages them all).
 */
import type { MessageEntry, StagedCollapse } from "../../messages/index.js";
import { estimateEntriesTokens } from "../budget/entry-tokens.js";
import { compactableResults } from "../results/compactable-results.js";
import { spanRange } from "./collapse-log.js";

/** A span smaller than this is not worth a summary: 2,000 tokens. */
export const DEFAULT_MIN_SPAN_TOKENS = 2_000;

export interface CollapsibleSpan {
  first: number;
  last: number;
  startUuid: string;
  endUuid: string;
  tokens: number;
}

/** Whether an entry is a prompt the person typed (not a tool result, meta message or summary). */
function isPrompt(entry: MessageEntry): boolean {
  if (entry.type !== "user" || entry.isMeta || entry.isCompactSummary) return false;
  const content = entry.message.content;
  if (typeof content === "string") return content.trim() !== "";
  return content.some((block) => block.type === "text") && !content.some((block) => block.type === "tool_result");
}

/** Index of the first entry of the response holding the task's last entry, when that is an assistant. */
function finalResponseStart(view: readonly MessageEntry[], first: number, last: number): number | undefined {
  const end = view[last];
  if (end?.type !== "assistant") return undefined;
  let start = last;
  while (start - 1 > first) {
    const previous = view[start - 1]!;
    if (previous.type !== "assistant" || previous.message.id !== end.message.id) break;
    start--;
  }
  return start;
}

export interface SpanOptions {
  /** Compactable tool names (results of these count towards `keepRecent`). */
  compactableTools: ReadonlySet<string>;
  /** Most recent compactable results that must stay verbatim. */
  keepRecent: number;
  /** Spans already staged (not collapsible again). */
  staged: readonly StagedCollapse[];
  minSpanTokens?: number;
}

/** The collapsible span of the view (merged over adjacent finished tasks), if any. */
export function findCollapsibleSpan(view: readonly MessageEntry[], options: SpanOptions): CollapsibleSpan | undefined {
  const prompts: number[] = [];
  view.forEach((entry, index) => {
    if (isPrompt(entry)) prompts.push(index);
  });
  const results = compactableResults(view, options.compactableTools);
  const protectedFrom = results.length > options.keepRecent ? results.at(-options.keepRecent)!.viewIndex : 0;
  const taken = new Set<number>();
  for (const span of options.staged) {
    const range = spanRange(view, span.startUuid, span.endUuid);
    if (range) for (let index = range.first; index <= range.last; index++) taken.add(index);
  }
  let merged: { first: number; last: number } | undefined;
  // The last prompt's task is unfinished; every earlier one is finished.
  for (let task = 0; task + 1 < prompts.length; task++) {
    const first = prompts[task]!;
    const end = prompts[task + 1]! - 1;
    const answer = finalResponseStart(view, first, end);
    const eligible =
      answer !== undefined && answer - 1 > first && end < protectedFrom && !rangeTaken(taken, first, answer - 1);
    if (!eligible) {
      if (merged !== undefined) break;
      continue;
    }
    if (merged === undefined) merged = { first, last: answer - 1 };
    else if (first === merged.last + 1 || onlyAnswerBetween(view, merged.last, first)) merged.last = answer - 1;
    else break;
  }
  if (merged === undefined) return undefined;
  const tokens = estimateEntriesTokens(view.slice(merged.first, merged.last + 1));
  if (tokens < (options.minSpanTokens ?? DEFAULT_MIN_SPAN_TOKENS)) return undefined;
  return {
    ...merged,
    startUuid: view[merged.first]!.uuid,
    endUuid: view[merged.last]!.uuid,
    tokens,
  };
}

function rangeTaken(taken: ReadonlySet<number>, first: number, last: number): boolean {
  for (let index = first; index <= last; index++) if (taken.has(index)) return true;
  return false;
}

/** Between two merged tasks lies only the earlier task's final answer (assistant entries). */
function onlyAnswerBetween(view: readonly MessageEntry[], last: number, next: number): boolean {
  for (let index = last + 1; index < next; index++) if (view[index]!.type !== "assistant") return false;
  return true;
}
