/**
 * Input-token estimate of a whole request body with the shared ruler (`tokens.ts`: characters / 4, images and
 * documents 2,000 each). Tools count as their JSON definition (cache_control excluded), system blocks as their
 * text, and a tool_result deleted by `cache_edits` as 0. The client checks "never send a request our own
 * estimate puts over the window" with it; the server (the emulator included, with its own real tokenizer) counts
 * its own way, and the estimate is calibrated against that count, never trusted alone (issue 38).
 */
import type { CacheControl, ContentBlock } from "./content.js";
import { estimateBlockTokens, estimateTextTokens } from "./tokens.js";

/** A tool definition as a request carries it (only its JSON and cache marker matter here). */
export interface CountedTool {
  cache_control?: CacheControl;
}

/** A block the estimate meets: one of the shared vocabulary, or a beta block (compaction, tool changes, …). */
export type CountedBlock = ContentBlock | { type: string };

/** What of a request body the estimate reads: tools, system and messages. */
export interface CountedRequest {
  tools?: readonly CountedTool[] | undefined;
  system?: string | readonly { text: string }[] | undefined;
  messages: readonly { content: string | readonly CountedBlock[] }[];
}

/** JSON of a tool definition without its cache marker: the bytes that are billed and cached. */
export function toolBytes(tool: CountedTool): string {
  const { cache_control: _marker, ...rest } = tool;
  return JSON.stringify(rest);
}

/** Block types the shared ruler knows; beta blocks (compaction, tool changes, …) are measured here. */
const RULER_BLOCKS: ReadonlySet<string> = new Set([
  "text",
  "image",
  "document",
  "thinking",
  "redacted_thinking",
  "tool_use",
  "tool_result",
  "cache_edits",
]);

/**
 * Tokens of a block outside the shared vocabulary: a compaction block counts its summary, anything else (a
 * tool_addition with its definition, server-tool blocks) its JSON, so nothing the client sends is free.
 */
function betaBlockTokens(block: Record<string, unknown>): number {
  if (block.type === "compaction") return typeof block.content === "string" ? estimateTextTokens(block.content) : 0;
  const { cache_control: _marker, ...rest } = block;
  return estimateTextTokens(JSON.stringify(rest));
}

/** Tokens of one message block; a tool_result whose `cache_reference` was deleted by cache_edits counts 0. */
export function messageBlockTokens(counted: CountedBlock, deletedReferences: ReadonlySet<string>): number {
  if (!RULER_BLOCKS.has(counted.type)) return betaBlockTokens(counted as Record<string, unknown>);
  const block = counted as ContentBlock;
  if (
    block.type === "tool_result" &&
    block.cache_reference !== undefined &&
    deletedReferences.has(block.cache_reference)
  ) {
    return 0;
  }
  return estimateBlockTokens(block);
}

/** Every `cache_edits` delete reference in the request's messages. */
export function deletedReferencesOf(request: CountedRequest): Set<string> {
  const deleted = new Set<string>();
  for (const message of request.messages) {
    if (typeof message.content === "string") continue;
    for (const counted of message.content) {
      const block = counted as ContentBlock;
      if (block.type === "cache_edits") for (const edit of block.edits) deleted.add(edit.cache_reference);
    }
  }
  return deleted;
}

/** Estimated input tokens of the whole request (tools, system and messages). */
export function estimateRequestTokens(
  request: CountedRequest,
  deletedReferences = deletedReferencesOf(request),
): number {
  let total = 0;
  for (const tool of request.tools ?? []) total += estimateTextTokens(toolBytes(tool));
  if (typeof request.system === "string") total += estimateTextTokens(request.system);
  else for (const block of request.system ?? []) total += estimateTextTokens(block.text);
  for (const message of request.messages) {
    if (typeof message.content === "string") total += estimateTextTokens(message.content);
    else for (const block of message.content) total += messageBlockTokens(block, deletedReferences);
  }
  return total;
}
