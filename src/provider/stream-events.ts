/**
 * Schemas for the server-sent events the accumulator reads. Bytes from the network are a trust
 * boundary: a known event whose shape is wrong is a stream error, not a crash deep in the reducer.
 * Objects are loose: the API adds fields over time and they must not break parsing.
 */
import * as z from "zod";
import { STOP_REASONS, type StopReason, type Usage } from "../messages/index.js";

/**
 * The schemas, built on first use rather than when the module loads: zod 4 constructs each schema eagerly, and
 * these ~100 constructions ran in every start before its first request, which needs none of them; the first
 * response's events build them (issue 44; docs/PERFORMANCE.md, "Start-up").
 */
function buildStreamEventSchemas() {
  const iterationSchema = z.looseObject({
    type: z.string(),
    input_tokens: z.number(),
    output_tokens: z.number(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
  });

  const usageSchema = z.looseObject({
    input_tokens: z.number().nullish(),
    output_tokens: z.number().nullish(),
    cache_creation_input_tokens: z.number().nullish(),
    cache_read_input_tokens: z.number().nullish(),
    cache_creation: z
      .looseObject({ ephemeral_5m_input_tokens: z.number(), ephemeral_1h_input_tokens: z.number() })
      .nullish(),
    /** Server-side compaction's billed passes (SDK `BetaIterationsUsage`). */
    iterations: z.array(iterationSchema).nullish(),
    /** Server tool calls (SDK `ServerToolUsage`), billed per call (docs/API-SURFACE.md, "Server tools"). */
    server_tool_use: z
      .looseObject({ web_search_requests: z.number().nullish(), web_fetch_requests: z.number().nullish() })
      .nullish(),
  });

  const messageStartSchema = z.looseObject({
    type: z.literal("message_start"),
    message: z.looseObject({ id: z.string(), model: z.string(), usage: usageSchema.optional() }),
  });

  const contentBlockStartSchema = z.looseObject({
    type: z.literal("content_block_start"),
    index: z.number().int().nonnegative(),
    content_block: z.looseObject({ type: z.string() }),
  });

  const textStartSchema = z.looseObject({ type: z.literal("text"), text: z.string().default("") });
  const thinkingStartSchema = z.looseObject({
    type: z.literal("thinking"),
    thinking: z.string().default(""),
    signature: z.string().default(""),
  });
  const redactedThinkingStartSchema = z.looseObject({ type: z.literal("redacted_thinking"), data: z.string() });
  const toolUseStartSchema = z.looseObject({
    type: z.literal("tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.unknown().optional(),
  });

  const serverToolUseStartSchema = z.looseObject({
    type: z.literal("server_tool_use"),
    id: z.string(),
    name: z.string(),
    input: z.unknown().optional(),
  });

  const webSearchResultSchema = z.looseObject({
    type: z.literal("web_search_result"),
    url: z.string(),
    title: z.string(),
    encrypted_content: z.string(),
    page_age: z.string().nullish(),
  });

  /** Sent whole in content_block_start: the results, or an error object (SDK `WebSearchToolResultBlock`). */
  const webSearchToolResultStartSchema = z.looseObject({
    type: z.literal("web_search_tool_result"),
    tool_use_id: z.string(),
    content: z.union([
      z.array(webSearchResultSchema),
      z.looseObject({ type: z.literal("web_search_tool_result_error"), error_code: z.string() }),
    ]),
  });

  /** One citation added to the open text block (SDK `CitationsDelta`). */
  const citationsDeltaSchema = z.looseObject({
    type: z.literal("citations_delta"),
    citation: z.looseObject({ type: z.string() }),
  });

  const compactionStartSchema = z.looseObject({
    type: z.literal("compaction"),
    content: z.string().nullish(),
    encrypted_content: z.string().nullish(),
  });

  const contentBlockDeltaSchema = z.looseObject({
    type: z.literal("content_block_delta"),
    index: z.number().int().nonnegative(),
    delta: z.looseObject({ type: z.string() }),
  });

  const textDeltaSchema = z.looseObject({ type: z.literal("text_delta"), text: z.string() });
  const inputJsonDeltaSchema = z.looseObject({ type: z.literal("input_json_delta"), partial_json: z.string() });
  const thinkingDeltaSchema = z.looseObject({ type: z.literal("thinking_delta"), thinking: z.string() });
  const signatureDeltaSchema = z.looseObject({ type: z.literal("signature_delta"), signature: z.string() });

  const compactionDeltaSchema = z.looseObject({
    type: z.literal("compaction_delta"),
    content: z.string().nullable().optional(),
    encrypted_content: z.string().nullable().optional(),
  });

  const contentBlockStopSchema = z.looseObject({
    type: z.literal("content_block_stop"),
    index: z.number().int().nonnegative(),
  });

  const messageDeltaSchema = z.looseObject({
    type: z.literal("message_delta"),
    delta: z.looseObject({ stop_reason: z.string().nullish(), stop_sequence: z.string().nullish() }),
    usage: usageSchema.optional(),
  });
  return {
    usageSchema,
    messageStartSchema,
    contentBlockStartSchema,
    textStartSchema,
    thinkingStartSchema,
    redactedThinkingStartSchema,
    toolUseStartSchema,
    serverToolUseStartSchema,
    webSearchToolResultStartSchema,
    citationsDeltaSchema,
    compactionStartSchema,
    contentBlockDeltaSchema,
    textDeltaSchema,
    inputJsonDeltaSchema,
    thinkingDeltaSchema,
    signatureDeltaSchema,
    compactionDeltaSchema,
    contentBlockStopSchema,
    messageDeltaSchema,
  };
}

type StreamEventSchemas = ReturnType<typeof buildStreamEventSchemas>;
let built: StreamEventSchemas | undefined;

/** The schema of each event, content block start and delta the accumulator reads. */
export function streamEventSchemas(): StreamEventSchemas {
  built ??= buildStreamEventSchemas();
  return built;
}

/** Usage as it appears on the wire: every field may be missing (message_delta carries a subset). */
export type WireUsage = z.infer<StreamEventSchemas["usageSchema"]>;

/** Overlays the fields present in `update` (message_delta usage is cumulative) on `base`. */
export function mergeUsage(base: Usage, update: WireUsage | undefined): Usage {
  if (update === undefined) return base;
  const merged: Usage = { ...base };
  if (typeof update.input_tokens === "number") merged.input_tokens = update.input_tokens;
  if (typeof update.output_tokens === "number") merged.output_tokens = update.output_tokens;
  if (update.cache_creation_input_tokens != null)
    merged.cache_creation_input_tokens = update.cache_creation_input_tokens;
  if (update.cache_read_input_tokens != null) merged.cache_read_input_tokens = update.cache_read_input_tokens;
  if (update.cache_creation != null) {
    merged.cache_creation = {
      ephemeral_5m_input_tokens: update.cache_creation.ephemeral_5m_input_tokens,
      ephemeral_1h_input_tokens: update.cache_creation.ephemeral_1h_input_tokens,
    };
  }
  if (update.iterations != null) {
    // Only compaction and message passes are billed as such; other kinds the API may add are kept as message passes.
    merged.iterations = update.iterations.map((pass) => ({
      type: pass.type === "compaction" ? "compaction" : "message",
      input_tokens: pass.input_tokens,
      output_tokens: pass.output_tokens,
      cache_creation_input_tokens: pass.cache_creation_input_tokens ?? 0,
      cache_read_input_tokens: pass.cache_read_input_tokens ?? 0,
    }));
  }
  if (update.server_tool_use != null) {
    merged.server_tool_use = { web_search_requests: update.server_tool_use.web_search_requests ?? 0 };
  }
  return merged;
}

/** Zero usage, the starting point before message_start reports any. */
export function emptyUsage(): Usage {
  return { input_tokens: 0, output_tokens: 0 };
}

const KNOWN_STOP_REASONS: ReadonlySet<string> = new Set<StopReason>(STOP_REASONS);

/** A wire stop_reason as threadline's `StopReason`; null for none and for values threadline does not know. */
export function toStopReason(reason: string | null | undefined): StopReason | null {
  return reason != null && KNOWN_STOP_REASONS.has(reason) ? (reason as StopReason) : null;
}
