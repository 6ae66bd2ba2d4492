/**
 * What the query loop runs on: the session's fixed settings, its mutable state, the context of one turn,
 * and the small derivations the loop and the engine share.
 */
import type { CacheBreakDetector } from "../cache/index.js";
import type {
  AutoCompactSession,
  CompactionSettings,
  ContextBudget,
  ForkRunner,
  SideRequestBill,
} from "../compaction/index.js";
import { cacheEditingEnabled } from "../compaction/index.js";
import type { HookRunner } from "../hooks/index.js";
import type { MemoryFiles } from "../memory/index.js";
import type { EffortLevel, ModelLimits, TimelineEntry } from "../messages/index.js";
import { isPinOrCompactBoundary, modelLimits } from "../messages/index.js";
import type { Provider } from "../provider/index.js";
import type {
  CacheEditPin,
  JsonOutputFormat,
  LatchState,
  NormalizeMemo,
  RequestSettings,
  ServerCompactionSettings,
  ServerFeature,
  ToolDefinition,
} from "../request/index.js";
import { withoutServerFeatures } from "../request/index.js";
import { filterGrowing, type Timeline } from "../timeline/index.js";
import type { AnyTool, PermissionPolicy, ToolRuntime } from "../tools/index.js";
import type { TranscriptStore } from "../transcript/index.js";
import type { FailedRequest } from "./recovery/failed-requests.js";

/** What a forked request inherits from its parent turn: the exact request settings, latches and pins. */
export interface ForkParent {
  provider: Provider;
  settings: RequestSettings;
  latches: LatchState;
  pins: readonly CacheEditPin[];
  signal?: AbortSignal;
  /** The session's calibration and learned window: forked requests budget as the loop does. Default none (the model table). */
  budget?: ContextBudget;
  /** Told of every forked request that was answered (it was billed). Default: nobody is told. */
  onSideRequest?: (bill: SideRequestBill) => void;
  /** Told of every forked request (or attempt of one) the server refused or failed. Default: nobody is told. */
  onRequestFailed?: (failed: FailedRequest) => void;
}

/** Makes compaction's ForkRunner for a parent (injected by the engine, which owns the forked agent). */
export type ForkFactory = (parent: ForkParent) => ForkRunner;

/** Settings that stay fixed for a session (the loop reads them every iteration). */
export interface LoopConfig {
  model: string;
  fallbackModel?: string;
  systemPrompt: readonly string[];
  /** Stop after this many model requests in one turn (default unlimited). */
  maxTurns?: number;
  thinking?: RequestSettings["thinking"];
  /**
   * `output_config.effort`, checked against what the server declares for `model` (engine/effort-support.ts); a
   * request for any other model (the fallback) goes without it. Default none.
   */
  effort?: { level: EffortLevel; model: string };
  maxTokens?: number;
  cacheTtl?: "5m" | "1h";
  /** The system markers' TTL when the pause policy hedges (RequestSettings.prefixCacheTtl). */
  prefixCacheTtl?: "5m" | "1h";
  compaction: CompactionSettings;
  /** How server-side compaction is asked for where the server declares it. Default DEFAULT_SERVER_COMPACTION_SETTINGS. */
  serverCompaction?: Partial<ServerCompactionSettings>;
  modelOverrides?: Partial<ModelLimits>;
  /**
   * Structured outputs: every request asks the server for a JSON answer matching this schema (`output_config.format`).
   * Set only for a Workflow agent with a `schema`, and only where the server declares `structuredOutputs`. Default none.
   */
  outputFormat?: JsonOutputFormat;
  metadata?: { user_id?: string };
}

/** Mutable per-session state the loop carries between turns. */
export interface LoopState {
  latches: LatchState;
  /** Features the server announced, as last recorded in the transcript. Default none. */
  features?: readonly string[];
  /** The model in use; switches to the fallback after repeated overloads. */
  model: string;
  /** The session's memo of closed turns for request assembly (byte-identical, faster). Default none. */
  normalizeMemo?: NormalizeMemo;
  /** Features the server refused this session (from `feature-off` records). Default none. */
  featuresOff?: Set<ServerFeature>;
  /** What the last request was assembled from: forked requests (summaries, ctx-agent) reuse it exactly. */
  lastRequest?: Omit<ForkParent, "provider" | "signal">;
  /**
   * The session's calibration of the estimate against the server's count and the window a server's overflow
   * error named (compaction/budget/context-budget.ts; from the `context-budget` records on resume). Default: a fresh
   * one, made on the first turn.
   */
  budget?: ContextBudget;
}

