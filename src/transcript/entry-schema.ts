/**
 * Zod schemas for transcript lines: the trust boundary between bytes on disk and `TimelineEntry`.
 * They check the envelope (type, ids, parent link, the fields each kind is dispatched on) and every field of
 * a content block that request assembly reads, so a line that loads can always be assembled and sent: a
 * block with a wrong field type is reported with its line number and skipped, never a crash on resume.
 * Objects use zod's default (strip) mode: unknown fields are allowed, and since the loader keeps the original
 * record rather than zod's copy, stripping costs nothing and is faster than copying them (`looseObject`).
 */
import * as z from "zod";
import { SIDE_REQUEST_PURPOSES, SYSTEM_SUBTYPES, type TimelineEntry } from "../messages/index.js";
import { contentBlockProblem } from "./content-check.js";

/** One schema per entry type; the mapped type makes adding a kind to `TimelineEntry` a compile error here. */
type EntrySchemas = { readonly [Type in TimelineEntry["type"]]: z.ZodType };

/**
 * The schemas, built on first use rather than when the module loads: zod 4 constructs every schema eagerly, and
 * these ~90 constructions ran in every start, before the first request, though only a resume or an import reads a
 * transcript (issue 44; docs/PERFORMANCE.md, "Start-up").
 */
let built: Schemas | undefined;

interface Schemas {
  contentBlocks: z.ZodType<unknown[]>;
  entries: EntrySchemas;
}

function schemas(): Schemas {
  built ??= buildSchemas();
  return built;
}

/** Content blocks, each checked field by field (see content-check.ts); a bad one names its index. */
export function contentBlocksSchema(): z.ZodType<unknown[]> {
  return schemas().contentBlocks;
}

/** The schema of each kind of timeline entry. */
export function entrySchemas(): EntrySchemas {
  return schemas().entries;
}

