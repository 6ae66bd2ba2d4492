/**
 * What one user turn carries from stage to stage: the session's context, the turn's recorder, the
 * counters the recovery paths consult (each recovery runs at most once per turn), what one model request's
 * attempt accumulates, and what each stage returns to query.ts, which routes (docs/ARCHITECTURE.md "One turn").
 */

import type { CompactionOutput } from "../compaction/index.js";
import {
  type AssistantEntry,
  createProgressEntry,
  emptyUsage,
  type ToolUseBlock,
  type TurnUsage,
} from "../messages/index.js";
import type { ProviderCapabilities, ProviderError } from "../provider/index.js";
import {
  type AssembledRequest,
  latchRecord,
  leanToolDefinitions,
  type ServerFeature,
  type ToolDefinition,
} from "../request/index.js";
import { Channel } from "./channel.js";
import { restoreFileReader } from "./compaction/restore-file.js";
import type { EngineEvent, TerminalReason } from "./events.js";
import { defaultRequestSettings, type ForkParent, pinsFromEntries, type QueryContext } from "./query-context.js";
import type { MaxTokensState } from "./recovery/max-tokens.js";
import { newPromptTooLongRecovery, type PromptTooLongRecovery } from "./recovery/prompt-too-long.js";
import { capabilitiesWithout } from "./recovery/self-heal.js";
import type { StopFailureType } from "./recovery/stop-failure.js";
import { sideQueryFor, webSearchFor } from "./side/side-query.js";
import { SideRequestLog } from "./side/side-requests.js";
import { type ExecutedCall, ToolExecutor } from "./tools/tool-executor.js";
import { TurnRecorder } from "./turn-recorder.js";

/** How a stage ends the iteration: go round again, or end the turn for `reason`. */
/**
 * `failure`: for a turn a failed API request ended, Claude Code's error type (`rate_limit`, `server_error`, …) that
 * StopFailure hooks match on (stop-failure.ts).
 */
export type Decision =
  | { type: "continue" }
  | { type: "stop"; reason: TerminalReason; error?: string; failure?: StopFailureType };

export const CONTINUE: Decision = { type: "continue" };

/** What the assemble stage hands on: the request of this iteration, and the view a fallback request is built from. */
export interface Assembled {
  type: "assembled";
  request: AssembledRequest;
  compaction: CompactionOutput;
}

/** What the stream stage hands on: a complete response, to the decide stage. */
export interface Streamed {
  type: "streamed";
  attempt: AttemptState;
}

/**
 * A stage found the request cannot stand as it is; query.ts hands this to the recover stage:
 * - `failed`: the request failed for good (the provider's retries are spent);
 * - `context_window`: the context filled up mid-answer (stop reason `model_context_window_exceeded`);
 * - `over_window`: the estimate says the request is over the window, so it was never sent; `blocked` is the
 *   message the turn stops with when the overflow chain cannot make room.
 */
export type Recover =
  | { type: "recover"; cause: "failed"; attempt: AttemptState; failure: ProviderError; request: AssembledRequest }
  | { type: "recover"; cause: "context_window"; attempt: AttemptState }
  | { type: "recover"; cause: "over_window"; overflow: ProviderError; blocked: string };

/** Ends the turn for `reason`, with the message the caller shows (default none) and an API failure's type. */
export function stop(reason: TerminalReason, error?: string, failure?: StopFailureType): Decision {
  return { type: "stop", reason, ...(error !== undefined ? { error } : {}), ...(failure ? { failure } : {}) };
}

export interface TurnState {
  readonly context: QueryContext;
  readonly recorder: TurnRecorder;
  /** Features the server refused this session (shared with the session state, so later turns agree). */
  readonly featuresOff: Set<ServerFeature>;
  readonly usage: TurnUsage;
  readonly maxTokens: MaxTokensState;
  readonly promptTooLong: PromptTooLongRecovery;
  /** Side requests (summaries, urgent ctx-agent runs) are billed: their records follow the pass that made them. */
  readonly sideRequests: SideRequestLog;
  readonly restoreFile: ((path: string) => Promise<string | undefined>) | undefined;
  iterations: number;
  /**
   * Model requests of this turn the server answered: what `--max-turns` counts (Claude Code's agentic turns).
   * A request refused and recovered from, or a loop iteration that sent nothing, is not one.
   */
  answeredRequests: number;
  mediaRetried: boolean;
  /** The text of the last response that had any. */
  lastText: string;
  /** Notices from hooks run inside a compaction pass (PreCompact), shown once the pass is recorded. */
  readonly hookNotices: string[];
  /** Bodies the server rejected as too long this turn (budget-learning.ts `bodyKey`): never sent again. */
  readonly rejectedBodies: Set<string>;
  /** Bodies the server counted this turn (count-tokens.ts): each is counted once. */
  readonly countedBodies: Set<string>;
}

export function newTurnState(context: QueryContext): TurnState {
  context.state.featuresOff ??= new Set();
  return {
    context,
    recorder: new TurnRecorder(context.sessionId, context.timeline, context.transcript, context.now),
    featuresOff: context.state.featuresOff,
    usage: emptyUsage(),
    maxTokens: { override: undefined, escalated: false, continuations: 0 },
    promptTooLong: newPromptTooLongRecovery(),
    sideRequests: new SideRequestLog(),
    restoreFile: restoreFileReader(context.tools, context.cwd, context.additionalDirectories, context.signal),
    iterations: 0,
    answeredRequests: 0,
    mediaRetried: false,
    lastText: "",
    hookNotices: [],
    rejectedBodies: new Set(),
    countedBodies: new Set(),
  };
}