export interface QueryContext {
  sessionId: string;
  timeline: Timeline;
  transcript: TranscriptStore;
  provider: Provider;
  tools: ReadonlyMap<string, AnyTool>;
  toolDefinitions: readonly ToolDefinition[];
  /**
   * Definitions of the deferred tools found (by ToolSearch) since the latest compact boundary, read from the
   * timeline at each request; where the server declares tool changes they are offered at once in a
   * tool-change message (loop/tools/tool-arrivals.ts). Default none: late tools wait for the tools block.
   */
  lateToolDefinitions?: (entries: readonly TimelineEntry[]) => readonly ToolDefinition[];
  policy: PermissionPolicy;
  /** How tool processes run (secret-free environment, redaction, sandbox). Default: `defaultToolRuntime()`. */
  toolRuntime?: ToolRuntime;
  cwd: string;
  additionalDirectories: readonly string[];
  config: LoopConfig;
  state: LoopState;
  cacheDetector?: CacheBreakDetector;
  now: () => Date;
  signal: AbortSignal;
  /** Makes forked requests for tiers 3–4 (injected by the engine). Default none: those tiers call no model. */
  forkFactory?: ForkFactory;
  /** Autocompact state kept for the session (circuit breaker, compaction notes). Default: fresh per turn. */
  autoCompact?: AutoCompactSession;
  /** Command hooks from settings (tool, stop and compaction events). Default none: no hook runs. */
  hooks?: HookRunner;
  /** Which event runs when the loop is about to stop: "SubagentStop" inside a subagent. Default "Stop". */
  stopHookEvent?: "Stop" | "SubagentStop";
  /**
   * Tell the model about background commands that ended, at its next request (task-notifications.ts). Only the
   * session's own loop sets it, so a subagent sharing the runtime does not take them. Default false.
   */
  taskNotifications?: boolean;
  /**
   * Messages for this loop, taken at the start of each iteration and sent as user messages (inbox-messages.ts):
   * a background subagent's SendMessage inbox. Default none.
   */
  inbox?: () => string[];
  /**
   * The session's memory files: nested ones are attached when a tool first touches their subtree, and every
   * loaded one is attached again when a tier took it out of the view. Default none (memory files off).
   */
  memory?: MemoryFiles;
}

/**
 * The request settings of a session before any request was made (what forked requests use then), without
 * the features in `featuresOff` (default none).
 */
export function defaultRequestSettings(
  config: LoopConfig,
  model: string,
  tools: readonly ToolDefinition[],
  capabilities: Provider["capabilities"],
  featuresOff: ReadonlySet<ServerFeature> = new Set(),
): RequestSettings {
  return withoutServerFeatures(sessionDefaults(config, model, tools, capabilities), featuresOff);
}

function sessionDefaults(
  config: LoopConfig,
  model: string,
  tools: readonly ToolDefinition[],
  capabilities: Provider["capabilities"],
): RequestSettings {
  return {
    model,
    systemPrompt: config.systemPrompt,
    tools,
    ...(config.thinking ? { thinking: config.thinking } : {}),
    // A rewrite tier's cut drops the bound thinking after it instead of failing the request (docs/THINKING-BINDING.md).
    ...(capabilities.betas !== false && modelLimits(model, config.modelOverrides).bindsThinkingPrefix
      ? { thinkingPrefixMismatch: "drop_block" as const }
      : {}),
    ...(config.effort !== undefined && config.effort.model === model ? { effort: config.effort.level } : {}),
    ...(config.maxTokens !== undefined ? { maxTokens: config.maxTokens } : {}),
    cacheTtl: config.cacheTtl ?? "5m",
    ...(config.prefixCacheTtl !== undefined ? { prefixCacheTtl: config.prefixCacheTtl } : {}),
    snipTags: config.compaction.snip,
    cacheEditing: config.compaction.microcompact && cacheEditingEnabled({ settings: config.compaction, capabilities }),
    ...(config.metadata ? { metadata: config.metadata } : {}),
    ...(config.modelOverrides ? { modelOverrides: config.modelOverrides } : {}),
    ...(config.outputFormat ? { outputFormat: config.outputFormat } : {}),
  };
}

/**
 * Cache edits pinned since the last compaction, in the order they were pinned. A compact boundary starts a
 * new message layout (and a new cached prefix), so pins from before it point at indices that no longer exist.
 */
export function pinsFromEntries(entries: readonly TimelineEntry[]): CacheEditPin[] {
  let pins: CacheEditPin[] = [];
  for (const entry of filterGrowing(entries, isPinOrCompactBoundary)) {
    if (entry.type === "cache-edit-pin") pins.push({ messageIndex: entry.messageIndex, block: entry.block });
    else pins = [];
  }
  return pins;
}

/** Names of the tools whose results microcompact may clear. */
export function compactableToolNames(tools: ReadonlyMap<string, AnyTool>): Set<string> {
  const names = new Set<string>();
  for (const [name, tool] of tools) if (tool.compactable) names.add(name);
  return names;
}
