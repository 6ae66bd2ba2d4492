/**
 * Constructors for timeline entries. Each takes the chain context (`EntryContext`) explicitly, so
 * callers decide parent links and time; nothing here reads a global clock or session.
 */
import { randomUUID } from "node:crypto";
import type {
  AssistantContentBlock,
  ContentBlock,
  ImageBlock,
  StopReason,
  TextBlock,
  ToolResultBlock,
  ToolResultContentBlock,
  ToolUseBlock,
  Usage,
  UserContentBlock,
} from "./content.js";
import type {
  AssistantEntry,
  AttachmentEntry,
  EntryBase,
  ProgressEntry,
  SystemEntry,
  SystemSubtype,
  UserEntry,
} from "./entries.js";

/** Where a new entry goes: its session, its parent, and the time. `uuid` defaults to a random v4. */
export interface EntryContext {
  sessionId: string;
  parentUuid: string | null;
  /** Defaults to `new Date()`. */
  now?: Date;
  /** Defaults to `crypto.randomUUID()`. */
  uuid?: string;
  isSidechain?: boolean;
  agentId?: string;
}

function base(context: EntryContext): EntryBase {
  const entry: EntryBase = {
    uuid: context.uuid ?? randomUUID(),
    parentUuid: context.parentUuid,
    timestamp: (context.now ?? new Date()).toISOString(),
    sessionId: context.sessionId,
  };
  if (context.isSidechain) entry.isSidechain = true;
  if (context.agentId !== undefined) entry.agentId = context.agentId;
  return entry;
}

export function textBlock(text: string): TextBlock {
  return { type: "text", text };
}

export function imageBlock(
  mediaType: "image/jpeg" | "image/png" | "image/gif" | "image/webp",
  data: string,
): ImageBlock {
  return { type: "image", source: { type: "base64", media_type: mediaType, data } };
}

export function toolUseBlock(id: string, name: string, input: unknown): ToolUseBlock {
  return { type: "tool_use", id, name, input };
}

export function toolResultBlock(
  toolUseId: string,
  content: string | ToolResultContentBlock[],
  isError = false,
): ToolResultBlock {
  const block: ToolResultBlock = { type: "tool_result", tool_use_id: toolUseId, content };
  if (isError) block.is_error = true;
  return block;
}

export interface UserEntryOptions {
  isMeta?: boolean;
  isVirtual?: boolean;
  isCompactSummary?: boolean;
  sourceToolAssistantUUID?: string;
  toolUseResult?: unknown;
}

/** A user message; plain strings are stored as given (the API accepts both forms). */
export function createUserEntry(
  context: EntryContext,
  content: string | UserContentBlock[],
  options: UserEntryOptions = {},
): UserEntry {
  const entry: UserEntry = { ...base(context), type: "user", message: { role: "user", content } };
  if (options.isMeta) entry.isMeta = true;
  if (options.isVirtual) entry.isVirtual = true;
  if (options.isCompactSummary) entry.isCompactSummary = true;
  if (options.sourceToolAssistantUUID !== undefined) entry.sourceToolAssistantUUID = options.sourceToolAssistantUUID;
  if (options.toolUseResult !== undefined) entry.toolUseResult = options.toolUseResult;
  return entry;
}

/** A user message carrying tool results (all tool_result blocks first, as the API requires). */
export function createToolResultEntry(
  context: EntryContext,
  results: ToolResultBlock[],
  sourceToolAssistantUUID?: string,
  toolUseResult?: unknown,
): UserEntry {
  const options: UserEntryOptions = {};
  if (sourceToolAssistantUUID !== undefined) options.sourceToolAssistantUUID = sourceToolAssistantUUID;
  if (toolUseResult !== undefined) options.toolUseResult = toolUseResult;
  return createUserEntry(context, results, options);
}

export interface AssistantEntryOptions {
  messageId: string;
  model: string;
  stopReason?: StopReason | null;
  usage?: Usage;
  isApiErrorMessage?: boolean;
  isVirtual?: boolean;
  requestId?: string;
}

/** One block of an API response as its own timeline entry. */
export function createAssistantEntry(
  context: EntryContext,
  block: AssistantContentBlock,
  options: AssistantEntryOptions,
): AssistantEntry {
  const entry: AssistantEntry = {
    ...base(context),
    type: "assistant",
    message: {
      id: options.messageId,
      type: "message",
      role: "assistant",
      model: options.model,
      content: [block],
      stop_reason: options.stopReason ?? null,
    },
  };
  if (options.usage !== undefined) entry.message.usage = options.usage;
  if (options.isApiErrorMessage) entry.isApiErrorMessage = true;
  if (options.isVirtual) entry.isVirtual = true;
  if (options.requestId !== undefined) entry.requestId = options.requestId;
  return entry;
}

/** Exact texts of synthetic API-error messages that the media-stripping step recognises. */
export const API_ERROR_TEXT = {
  promptTooLong: "Prompt is too long",
  requestTooLarge: "Request too large",
  imageTooLarge: "Image was too large. Try resizing the image or removing it.",
  pdfTooLarge: "PDF too large. Try reducing the number of pages or splitting the file.",
  pdfPasswordProtected: "PDF is password protected. Remove the password and try again.",
  pdfInvalid: "PDF is invalid. The file could not be processed.",
} as const;

/** A synthetic assistant message recording an API error in the timeline (never sent to the API). */
export function createApiErrorEntry(context: EntryContext, text: string, model = "<synthetic>"): AssistantEntry {
  return createAssistantEntry(context, textBlock(text), {
    messageId: `msg_synthetic_${randomUUID()}`,
    model,
    stopReason: "end_turn",
    isApiErrorMessage: true,
  });
}

export function createSystemEntry(
  context: EntryContext,
  subtype: SystemSubtype,
  content: string,
  extra: Partial<Omit<SystemEntry, keyof EntryBase | "type" | "subtype" | "content">> = {},
): SystemEntry {
  return { ...base(context), type: "system", subtype, content, ...extra };
}

export function createProgressEntry(context: EntryContext, toolUseID: string, message: string): ProgressEntry {
  return { ...base(context), type: "progress", toolUseID, data: { message } };
}

export function createAttachmentEntry(
  context: EntryContext,
  attachmentType: string,
  content: string,
  extra: Record<string, unknown> = {},
): AttachmentEntry {
  return { ...base(context), type: "attachment", attachment: { ...extra, type: attachmentType, content } };
}

/** Text of a content value (string or blocks), text blocks joined by newlines. */
export function contentText(content: string | readonly ContentBlock[]): string {
  if (typeof content === "string") return content;
  const parts: string[] = [];
  for (const block of content) if (block.type === "text") parts.push(block.text);
  return parts.join("\n");
}
