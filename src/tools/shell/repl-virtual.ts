/**
 * The virtual timeline pair recorded for each primitive call a REPL script makes: an assistant `tool_use`
 * and a user `tool_result`, both `isVirtual`, so the UI shows every call while the API view never sends them.
 */
import { randomBytes } from "node:crypto";
import {
  type AssistantEntry,
  createAssistantEntry,
  createToolResultEntry,
  isMessageEntry,
  type TimelineEntry,
  type ToolResultContentBlock,
  toolResultBlock,
  toolUseBlock,
  type UserEntry,
} from "../../messages/index.js";

/** `model` recorded on virtual assistant entries: no model produced them. */
export const VIRTUAL_MODEL = "repl";

/** A fresh id for a virtual tool_use (its own prefix, so it can never collide with the API's ids). */
export function virtualToolUseId(): string {
  return `toolu_vrt_${randomBytes(12).toString("hex")}`;
}

/** The uuid the next main-chain message should point at: the last non-sidechain message entry. */
export function lastMainChainUuid(entries: readonly TimelineEntry[]): string | null {
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index]!;
    if (isMessageEntry(entry) && !entry.isSidechain) return entry.uuid;
  }
  return null;
}

export interface VirtualCallContext {
  sessionId: string;
  parentUuid: string | null;
  now: Date;
}

/** The virtual assistant entry holding one primitive call's tool_use block. */
export function virtualToolUseEntry(
  context: VirtualCallContext,
  id: string,
  toolName: string,
  input: unknown,
): AssistantEntry {
  return createAssistantEntry(
    { sessionId: context.sessionId, parentUuid: context.parentUuid, now: context.now },
    toolUseBlock(id, toolName, input),
    {
      messageId: `msg_vrt_${randomBytes(12).toString("hex")}`,
      model: VIRTUAL_MODEL,
      stopReason: "tool_use",
      isVirtual: true,
    },
  );
}

/** The virtual user entry answering `owner`'s tool_use with the primitive's output. */
export function virtualToolResultEntry(
  context: VirtualCallContext,
  owner: AssistantEntry,
  id: string,
  content: string | ToolResultContentBlock[],
  isError: boolean,
  display: unknown,
): UserEntry {
  const entry = createToolResultEntry(
    { sessionId: context.sessionId, parentUuid: owner.uuid, now: context.now },
    [toolResultBlock(id, content, isError)],
    owner.uuid,
    display,
  );
  entry.isVirtual = true;
  return entry;
}
