/**
 * The 9-section summary request AutoCompact (and the compaction notes) send, and how its answer is read:
 * `<analysis>` is scratch space the model thinks in, only `<summary>` is kept.
 */
import type { ContentBlock, MessageEntry, UserContentBlock, UserEntry } from "../../messages/index.js";

/** Output cap of a summary request: 20,000 tokens. */
export const DEFAULT_SUMMARY_MAX_TOKENS = 20_000;

/** Words per token of English prose, for asking for a summary of a token size in words: 0.75. */
const WORDS_PER_TOKEN = 0.75;

/** What the summary message that starts a compacted conversation begins with (docs/PIPELINE.md §3.4). */
export const COMPACT_SUMMARY_PREFIX =
  "This session is being continued from a previous conversation that ran out of context. " +
  "The summary below covers the earlier portion of the conversation.";

/**
 * The instruction appended to the conversation; its first line names it a summary of the conversation.
 * `artifactTrail` (rendered, default none) rides along as context the client keeps verbatim itself.
 * `lengthLimitTokens` (default none: no limit is asked for) is the answer's output cap when the compaction
 * target bounds it below the output reserve; the request then asks for an answer that size.
 */
export function summaryInstruction(
  customInstructions?: string,
  artifactTrail = "",
  lengthLimitTokens?: number,
): string {
  const lines = [
    "Your task is to create a detailed summary of the conversation so far, paying close attention to the user's explicit requests and your previous actions.",
    "Do not call any tools. First think in <analysis>…</analysis>, then write the summary in <summary>…</summary> with these sections:",
    "1. Primary Request and Intent",
    "2. Key Technical Concepts",
    "3. Files and Code Sections (with the snippets that matter)",
    "4. Errors and fixes",
    "5. Problem Solving",
    "6. All user messages (every one that is not a tool result)",
    "7. Pending Tasks",
    "8. Current Work",
    "9. Optional Next Step (only if it follows directly from the most recent request)",
  ];
  if (lengthLimitTokens !== undefined) {
    const words = Math.floor(lengthLimitTokens * WORDS_PER_TOKEN);
    lines.push(
      "",
      `Keep the whole answer, analysis included, under ${words.toLocaleString("en-US")} words: the context left after this summary is small, and a longer answer is cut off.`,
    );
  }
  if (customInstructions !== undefined && customInstructions.trim() !== "") {
    lines.push("", `Additional instructions: ${customInstructions.trim()}`);
  }
  if (artifactTrail !== "") {
    lines.push(
      "",
      "The artifact trail below lists every file this session touched and every command it ran. It is attached verbatim after your summary, so the summary need not repeat it:",
      artifactTrail,
    );
  }
  return lines.join("\n");
}

/** The `<summary>` body of an answer (the analysis dropped); the trimmed text when there are no tags. */
export function extractSummary(text: string): string {
  const withoutAnalysis = text.replace(/<analysis>[\s\S]*?<\/analysis>/g, "");
  const match = /<summary>([\s\S]*?)(?:<\/summary>|$)/.exec(withoutAnalysis);
  return (match ? match[1]! : withoutAnalysis).trim();
}

/** The text of the user message that starts the conversation after a compaction; the trail (default none) follows the summary verbatim. */
export function compactSummaryText(summary: string, artifactTrail = ""): string {
  const text = `${COMPACT_SUMMARY_PREFIX}\n\n<summary>\n${summary}\n</summary>`;
  return artifactTrail === "" ? text : `${text}\n\n${artifactTrail}`;
}

function placeholder(block: ContentBlock): string | undefined {
  if (block.type === "image") return "[image]";
  if (block.type === "document") return "[document]";
  return undefined;
}

function stripBlocks<T extends ContentBlock>(blocks: readonly T[]): { blocks: T[]; changed: boolean } {
  let changed = false;
  const out = blocks.map((block): T => {
    const text = placeholder(block);
    if (text !== undefined) {
      changed = true;
      return { type: "text", text } as T;
    }
    if (block.type === "tool_result" && Array.isArray(block.content)) {
      const inner = stripBlocks(block.content);
      if (inner.changed) {
        changed = true;
        return { ...block, content: inner.blocks } as T;
      }
    }
    return block;
  });
  return { blocks: out, changed };
}

/** The view with every image and document replaced by `[image]` / `[document]` (a summary needs no pixels). */
export function replaceMediaWithPlaceholders(view: readonly MessageEntry[]): MessageEntry[] {
  return view.map((entry) => {
    if (entry.type !== "user" || typeof entry.message.content === "string") return entry;
    const result = stripBlocks<UserContentBlock>(entry.message.content);
    if (!result.changed) return entry;
    const copy: UserEntry = { ...entry, message: { ...entry.message, content: result.blocks } };
    return copy;
  });
}
