/**
 * The task is never dropped (docs/CONTEXT-BUDGET.md "The task is never dropped"): whatever a compaction removes —
 * rounds dropped without a summary, or rounds summarized by a model whose summary came back cut at its
 * `max_tokens` — the person's current prompt goes on verbatim after the marker or the summary when the kept tail
 * does not hold it. Measured before this existed, on the emulator counting ×4 at 16K and ×10 at 40K: 12 and 15 of
 * ~50 main requests held no trace of the task being worked on.
 */
import type { MessageEntry, UserEntry } from "../../messages/index.js";
import { charsForTokens, estimateTextTokens } from "../../messages/index.js";

/** What introduces the person's prompt carried after a marker or a summary (found again by `currentPrompt`). */
export const KEPT_PROMPT_LABEL = "The request being worked on, kept as the person wrote it:\n";

/** A kept prompt is never cut below this many characters, whatever the room (the task matters more). */
export const KEPT_PROMPT_MIN_CHARS = 400;

/** A user entry's text blocks, joined. */
function entryText(entry: UserEntry): string {
  const content = entry.message.content;
  if (typeof content === "string") return content;
  return content.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n");
}

/**
 * The text of the person's latest typed prompt in `entries` (not a meta message, not a tool result), if any — or
 * the one an earlier compaction carries after its marker or summary: a second compaction must not lose what the
 * first kept (a 16K window counted ×10 dropped rounds 25 times in one session; from the second drop on, no
 * request held the task).
 */
export function currentPrompt(entries: readonly MessageEntry[]): string | undefined {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (entry.type !== "user") continue;
    if (entry.isCompactSummary === true) {
      const text = entryText(entry);
      const at = text.lastIndexOf(KEPT_PROMPT_LABEL);
      if (at >= 0) return text.slice(at + KEPT_PROMPT_LABEL.length);
      continue;
    }
    if (entry.isMeta === true) continue;
    const content = entry.message.content;
    if (typeof content !== "string" && content.some((block) => block.type === "tool_result")) continue;
    const text = entryText(entry);
    if (text !== "") return text;
  }
  return undefined;
}

/**
 * The section that carries `prompt`, at most `maxTokens` (estimate units) unless that is under
 * KEPT_PROMPT_MIN_CHARS: a longer prompt keeps its beginning and its end, and says how much of the middle is out.
 */
export function keptPromptSection(prompt: string, maxTokens: number): string {
  const whole = `${KEPT_PROMPT_LABEL}${prompt}`;
  if (estimateTextTokens(whole) <= maxTokens) return whole;
  const chars = Math.max(KEPT_PROMPT_MIN_CHARS, charsForTokens(maxTokens) - KEPT_PROMPT_LABEL.length - 80);
  if (prompt.length <= chars) return whole;
  const head = Math.ceil((chars * 2) / 3);
  const tail = chars - head;
  const left = prompt.length - head - tail;
  return `${KEPT_PROMPT_LABEL}${prompt.slice(0, head)}\n[… ${left.toLocaleString("en-US")} characters of the request left out here to fit the context …]\n${prompt.slice(prompt.length - tail)}`;
}
