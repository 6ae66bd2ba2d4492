/**
 * normalizeMessagesForAPI: the API view of the timeline → wire messages the API accepts.
 * Steps run in the order of docs/PIPELINE.md §4; each lives in its own file and names the API error it prevents.
 */
import type { ApiMessage, MessageEntry } from "../../messages/index.js";
import { appendSnipTags } from "./append-snip-tags.js";
import { dropOrphanThinking } from "./drop-orphan-thinking.js";
import { dropUnsendable } from "./drop-unsendable.js";
import { dropWhitespaceAssistants } from "./drop-whitespace-assistants.js";
import { ensureAlternation } from "./ensure-alternation.js";
import { fillEmptyAssistants } from "./fill-empty-assistants.js";
import { foldSystemReminders } from "./fold-system-reminders.js";
import { mergeAdjacentUsers } from "./merge-adjacent-users.js";
import { mergeAssistantsById } from "./merge-assistants-by-id.js";
import { pairServerToolResults } from "./pair-server-tool-results.js";
import { pairToolResults } from "./pair-tool-results.js";
import { reorderAttachments } from "./reorder-attachments.js";
import { stripOversizeMedia } from "./strip-oversize-media.js";
import { stripTrailingThinking } from "./strip-trailing-thinking.js";
import { textOnlyErrorResults } from "./text-only-error-results.js";
import { toWorkingMessages } from "./to-working-messages.js";
import { trimFinalAssistant } from "./trim-final-assistant.js";
import { type ValidateImagesOptions, validateImages } from "./validate-images.js";
import type { WorkingMessage } from "./working-message.js";

export interface NormalizeOptions extends ValidateImagesOptions {
  /** Append `[id:xxxxxx]` snip tags to non-meta user messages. Default false. */
  snipTags?: boolean;
}

/** Wire messages for `entries` (the API view, synthetic error messages included). Never mutates its input. */
export function normalizeMessagesForAPI(
  entries: readonly MessageEntry[],
  options: NormalizeOptions = {},
): ApiMessage[] {
  // Steps 0–2 work on entries: they need entry-level facts (kinds, isMeta, uuids, error messages).
  const sendable = stripOversizeMedia(reorderAttachments(dropUnsendable(entries)));
  let messages: WorkingMessage[] = toWorkingMessages(sendable);
  messages = mergeAssistantsById(messages);
  messages = mergeAdjacentUsers(messages);
  if (options.snipTags) messages = appendSnipTags(messages);
  messages = pairServerToolResults(messages);
  messages = dropOrphanThinking(messages);
  messages = stripTrailingThinking(messages);
  messages = dropWhitespaceAssistants(messages);
  messages = fillEmptyAssistants(messages);
  messages = mergeAdjacentUsers(messages);
  messages = foldSystemReminders(messages);
  messages = textOnlyErrorResults(messages);
  messages = pairToolResults(messages);
  messages = ensureAlternation(messages);
  messages = trimFinalAssistant(messages);
  messages = validateImages(messages, options);
  const wire: ApiMessage[] = new Array(messages.length);
  for (let index = 0; index < messages.length; index++) {
    const message = messages[index]!;
    wire[index] = { role: message.role, content: message.content };
  }
  return wire;
}
