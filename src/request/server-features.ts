/**
 * Request features a server may refuse, and the settings without them. A feature switched off (because a
 * 400 named it) stays off for the session: it is recorded as a `feature-off` record, so a resume agrees, and
 * every later request — main loop and forked — is assembled without it. Switching off never changes what the
 * conversation says, only what the request asks of the server.
 */
import type { FeatureOffRecord, TimelineEntry } from "../messages/index.js";
import {
  CACHE_EDITING_BETA,
  CONTEXT_MANAGEMENT_BETA,
  EXTENDED_CACHE_TTL_BETA,
  INTERLEAVED_THINKING_BETA,
} from "./betas.js";
import type { RequestSettings } from "./settings.js";

/** The features a request can do without (each is optional to the API) and a beta by name. */
export type ServerFeature =
  | "cache_editing"
  | "context_management"
  | "thinking"
  | "metadata"
  | "tool_choice"
  | "cache_ttl_1h"
  | `beta:${string}`;

/** Top-level request fields that may be left out, and the feature each belongs to. */
export const OPTIONAL_TOP_LEVEL_FIELDS: Readonly<Record<string, ServerFeature>> = {
  context_management: "context_management",
  thinking: "thinking",
  metadata: "metadata",
  tool_choice: "tool_choice",
};

/** Betas that belong to a feature: refusing the beta switches the feature off, and the feature's off takes the beta. */
const FEATURE_BETAS: Readonly<Partial<Record<ServerFeature, string>>> = {
  cache_editing: CACHE_EDITING_BETA,
  context_management: CONTEXT_MANAGEMENT_BETA,
  cache_ttl_1h: EXTENDED_CACHE_TTL_BETA,
  thinking: INTERLEAVED_THINKING_BETA,
};

/** The feature a refused beta belongs to (`beta:<name>` for a beta that is only a header). */
export function featureOfBeta(beta: string): ServerFeature {
  for (const [feature, name] of Object.entries(FEATURE_BETAS)) if (name === beta) return feature as ServerFeature;
  return `beta:${beta}`;
}

/** Whether `value` is a feature id this build knows (older transcripts may hold ids a newer build renamed). */
function isServerFeature(value: string): value is ServerFeature {
  return value.startsWith("beta:") || value in FEATURE_BETAS || value === "metadata" || value === "tool_choice";
}

/** `settings` with every feature in `off` left out (the same object when nothing is off). */
export function withoutServerFeatures(settings: RequestSettings, off: ReadonlySet<ServerFeature>): RequestSettings {
  if (off.size === 0) return settings;
  const result: RequestSettings = { ...settings };
  const omit = new Set(settings.omitBetas ?? []);
  for (const feature of off) {
    const beta = feature.startsWith("beta:") ? feature.slice("beta:".length) : FEATURE_BETAS[feature];
    if (beta !== undefined) omit.add(beta);
  }
  if (off.has("cache_editing")) result.cacheEditing = false;
  if (off.has("context_management")) delete result.contextManagement;
  if (off.has("thinking")) {
    delete result.thinking;
    delete result.thinkingPrefixMismatch;
  }
  if (off.has("metadata")) delete result.metadata;
  if (off.has("tool_choice")) delete result.toolChoice;
  if (off.has("cache_ttl_1h")) result.cacheTtl = "5m";
  if (omit.size > 0) result.omitBetas = [...omit].sort();
  return result;
}

/** Every feature the session's records switched off. */
export function serverFeaturesFromEntries(entries: readonly TimelineEntry[]): Set<ServerFeature> {
  const off = new Set<ServerFeature>();
  for (const entry of entries)
    if (entry.type === "feature-off" && isServerFeature(entry.feature)) off.add(entry.feature);
  return off;
}

/** The record that switches `feature` off for the rest of the session. */
export function featureOffRecord(
  feature: ServerFeature,
  reason: string,
  sessionId: string,
  now: Date,
): FeatureOffRecord {
  return { type: "feature-off", feature, reason, timestamp: now.toISOString(), sessionId };
}
