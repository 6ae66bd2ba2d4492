/**
 * What each cloud platform accepts beyond the plain Messages API, declared rather than guessed.
 * Each claim names where it comes from; a claim we could not confirm is `false` (a missing feature costs
 * a little cache or context, an unaccepted one fails every request). Any of them can be overridden
 * through the provider's `capabilities` option.
 */
import type { ProviderCapabilities } from "./types.js";

/** The platforms threadline reaches Claude through. */
export type PlatformName = "anthropic" | "bedrock" | "vertex";

export const PLATFORM_NAMES: readonly PlatformName[] = ["anthropic", "bedrock", "vertex"];

/** Features that differ between platforms. */
export interface PlatformFeatures {
  /** `context_management` edits (beta `context-management-2025-06-27`). */
  contextManagement: boolean;
  /** `cache_control.ttl: "1h"` (beta `extended-cache-ttl-2025-04-11`). */
  extendedCacheTtl: boolean;
  /** A token-counting endpoint. */
  tokenCounting: boolean;
  /** `cache_edits` (threadline's emulator only; no public platform offers it). */
  cacheEdits: boolean;
}

export interface PlatformProfile {
  name: PlatformName;
  /** Human name for messages. */
  title: string;
  /** `anthropic_version` in the request body (platforms take it there, not in a header); none for first-party. */
  bodyVersion: string | undefined;
  /** How model ids look on this platform (for help text and errors). */
  modelIdFormat: string;
  features: PlatformFeatures;
  /** Where each feature claim comes from. */
  sources: readonly string[];
}

/**
 * Amazon Bedrock (bedrock-runtime InvokeModel / InvokeModelWithResponseStream).
 * - `anthropic_version: "bedrock-2023-05-31"`: the Bedrock user guide, "Anthropic Claude Messages API"
 *   request parameters (docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html).
 * - context management: the Bedrock tool-use page documents automatic tool call clearing as a beta
 *   (…/userguide/model-parameters-anthropic-claude-messages-tool-use.html#model-parameters-anthropic-claude-automatic-tool-call-clearing).
 * - 1-hour cache TTL: generally available for Claude Sonnet 4.5, Haiku 4.5 and Opus 4.5 since January 2026
 *   (AWS "What's new": Bedrock prompt caching 1-hour TTL).
 * - token counting: not offered — the official `@anthropic-ai/bedrock-sdk` removes `messages.countTokens`
 *   ("The Bedrock API does not currently support token counting").
 */
export const BEDROCK_PROFILE: Readonly<PlatformProfile> = Object.freeze({
  name: "bedrock",
  title: "Amazon Bedrock",
  bodyVersion: "bedrock-2023-05-31",
  modelIdFormat:
    "anthropic.claude-sonnet-4-5-20250929-v1:0, us.anthropic.claude-sonnet-4-6 (inference profile), or an ARN",
  features: Object.freeze({ contextManagement: true, extendedCacheTtl: true, tokenCounting: false, cacheEdits: false }),
  sources: [
    "docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-request-response.html",
    "docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages-tool-use.html",
    "@anthropic-ai/bedrock-sdk 1.1.3 src/client.ts (no countTokens, no batches)",
  ],
});

/**
 * Google Vertex AI (publishers/anthropic models, `:rawPredict` / `:streamRawPredict`).
 * - `anthropic_version: "vertex-2023-10-16"`: Vertex AI "Use Claude models" request body.
 * - 1-hour cache TTL: the Vertex prompt-caching page describes a five-minute lifetime only, so off.
 * - context management: not confirmed in Vertex's documentation, so off (override to try it).
 * - token counting: offered — `@anthropic-ai/vertex-sdk` routes count_tokens to `count-tokens:rawPredict`.
 */
export const VERTEX_PROFILE: Readonly<PlatformProfile> = Object.freeze({
  name: "vertex",
  title: "Google Vertex AI",
  bodyVersion: "vertex-2023-10-16",
  modelIdFormat: "claude-sonnet-4-5@20250929, claude-sonnet-4-6",
  features: Object.freeze({
    contextManagement: false,
    extendedCacheTtl: false,
    tokenCounting: true,
    cacheEdits: false,
  }),
  sources: [
    "cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude",
    "cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude/prompt-caching",
    "@anthropic-ai/vertex-sdk 1.1.3 src/client.ts (count-tokens:rawPredict)",
  ],
});

/** The provider capabilities a platform profile implies. */
export function platformCapabilities(profile: PlatformProfile): ProviderCapabilities {
  return {
    cacheEdits: profile.features.cacheEdits,
    contextManagement: profile.features.contextManagement,
    cacheTtls: profile.features.extendedCacheTtl ? ["5m", "1h"] : ["5m"],
  };
}
