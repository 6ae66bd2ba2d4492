/**
 * The default answers of the scripted model: an echo for main-loop turns without a scenario, and a
 * well-formed 9-section `<analysis>…</analysis><summary>…</summary>` for summary requests.
 */
import type { ApiMessage } from "../messages/index.js";
import { contentText } from "../messages/index.js";

/** The nine sections of a compaction summary, in order. */
export const SUMMARY_SECTIONS: readonly string[] = [
  "Primary Request and Intent",
  "Key Technical Concepts",
  "Files and Code Sections",
  "Errors and fixes",
  "Problem Solving",
  "All user messages",
  "Pending Tasks",
  "Current Work",
  "Optional Next Step",
];

/** Longest user text quoted per message in the default summary. */
const QUOTE_CHARS = 200;

/** The last user message's own text (empty when it only carries tool results). */
export function lastUserText(messages: readonly ApiMessage[]): string {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message?.role === "user") return contentText(message.content);
  }
  return "";
}

/** A summary quoting every user message, in the 9-section form compaction expects. */
export function defaultSummary(messages: readonly ApiMessage[]): string {
  const quotes: string[] = [];
  // The last user message is the summary instruction itself, not part of the conversation.
  for (let index = 0; index < messages.length - 1; index++) {
    const message = messages[index];
    if (message?.role !== "user") continue;
    const text = contentText(message.content).trim();
    if (text.length > 0) quotes.push(`   - ${text.slice(0, QUOTE_CHARS).replace(/\s+/g, " ")}`);
  }
  const firstRequest = quotes[0]?.slice(5) ?? "(no user request found)";
  const bodies: Record<string, string> = {
    "Primary Request and Intent": firstRequest,
    "All user messages": quotes.length > 0 ? `\n${quotes.join("\n")}` : "(none)",
    "Current Work": `The conversation had ${messages.length - 1} messages before this summary.`,
  };
  const sections = SUMMARY_SECTIONS.map(
    (title, index) => `${index + 1}. ${title}:\n   ${bodies[title] ?? "(emulator: nothing recorded)"}`,
  );
  return (
    "<analysis>\nThe emulator lists the conversation's user messages; it does not read the rest.\n</analysis>\n\n" +
    `<summary>\n${sections.join("\n\n")}\n</summary>`
  );
}
