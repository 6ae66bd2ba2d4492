/**
 * The replay behind `threadline inspect --what-if`: the conversation's main chain goes, response by
 * response, through threadline's compaction tiers and request assembly (pure functions, no model) and the
 * emulator's prompt-cache ledger, with the clock at each response's own time so TTLs expire as they did.
 * The model's answers are the recorded ones (same output tokens); compactions happen where the transcript
 * has them (their summaries are the recorded ones); tokens are counted by the emulator's ledger (the Claude tokenizer).
 */

import { applyContextManagement, CacheLedger, type EmulatorRequest, flattenRequest } from "@threadline/emulator";
import {
  budgetLimits,
  type CompactionSettings,
  DEFAULT_COMPACTION_SETTINGS,
  runCompactionTiers,
} from "../../compaction/index.js";
import { pinsFromEntries } from "../../loop/query-context.js";
import type { AssistantEntry, TimelineEntry } from "../../messages/index.js";
import { deletedReferencesOf, requestCostUsd } from "../../messages/index.js";
import type { ProviderCapabilities } from "../../provider/index.js";
import { DEFAULT_CAPABILITIES } from "../../provider/index.js";
import { assembleRequest, emptyLatches, type RequestSettings, type ToolDefinition } from "../../request/index.js";

export interface ReplayOptions {
  /** System prompt segments threadline would send. */
  systemPrompt: readonly string[];
  /** Tool definitions threadline would send. */
  tools: readonly ToolDefinition[];
  /** Names of tools whose results the tiers may clear. */
  compactableTools: ReadonlySet<string>;
  /** Default `DEFAULT_COMPACTION_SETTINGS` (threadline's default policy). */
  compaction?: CompactionSettings;
  /** Default `DEFAULT_CAPABILITIES` (the public API: no cache editing). */
  capabilities?: ProviderCapabilities;
}

/** One replayed request, billed by the ledger. */
export interface ReplayedRequest {
  model: string;
  inputTokens: number;
  cacheReadTokens: number;
  cacheWrite5mTokens: number;
  cacheWrite1hTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** Record kinds a replay leaves out: the source's own bookkeeping, which the replayed policy makes anew. */
function isSourcePolicyRecord(entry: TimelineEntry): boolean {
  switch (entry.type) {
    case "system":
      return entry.subtype === "microcompact_boundary" || entry.subtype === "snip_boundary";
    case "cache-edit-pin":
    case "latches":
    case "side-request":
    case "collapse-commit":
    case "collapse-snapshot":
      return true;
    default:
      return false;
  }
}

/** Replays `entries` (a transcript's timeline) and bills every main-chain response's request. */
export async function replayConversation(
  entries: readonly TimelineEntry[],
  options: ReplayOptions,
): Promise<ReplayedRequest[]> {
  const settings = options.compaction ?? DEFAULT_COMPACTION_SETTINGS;
  const capabilities = options.capabilities ?? DEFAULT_CAPABILITIES;
  let clock = 0;
  const ledger = new CacheLedger(() => clock);
  const timeline: TimelineEntry[] = [];
  let latches = emptyLatches();
  const billed: ReplayedRequest[] = [];
  const source = entries.filter(
    (entry) => !isSourcePolicyRecord(entry) && !("isSidechain" in entry && entry.isSidechain === true),
  );
  const seen = new Set<string>();
  for (let index = 0; index < source.length; index++) {
    const entry = source[index]!;
    if (entry.type === "assistant" && !seen.has(entry.message.id) && isBilledResponse(source, index)) {
      seen.add(entry.message.id);
      const blocks = responseBlocks(source, index);
      const time = Date.parse(entry.timestamp);
      clock = Number.isFinite(time) ? Math.max(clock, time) : clock + 1_000;
      const model = entry.message.model;
      const limits = budgetLimits(model, undefined, undefined);
      const pass = await runCompactionTiers({
        entries: timeline,
        now: new Date(clock),
        settings,
        capabilities,
        model,
        thresholds: limits.thresholds,
        sessionId: entry.sessionId,
        parentUuid: lastUuid(timeline),
        compactableTools: options.compactableTools,
        toolNames: options.tools.map((tool) => tool.name),
      });
      timeline.push(...pass.records);
      const requestSettings: RequestSettings = {
        model,
        systemPrompt: options.systemPrompt,
        tools: options.tools,
        cacheTtl: "5m",
        snipTags: pass.snipTags,
        cacheEditing: pass.cacheEditing,
        ...(pass.contextManagement ? { contextManagement: pass.contextManagement } : {}),
      };
      if (pass.messages.length > 0) {
        const assembled = assembleRequest({
          messages: pass.messages,
          settings: requestSettings,
          latches,
          pins: pinsFromEntries(timeline),
          newCacheEdits: pass.newCacheEdits,
          relayBreakpoints: pass.relayBreakpoints,
        });
        latches = assembled.latches;
        for (const pin of assembled.newPins)
          timeline.push({
            type: "cache-edit-pin",
            messageIndex: pin.messageIndex,
            block: pin.block,
            timestamp: new Date(clock).toISOString(),
            sessionId: entry.sessionId,
          });
        const body = assembled.request.body as unknown as EmulatorRequest;
        const managed = applyContextManagement(body).request;
        const usage = ledger.process(
          model,
          flattenRequest(managed, deletedReferencesOf(managed)),
          limits.minCacheableTokens,
        ).usage;
        const tokens = {
          inputTokens: usage.input_tokens,
          cacheReadTokens: usage.cache_read_input_tokens,
          cacheWrite5mTokens: usage.cache_creation.ephemeral_5m_input_tokens,
          cacheWrite1hTokens: usage.cache_creation.ephemeral_1h_input_tokens,
          outputTokens: blocks.at(-1)?.message.usage?.output_tokens ?? 0,
        };
        billed.push({ model, ...tokens, costUsd: requestCostUsd(model, tokens) });
      }
    }
    timeline.push(entry);
  }
  return billed;
}

/** Whether the response starting at `index` was a billed request (not an error the client made up). */
function isBilledResponse(source: readonly TimelineEntry[], index: number): boolean {
  const blocks = responseBlocks(source, index);
  const first = blocks[0];
  if (first === undefined || first.isApiErrorMessage === true || first.message.model === "<synthetic>") return false;
  return blocks.some((block) => block.message.usage !== undefined);
}

/** The assistant entries of the response starting at `start` (one per content block). */
function responseBlocks(source: readonly TimelineEntry[], start: number): AssistantEntry[] {
  const first = source[start] as AssistantEntry;
  const blocks: AssistantEntry[] = [];
  for (let index = start; index < source.length; index++) {
    const entry = source[index]!;
    if (entry.type !== "assistant" || entry.message.id !== first.message.id) break;
    blocks.push(entry);
  }
  return blocks;
}

function lastUuid(timeline: readonly TimelineEntry[]): string | null {
  for (let index = timeline.length - 1; index >= 0; index--) {
    const entry = timeline[index]!;
    if ("uuid" in entry && typeof entry.uuid === "string") return entry.uuid;
  }
  return null;
}
