/** A CompactionInput for a builder's timeline, with test defaults (no provider extras unless asked). */
import type { CompactionInput, CompactionSettings } from "../../src/compaction/index.js";
import { budgetLimits, type ContextThresholds, DEFAULT_COMPACTION_SETTINGS } from "../../src/compaction/index.js";
import type { TimelineEntry } from "../../src/messages/index.js";
import type { ProviderCapabilities } from "../../src/provider/types.js";
import { COMPACTABLE_TOOLS, MODEL, SESSION_ID } from "../../support/timeline-builder.js";

export const NO_EXTRAS: ProviderCapabilities = { cacheEdits: false, contextManagement: false };
export const EMULATOR_CAPABILITIES: ProviderCapabilities = { cacheEdits: true, contextManagement: true };
export const PUBLIC_API_CAPABILITIES: ProviderCapabilities = { cacheEdits: false, contextManagement: true };

/** The one context budget of the test model at a server window of `window` (ratio 1 unless given). */
export function thresholdsAt(window: number, ratio = 1): ContextThresholds {
  return budgetLimits(MODEL, { contextWindow: window }, { ratio, learnedWindow: undefined }).thresholds;
}

export function compactionInput(
  entries: readonly TimelineEntry[],
  now: Date,
  options: {
    settings?: Partial<CompactionSettings>;
    capabilities?: ProviderCapabilities;
    toolNames?: string[];
    cacheTtl?: "5m" | "1h";
  } = {},
): CompactionInput {
  let parentUuid: string | null = null;
  for (const entry of entries) if ("uuid" in entry) parentUuid = entry.uuid;
  const input: CompactionInput = {
    entries,
    now,
    settings: { ...DEFAULT_COMPACTION_SETTINGS, ...options.settings },
    capabilities: options.capabilities ?? NO_EXTRAS,
    model: MODEL,
    thresholds: thresholdsAt(200_000),
    sessionId: SESSION_ID,
    parentUuid,
    compactableTools: COMPACTABLE_TOOLS,
  };
  if (options.toolNames !== undefined) input.toolNames = options.toolNames;
  if (options.cacheTtl !== undefined) input.cacheTtl = options.cacheTtl;
  return input;
}