function buildSchemas(): Schemas {
  const contentBlocks = z.array(z.unknown()).superRefine((blocks, context) => {
    blocks.forEach((block, index) => {
      const problem = contentBlockProblem(block);
      if (problem !== undefined) context.addIssue({ code: "custom", message: problem, path: [index] });
    });
  });

  const cacheEditsBlock = z.object({
    type: z.literal("cache_edits"),
    edits: z.array(z.object({ type: z.literal("delete"), cache_reference: z.string() })),
  });

  const entryBase = {
    uuid: z.string().min(1),
    parentUuid: z.string().nullable(),
    timestamp: z.string(),
    sessionId: z.string(),
    isSidechain: z.boolean().optional(),
    agentId: z.string().optional(),
  };

  const userSchema = z.object({
    ...entryBase,
    type: z.literal("user"),
    message: z.object({ role: z.literal("user"), content: z.union([z.string(), contentBlocks]) }),
    isMeta: z.boolean().optional(),
    isVirtual: z.boolean().optional(),
    isCompactSummary: z.boolean().optional(),
    sourceToolAssistantUUID: z.string().optional(),
  });

  const assistantSchema = z.object({
    ...entryBase,
    type: z.literal("assistant"),
    message: z.object({
      id: z.string(),
      role: z.literal("assistant"),
      model: z.string(),
      // One block per entry: the streaming layer splits responses, and the normalizer merges by message.id.
      content: contentBlocks.length(1),
      stop_reason: z.string().nullable().optional(),
    }),
    isApiErrorMessage: z.boolean().optional(),
    isVirtual: z.boolean().optional(),
  });

  const progressSchema = z.object({
    ...entryBase,
    type: z.literal("progress"),
    toolUseID: z.string(),
    data: z.object({ message: z.string() }),
  });

  const systemSchema = z.object({
    ...entryBase,
    type: z.literal("system"),
    subtype: z.enum(SYSTEM_SUBTYPES),
    content: z.string(),
    logicalParentUuid: z.string().nullable().optional(),
    snipMetadata: z.object({ removedUuids: z.array(z.string()) }).optional(),
    rewindMetadata: z
      .object({
        promptUuid: z.string().min(1),
        beforePrompt: z.boolean().optional(),
        conversation: z.boolean(),
        code: z.boolean(),
        restored: z.array(z.string()),
        notRestorable: z.array(z.object({ path: z.string(), reason: z.string() })),
      })
      .optional(),
    supersededUuids: z.array(z.string()).optional(),
  });

  const attachmentSchema = z.object({
    ...entryBase,
    type: z.literal("attachment"),
    // Loose: an attachment's own fields (a memory attachment's file list) come back on resume as written.
    attachment: z.looseObject({ type: z.string(), content: z.string() }),
  });

  const recordBase = { timestamp: z.string(), sessionId: z.string() };

  const collapseCommitSchema = z.object({
    ...recordBase,
    type: z.literal("collapse-commit"),
    collapseId: z.string(),
    summaryUuid: z.string(),
    summary: z.string(),
    firstArchivedUuid: z.string(),
    lastArchivedUuid: z.string(),
  });

  const collapseSnapshotSchema = z.object({
    ...recordBase,
    type: z.literal("collapse-snapshot"),
    staged: z.array(z.object({ startUuid: z.string(), endUuid: z.string(), summary: z.string() })),
  });

  const latchesSchema = z.object({
    ...recordBase,
    type: z.literal("latches"),
    betas: z.array(z.string()),
    features: z.array(z.string()).optional(),
  });

  const cacheEditPinSchema = z.object({
    ...recordBase,
    type: z.literal("cache-edit-pin"),
    messageIndex: z.number().int().nonnegative(),
    block: cacheEditsBlock,
  });

  const toolArrivalSchema = z.object({
    ...recordBase,
    type: z.literal("tool-arrival"),
    beforeMessage: z.number().int().nonnegative(),
    tools: z.array(
      z.object({ name: z.string().min(1), description: z.string(), input_schema: z.record(z.string(), z.unknown()) }),
    ),
  });

  const sideRequestSchema = z.object({
    ...recordBase,
    type: z.literal("side-request"),
    purpose: z.enum(SIDE_REQUEST_PURPOSES),
    model: z.string(),
    usage: z.looseObject({ input_tokens: z.number(), output_tokens: z.number() }),
  });

  const requestFailedSchema = z.object({
    ...recordBase,
    type: z.literal("request-failed"),
    purpose: z.enum(["turn", ...SIDE_REQUEST_PURPOSES]),
    model: z.string(),
    kind: z.string().min(1),
    status: z.number().int().optional(),
    retried: z.boolean(),
    message: z.string(),
  });

  const featureOffSchema = z.object({
    ...recordBase,
    type: z.literal("feature-off"),
    feature: z.string().min(1),
    reason: z.string(),
  });

  const pausePolicyName = z.enum(["expire", "one-hour", "keep-warm"]);
  const pauseChoiceSchema = z.object({
    ...recordBase,
    type: z.literal("pause-choice"),
    policy: pausePolicyName,
    ttl: z.enum(["5m", "1h"]),
    prefixTtl: z.enum(["5m", "1h"]).optional(),
    prefixTokens: z.number().nonnegative().optional(),
    forced: z.boolean(),
    expected: z.partialRecord(pausePolicyName, z.number()),
    contextTokens: z.number(),
    turnWriteTokens: z.number(),
  });

  const contextBudgetSchema = z.object({
    ...recordBase,
    type: z.literal("context-budget"),
    ratio: z.number().positive(),
    learnedWindow: z.number().int().positive().optional(),
    leanTools: z.boolean().optional(),
    reported: z.number().nonnegative(),
    estimated: z.number().nonnegative(),
  });

  const customTitleSchema = z.object({
    type: z.literal("custom-title"),
    customTitle: z.string(),
    sessionId: z.string(),
  });

  const entries: EntrySchemas = {
    user: userSchema,
    assistant: assistantSchema,
    progress: progressSchema,
    system: systemSchema,
    attachment: attachmentSchema,
    "collapse-commit": collapseCommitSchema,
    "collapse-snapshot": collapseSnapshotSchema,
    latches: latchesSchema,
    "cache-edit-pin": cacheEditPinSchema,
    "tool-arrival": toolArrivalSchema,
    "side-request": sideRequestSchema,
    "request-failed": requestFailedSchema,
    "feature-off": featureOffSchema,
    "pause-choice": pauseChoiceSchema,
    "context-budget": contextBudgetSchema,
    "custom-title": customTitleSchema,
  };
  return { contentBlocks, entries };
}

/** Whether `type` names a kind of timeline entry this build understands. */
export function isKnownEntryType(type: string): type is TimelineEntry["type"] {
  return Object.hasOwn(entrySchemas(), type);
}

/** A short description of the first schema issue, for problem reports. */
export function describeSchemaError(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return "invalid record";
  const path = issue.path.length > 0 ? issue.path.join(".") : "(record)";
  return `${path}: ${issue.message}`;
}
