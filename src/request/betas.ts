/**
 * Beta header values and which request features need them.
 */

/** `context_management` edits (server-side clearing of tool uses and thinking). */
export const CONTEXT_MANAGEMENT_BETA = "context-management-2025-06-27";
/** `cache_control.ttl: "1h"`. */
export const EXTENDED_CACHE_TTL_BETA = "extended-cache-ttl-2025-04-11";
/** `cache_edits` blocks and `cache_reference` on tool results (the emulator's name for cache editing). */
export const CACHE_EDITING_BETA = "cache-editing-2025-01-01";
/** Thinking between tool calls. */
export const INTERLEAVED_THINKING_BETA = "interleaved-thinking-2025-05-14";
/** `thinking.block_binding` and the response's `input_transformations` (SDK 1.17 `BetaThinkingBlockBinding`). */
export const THINKING_BINDING_BETA = "thinking-binding-controls-2026-08-01";

/** What a request uses, as far as betas are concerned. */
export interface BetaFeatures {
  contextManagement: boolean;
  oneHourTtl: boolean;
  cacheEditing: boolean;
  thinkingWithTools: boolean;
  /** The request sets `thinking.block_binding`. Default false. */
  thinkingBinding?: boolean;
}

/** The betas this request's own features need (before latching), sorted. */
export function featureBetas(features: BetaFeatures): string[] {
  const betas: string[] = [];
  if (features.cacheEditing) betas.push(CACHE_EDITING_BETA);
  if (features.contextManagement) betas.push(CONTEXT_MANAGEMENT_BETA);
  if (features.oneHourTtl) betas.push(EXTENDED_CACHE_TTL_BETA);
  if (features.thinkingWithTools) betas.push(INTERLEAVED_THINKING_BETA);
  if (features.thinkingBinding === true) betas.push(THINKING_BINDING_BETA);
  return betas.sort();
}
