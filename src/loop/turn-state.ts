/**
 * What one user turn carries from stage to stage: the session's context, the turn's recorder and the
 * counters the recovery paths consult (each recovery runs at most once per turn), and the decision type
 * every stage ends with.
 */

import { emptyUsage, type TurnUsage } from "../messages/index.js";
import type { ProviderCapabilities } from "../provider/index.js";
import { latchRecord, type ServerFeature } from "../request/index.js";
import type { EngineEvent, TerminalReason } from "./events.js";
import { defaultRequestSettings, type ForkParent, pinsFromEntries, type QueryContext } from "./query-context.js";
import { type MaxTokensState, newPromptTooLongRecovery, type PromptTooLongRecovery } from "./recovery.js";
import { restoreFileReader } from "./restore-file.js";
import { capabilitiesWithout } from "./self-heal.js";
import { SideRequestLog } from "./side-requests.js";
import { TurnRecorder } from "./turn-recorder.js";

/** How a stage ends the iteration: go round again, or end the turn for `reason`. */
export type Decision = { type: "continue" } | { type: "stop"; reason: TerminalReason; error?: string };

export const CONTINUE: Decision = { type: "continue" };

/** Ends the turn for `reason`, with the message the caller shows (default none). */
export function stop(reason: TerminalReason, error?: string): Decision {
  return { type: "stop", reason, ...(error !== undefined ? { error } : {}) };
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
  mediaRetried: boolean;
  /** The text of the last response that had any. */
  lastText: string;
  /** Notices from hooks run inside a compaction pass (PreCompact), shown once the pass is recorded. */
  readonly hookNotices: string[];
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
    mediaRetried: false,
    lastText: "",
    hookNotices: [],
  };
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
 * What forked requests build on: the last request's settings exactly (its cache); before any, the
 * session's defaults.
 */
export function forkParent(turn: TurnState): ForkParent {
  const { context } = turn;
  const { config, state } = context;
  return {
    provider: context.provider,
    onSideRequest: turn.sideRequests.onSideRequest,
    ...(state.lastRequest ?? {
      settings: defaultRequestSettings(
        config,
        state.model,
        context.toolDefinitions,
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
    lastText: turn.lastText,
    ...(decision.error !== undefined ? { error: decision.error } : {}),
  };
}
