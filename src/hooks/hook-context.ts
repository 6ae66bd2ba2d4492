/**
 * Context a hook adds becomes an attachment entry: recorded once in the timeline and transcript, placed by the
 * normalizer's reorder rule (docs/ARCHITECTURE.md, request assembly step 1), so a resumed session sends the
 * same bytes without running the hook again.
 */
import { type AttachmentEntry, createAttachmentEntry, type EntryContext } from "../messages/index.js";
import type { HookEventName } from "../settings/index.js";

/** The attachment type of hook context. */
export const HOOK_CONTEXT_ATTACHMENT = "hook_additional_context";

/** The text the model reads: which event's hook said it, then what it said. */
export function hookContextText(event: HookEventName, text: string): string {
  return `${event} hook additional context: ${text}`;
}

/** One attachment entry per piece of context, in order. */
export function hookContextEntries(
  context: EntryContext,
  event: HookEventName,
  texts: readonly string[],
): AttachmentEntry[] {
  return texts.map((text) =>
    createAttachmentEntry(context, HOOK_CONTEXT_ATTACHMENT, hookContextText(event, text), { hookEvent: event }),
  );
}