/** Events that tool callbacks push while the loop is busy elsewhere, plus the executor's results. */
export type LoopItem = EngineEvent | ({ type: "_result"; block: ToolUseBlock } & ExecutedCall);

/** What one model request has produced so far; a retry starts a fresh attempt (same channel). */
export interface AttemptState {
  readonly channel: Channel<LoopItem>;
  executor: ToolExecutor;
  /** The assistant entries this attempt recorded, in order. */
  entries: AssistantEntry[];
  /** The recorded tool_use entries by tool_use id (a result answers its owner). */
  readonly toolOwners: Map<string, AssistantEntry>;
  stopReason: string | null;
  /** Text of this attempt's text blocks. */
  text: string;
  /** tool_use blocks whose input did not parse: they wait for the stop reason. */
  heldTools: ToolUseBlock[];
}

export function newAttempt(turn: TurnState): AttemptState {
  const channel = new Channel<LoopItem>();
  return {
    channel,
    executor: newExecutor(turn, channel),
    entries: [],
    toolOwners: new Map(),
    stopReason: null,
    text: "",
    heldTools: [],
  };
}

/** Forgets a superseded attempt's blocks and cancels its tools; the next attempt starts over. */
export function restartAttempt(turn: TurnState, attempt: AttemptState): void {
  attempt.executor.discard();
  attempt.executor = newExecutor(turn, attempt.channel);
  attempt.entries = [];
  attempt.toolOwners.clear();
  attempt.text = "";
  attempt.heldTools = [];
}

function newExecutor(turn: TurnState, channel: Channel<LoopItem>): ToolExecutor {
  const { context, recorder } = turn;
  return new ToolExecutor({
    tools: context.tools,
    policy: context.policy,
    ...(context.toolRuntime ? { runtime: context.toolRuntime } : {}),
    cwd: context.cwd,
    additionalDirectories: context.additionalDirectories,
    signal: context.signal,
    ...(context.hooks ? { hooks: context.hooks } : {}),
    session: {
      sessionId: context.sessionId,
      entries: () => context.timeline.entries,
      append: (entry) => recorder.append(entry),
    },
    sideQuery: sideQueryFor(() => forkParent(turn)),
    ...(capabilities(turn).webSearch === true ? { webSearch: webSearchFor(() => forkParent(turn)) } : {}),
    onStart: (block) => channel.push({ type: "tool_start", block }),
    onProgress: (toolUseId, message) => {
      recorder.append(createProgressEntry(recorder.context(), toolUseId, message));
      channel.push({ type: "tool_progress", toolUseId, message });
    },
  });
}

/** Records that `entries` were replaced (a `stream_superseded` entry), when there are any. */
export function supersede(turn: TurnState, entries: readonly AssistantEntry[], why: string): void {
  if (entries.length === 0) return;
  turn.recorder.system("stream_superseded", why, { supersededUuids: entries.map((entry) => entry.uuid) });
}

/** What the server accepts: the provider's capabilities minus what it refused this session. */
export function capabilities(turn: TurnState): ProviderCapabilities {
  return capabilitiesWithout(turn.context.provider.capabilities, turn.featuresOff);
}

/** Records the side requests answered since the last call and adds them to the turn's usage. */
export function recordSideRequests(turn: TurnState): void {
  const { context } = turn;
  turn.recorder.appendAll(
    turn.sideRequests.drain(context.sessionId, context.now(), turn.usage, context.config.modelOverrides),
  );
}

/**
 * The tools block this session sends: lean definitions once the budget switched to them (a window the full
 * block would crowd out: docs/CONTEXT-BUDGET.md "The fixed prefix"), else the turn's definitions as they are.
 */
export function requestToolDefinitions(turn: TurnState): readonly ToolDefinition[] {
  const { context } = turn;
  return context.state.budget?.leanTools === true
    ? leanToolDefinitions(context.toolDefinitions)
    : context.toolDefinitions;
}

/**
 * What forked requests build on: the last request's settings exactly (its cache); before any, the
 * session's defaults.
 */
export function forkParent(turn: TurnState): ForkParent {
  const { context } = turn;
  const { config, state } = context;
  return {
    provider: context.provider,
    onSideRequest: turn.sideRequests.onSideRequest,
    onRequestFailed: turn.sideRequests.onRequestFailed,
    ...(state.budget !== undefined ? { budget: state.budget } : {}),
    ...(state.lastRequest ?? {
      settings: defaultRequestSettings(
        config,
        state.model,
        requestToolDefinitions(turn),
        capabilities(turn),
        turn.featuresOff,
      ),
      latches: state.latches,
      pins: pinsFromEntries(context.timeline.entries),
    }),
    signal: context.signal,
  };
}

/** A server's announcement (x-emulator-features) holds for the session: recorded once, so a resume agrees. */
export function recordAnnouncements(turn: TurnState): void {
  const { context } = turn;
  const { state } = context;
  const announced = context.provider.announcedFeatures ?? [];
  if (announced.length <= (state.features?.length ?? 0)) return;
  state.features = [...announced];
  turn.recorder.append(latchRecord(state.latches, context.sessionId, context.now(), state.features));
}

/** The turn's last event. */
export function turnEnd(turn: TurnState, decision: Extract<Decision, { type: "stop" }>): EngineEvent {
  return {
    type: "turn_end",
    reason: decision.reason,
    usage: turn.usage,
    iterations: turn.iterations,
    answeredRequests: turn.answeredRequests,
    lastText: turn.lastText,
    ...(decision.error !== undefined ? { error: decision.error } : {}),
  };
}
