/**
 * What a resumed session brings back for the person: a short recap of the last exchanges (what it cost is
 * session-account.ts's). Pure functions of the timeline entries.
 */
import { contentText, type TimelineEntry } from "../messages/index.js";
import { CompactionCopies, isTypedPrompt } from "./session-account.js";

/** Exchanges (a prompt and the answer's text) shown when a session is resumed. */
export const DEFAULT_RECAP_EXCHANGES = 3;

/** Characters of each recap line before it is cut. */
export const DEFAULT_RECAP_CHARS = 100;

/** `› prompt` / `  answer` lines for the last exchanges, oldest first. */
export function recapLines(
  entries: readonly TimelineEntry[],
  exchanges: number = DEFAULT_RECAP_EXCHANGES,
  limit: number = DEFAULT_RECAP_CHARS,
): string[] {
  const turns: Array<{ prompt: string; answer: string }> = [];
  // A compaction's copies of the kept tail would pair the last prompt before it with an earlier answer.
  const copies = new CompactionCopies();
  for (const entry of entries) {
    if (copies.observe(entry)) continue;
    if (entry.type === "user") {
      if (!isTypedPrompt(entry)) continue;
      const text = contentText(entry.message.content).trim();
      if (text !== "") turns.push({ prompt: text, answer: "" });
    } else if (entry.type === "assistant" && entry.isApiErrorMessage !== true && entry.isSidechain !== true) {
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
