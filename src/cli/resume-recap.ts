/**
 * What a resumed session brings back for the person: the cost and tokens already spent (so `/cost` and
 * the status line continue from them) and a short recap of the last exchanges. Pure functions of the
 * timeline entries.
 */

import {
  type AssistantEntry,
  addResponseUsage,
  contentText,
  emptyUsage,
  modelLimits,
  type TimelineEntry,
  type TurnUsage,
} from "../messages/index.js";

/** Exchanges (a prompt and the answer's text) shown when a session is resumed. */
export const DEFAULT_RECAP_EXCHANGES = 3;

/** Characters of each recap line before it is cut. */
export const DEFAULT_RECAP_CHARS = 100;

/**
 * Usage of every response in the transcript, one count per API message (a response is recorded as one
 * entry per content block; its usage is read once), error placeholders excluded.
 */
export function transcriptUsage(entries: readonly TimelineEntry[]): TurnUsage {
  const last = new Map<string, AssistantEntry>();
  for (const entry of entries) {
    if (entry.type !== "assistant" || entry.isApiErrorMessage === true || entry.isVirtual === true) continue;
    if (entry.message.usage === undefined) continue;
    last.set(entry.message.id, entry);
  }
  const total = emptyUsage();
  for (const entry of last.values()) {
    const usage = entry.message.usage;
    if (usage === undefined) continue;
    const limits = modelLimits(entry.message.model);
    addResponseUsage(total, usage, limits);
  }
  return total;
}

/** `› prompt` / `  answer` lines for the last exchanges, oldest first. */
export function recapLines(
  entries: readonly TimelineEntry[],
  exchanges: number = DEFAULT_RECAP_EXCHANGES,
  limit: number = DEFAULT_RECAP_CHARS,
): string[] {
  const turns: Array<{ prompt: string; answer: string }> = [];
  for (const entry of entries) {
    if (entry.type === "user") {
      if (entry.isMeta === true || entry.isCompactSummary === true || entry.isVirtual === true) continue;
      const text = contentText(entry.message.content).trim();
      if (text !== "") turns.push({ prompt: text, answer: "" });
    } else if (entry.type === "assistant" && entry.isApiErrorMessage !== true) {
      const current = turns.at(-1);
      const text = contentText(entry.message.content).trim();
      if (current !== undefined && text !== "") current.answer = text; // the turn's last words
    }
  }
  return turns
    .slice(-exchanges)
    .flatMap(({ prompt, answer }) => [
      `› ${cut(prompt, limit)}`,
      ...(answer !== "" ? [`  ${cut(answer, limit)}`] : []),
    ]);
}

function cut(text: string, limit: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= limit ? flat : `${flat.slice(0, limit - 1)}…`;
}

/** One line for the problems found loading a transcript (a Claude Code transcript may have dozens). */
export function summarizeProblems(problems: readonly string[]): string | undefined {
  if (problems.length === 0) return undefined;
  if (problems.length === 1) return problems[0];
  return `${problems.length} lines were skipped or converted (first: ${problems[0]}); \`threadline inspect\` lists them all`;
}
