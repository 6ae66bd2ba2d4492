/**
 * Zod envelopes for Claude Code's transcript records (`~/.claude/projects/<slug>/<id>.jsonl`). Claude Code
 * adds fields release by release, so every object is loose and only the fields the importer reads are checked;
 * content blocks get the same field check as threadline's own (a block type threadline cannot send, such as
 * a server tool block, makes its record a reported problem rather than a crash later).
 */
import * as z from "zod";
import { contentBlocks } from "./entry-schema.js";

const messageBase = {
  uuid: z.string().min(1),
  // Absent on a few very old records; treated as a root.
  parentUuid: z.string().nullable().optional(),
  sessionId: z.string(),
  timestamp: z.string(),
  isSidechain: z.boolean().optional(),
  agentId: z.string().optional(),
};

export const claudeCodeUserSchema = z.looseObject({
  ...messageBase,
  type: z.literal("user"),
  message: z.looseObject({ role: z.literal("user"), content: z.union([z.string(), contentBlocks]) }),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  isVisibleInTranscriptOnly: z.boolean().optional(),
  sourceToolAssistantUUID: z.string().optional(),
});
export type ClaudeCodeUser = z.infer<typeof claudeCodeUserSchema>;

export const claudeCodeAssistantSchema = z.looseObject({
  ...messageBase,
  type: z.literal("assistant"),
  message: z.looseObject({
    id: z.string(),
    model: z.string().optional(),
    content: contentBlocks,
    stop_reason: z.string().nullable().optional(),
    stop_sequence: z.string().nullable().optional(),
    usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }).optional(),
  }),
  requestId: z.string().optional(),
  isApiErrorMessage: z.boolean().optional(),
});
export type ClaudeCodeAssistant = z.infer<typeof claudeCodeAssistantSchema>;

export const claudeCodeSystemSchema = z.looseObject({
  ...messageBase,
  type: z.literal("system"),
  subtype: z.string().optional(),
  content: z.string().optional(),
  level: z.string().optional(),
  logicalParentUuid: z.string().nullable().optional(),
  compactMetadata: z.looseObject({ trigger: z.string().optional(), preTokens: z.number().optional() }).optional(),
});
export type ClaudeCodeSystem = z.infer<typeof claudeCodeSystemSchema>;

export const claudeCodeAttachmentSchema = z.looseObject({
  ...messageBase,
  type: z.literal("attachment"),
  attachment: z.looseObject({ type: z.string() }),
});
export type ClaudeCodeAttachment = z.infer<typeof claudeCodeAttachmentSchema>;

export const claudeCodeProgressSchema = z.looseObject({
  ...messageBase,
  type: z.literal("progress"),
  toolUseID: z.string().optional(),
  data: z.looseObject({}).optional(),
});
export type ClaudeCodeProgress = z.infer<typeof claudeCodeProgressSchema>;

export const claudeCodeCustomTitleSchema = z.looseObject({
  type: z.literal("custom-title"),
  customTitle: z.string(),
  sessionId: z.string(),
});

/** Parentless metadata Claude Code writes that has no timeline meaning here: counted, then skipped. */
export const CLAUDE_CODE_METADATA_TYPES: ReadonlySet<string> = new Set([
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "tag",
  "agent-name",
]);
