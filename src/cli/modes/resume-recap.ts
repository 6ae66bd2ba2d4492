/**
 * What a resumed session brings back for the person: a short recap of the last exchanges (what it cost is
 * timeline/session-account.ts). Pure functions of the timeline entries.
 */
import { contentText, type TimelineEntry } from "../../messages/index.js";
import { CompactionCopies, isTypedPrompt } from "../../timeline/index.js";
import type { Style } from "../terminal/style.js";

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

/**
 * What the terminal prints on opening a session: the transcript's problems if any, then where a resumed session
 * left off and, when it made requests, its status line.
 */
export function recapOutput(
  problems: string | undefined,
  entries: readonly TimelineEntry[],
  style: Style,
  statusLine: string | undefined,
): string[] {
  const out = problems !== undefined ? [style.warning(`! transcript: ${problems}`)] : [];
  const lines = recapLines(entries);
  if (lines.length === 0) return out;
  out.push(style.dim("Where this session left off:"));
  for (const line of lines) out.push(line.startsWith("›") ? line : style.dim(line));
  if (statusLine !== undefined) out.push(style.dim(statusLine));
  return out;
}
