/**
 * Zod envelopes for Claude Code's transcript records (`~/.claude/projects/<slug>/<id>.jsonl`). Claude Code
 * adds fields release by release, so every object is loose and only the fields the importer reads are checked;
 * content blocks get the same field check as threadline's own (a block type threadline cannot send, such as
 * a server tool block, makes its record a reported problem rather than a crash later).
 */
import * as z from "zod";
import { contentBlocksSchema } from "./entry-schema.js";

/**
 * The schemas, built on the first import rather than when the module loads: zod 4 constructs each schema eagerly,
 * and this module is in every start's bundle (issue 44; docs/PERFORMANCE.md, "Start-up").
 */
function buildClaudeCodeSchemas() {
  const contentBlocks = contentBlocksSchema();
  const messageBase = {
    uuid: z.string().min(1),
    // Absent on a few very old records; treated as a root.
    parentUuid: z.string().nullable().optional(),
    sessionId: z.string(),
    timestamp: z.string(),
    isSidechain: z.boolean().optional(),
    agentId: z.string().optional(),
  };

  const claudeCodeUserSchema = z.looseObject({
    ...messageBase,
    type: z.literal("user"),
    message: z.looseObject({ role: z.literal("user"), content: z.union([z.string(), contentBlocks]) }),
    isMeta: z.boolean().optional(),
    isCompactSummary: z.boolean().optional(),
    isVisibleInTranscriptOnly: z.boolean().optional(),
    sourceToolAssistantUUID: z.string().optional(),
  });

  const claudeCodeAssistantSchema = z.looseObject({
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

  const claudeCodeSystemSchema = z.looseObject({
    ...messageBase,
    type: z.literal("system"),
    subtype: z.string().optional(),
    content: z.string().optional(),
    level: z.string().optional(),
    logicalParentUuid: z.string().nullable().optional(),
    compactMetadata: z.looseObject({ trigger: z.string().optional(), preTokens: z.number().optional() }).optional(),
  });

  const claudeCodeAttachmentSchema = z.looseObject({
    ...messageBase,
    type: z.literal("attachment"),
    attachment: z.looseObject({ type: z.string() }),
  });

  const claudeCodeProgressSchema = z.looseObject({
    ...messageBase,
    type: z.literal("progress"),
    toolUseID: z.string().optional(),
    data: z.looseObject({}).optional(),
  });

  const claudeCodeCustomTitleSchema = z.looseObject({
    type: z.literal("custom-title"),
    customTitle: z.string(),
    sessionId: z.string(),
  });
  return {
    user: claudeCodeUserSchema,
    assistant: claudeCodeAssistantSchema,
    system: claudeCodeSystemSchema,
    attachment: claudeCodeAttachmentSchema,
    progress: claudeCodeProgressSchema,
    customTitle: claudeCodeCustomTitleSchema,
  };
}

type ClaudeCodeSchemas = ReturnType<typeof buildClaudeCodeSchemas>;
let built: ClaudeCodeSchemas | undefined;

/** The envelope of each record kind the importer converts. */
export function claudeCodeSchemas(): ClaudeCodeSchemas {
  built ??= buildClaudeCodeSchemas();
  return built;
}

export type ClaudeCodeUser = z.infer<ClaudeCodeSchemas["user"]>;
export type ClaudeCodeAssistant = z.infer<ClaudeCodeSchemas["assistant"]>;
export type ClaudeCodeSystem = z.infer<ClaudeCodeSchemas["system"]>;
export type ClaudeCodeAttachment = z.infer<ClaudeCodeSchemas["attachment"]>;
export type ClaudeCodeProgress = z.infer<ClaudeCodeSchemas["progress"]>;

/** Parentless metadata Claude Code writes that has no timeline meaning here: counted, then skipped. */
export const CLAUDE_CODE_METADATA_TYPES: ReadonlySet<string> = new Set([
  "summary",
  "file-history-snapshot",
  "queue-operation",
  "last-prompt",
  "tag",
  "agent-name",
]);
