/** Small builders for hand-written request tests: deterministic uuids, times and message ids. */
import type { AssistantContentBlock, EntryContext, MessageEntry, UserContentBlock } from "../../src/messages/index.js";
import { createAssistantEntry, createAttachmentEntry, createUserEntry } from "../../src/messages/index.js";
import type { WorkingMessage } from "../../src/request/normalize/working-message.js";
import { SESSION_ID, testUuid } from "../../support/timeline-builder.js";

let counter = 1000;

export function context(): EntryContext {
  counter++;
  return { sessionId: SESSION_ID, parentUuid: null, uuid: testUuid(counter), now: new Date(Date.UTC(2025, 0, 1)) };
}

export function user(content: string | UserContentBlock[], isMeta = false): MessageEntry {
  return createUserEntry(context(), content, { isMeta });
}

export function assistant(block: AssistantContentBlock, messageId: string): MessageEntry {
  return createAssistantEntry(context(), block, { messageId, model: "claude-sonnet-4-5" });
}

export function attachment(text: string): MessageEntry {
  return createAttachmentEntry(context(), "memory", text);
}

export function working(
  role: "user" | "assistant",
  content: WorkingMessage["content"],
  messageId?: string,
): WorkingMessage {
  return { role, content, messageId, isMeta: false, snipTargets: [] };
}

/** Deep-frozen copy check helper: JSON of the value, to prove inputs are not mutated. */
export function snapshotOf(value: unknown): string {
  return JSON.stringify(value);
}
