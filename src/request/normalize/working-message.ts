/**
 * The intermediate form normalization steps pass along: a wire message plus the facts about its origin
 * that later steps need (the response's `message.id`, whether it is meta, which blocks take snip tags).
 * Steps never mutate a block they did not create: they clone what they change.
 */
import type { ContentBlock, TextBlock } from "../../messages/index.js";

/** A text block that gets a snip id tag, and the uuid of the timeline entry it came from. */
export interface SnipTarget {
  uuid: string;
  block: TextBlock;
}

export interface WorkingMessage {
  role: "user" | "assistant";
  content: ContentBlock[];
  /** Assistant messages: the API response id shared by the response's entries. */
  messageId: string | undefined;
  /** User messages: every source entry was injected by the runtime (attachments, reminders). */
  isMeta: boolean;
  /** User messages: the last text block of each non-meta source entry. */
  snipTargets: SnipTarget[];
}

/** Placeholder text for messages that must not be empty (the API rejects empty non-final messages). */
export const NO_CONTENT_PLACEHOLDER = "(no content)";

/** Whether a string has no non-whitespace character (the API rejects such text blocks). */
export function isBlank(text: string): boolean {
  return text.trim().length === 0;
}

export function isThinkingBlock(block: ContentBlock): boolean {
  return block.type === "thinking" || block.type === "redacted_thinking";
}

export function userMessage(content: ContentBlock[], isMeta: boolean, snipTargets: SnipTarget[] = []): WorkingMessage {
  return { role: "user", content, messageId: undefined, isMeta, snipTargets };
}

/** A copy of `message` with new content (snip targets kept). */
export function withContent(message: WorkingMessage, content: ContentBlock[]): WorkingMessage {
  return { ...message, content };
}

/** Text wrapped as the runtime's out-of-band reminder. */
export function systemReminder(text: string): string {
  return `<system-reminder>\n${text}\n</system-reminder>`;
}

/** Whether a text block is a standalone `<system-reminder>` (possibly after a merge seam newline). */
export function isSystemReminderText(text: string): boolean {
  return text.trimStart().startsWith("<system-reminder>");
}
