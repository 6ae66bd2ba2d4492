/**
 * The engine's compaction wiring outside a turn: /compact, and the hooks that run after each turn and make
 * forked requests (the ctx-agent staging collapsible spans, session memory). Forked requests build on the
 * last request's settings (its cache); their bills are recorded and added to the session's totals.
 */
import {
  type AutoCompactSession,
  compactConversation,
  effectiveContextWindow,
  projectApiView,
  RecordChain,
  stageCollapses,
  tokenCountWithEstimation,
} from "../compaction/index.js";
import { type HookRunner, hookContextEntries } from "../hooks/index.js";
import { preCompactHooks } from "../loop/compaction-input.js";
import {
  compactableToolNames,
  defaultRequestSettings,
  type LoopConfig,
  type LoopState,
  pinsFromEntries,
} from "../loop/query.js";
import { restoreFileReader } from "../loop/restore-file.js";
import { capabilitiesWithout } from "../loop/self-heal.js";
import { SideRequestLog } from "../loop/side-requests.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import { modelLimits, type TurnUsage } from "../messages/index.js";
import type { Provider } from "../provider/index.js";
import { emptyLatches, toolDefinitions } from "../request/index.js";
import type { AnyTool } from "../tools/index.js";
import type { BackgroundFinisher } from "./finalize.js";
import { createForkRunner } from "./forked-agent.js";
import { SessionMemory } from "./session-memory.js";

/** The session parts the wiring reads and writes (shared with the engine, not copied). */
export interface SessionCompactionParts {
  sessionId: string;
  recorder: TurnRecorder;
  provider: Provider;
  config: LoopConfig;
  state: LoopState;
  tools: ReadonlyMap<string, AnyTool>;
  cwd: string;
  additionalDirectories: readonly string[];
  now: () => Date;
  /** The session's usage totals: side requests are added here. */
  totals: TurnUsage;
  autoCompact: AutoCompactSession;
  finisher: BackgroundFinisher;
  /** PreCompact before /compact, SessionStart ("compact") after it. Default none. */
  hooks?: HookRunner;
}

export class SessionCompaction {
  readonly #parts: SessionCompactionParts;
  /** Bills of side requests made outside a turn (/compact, ctx-agent, session memory). */
  readonly #sideRequests = new SideRequestLog();
  #sessionMemory: SessionMemory | undefined;

  /** Installs the after-turn hooks; `sessionMemory` keeps a summary autocompact can use without a model call. */
  constructor(parts: SessionCompactionParts, sessionMemory: boolean) {
    this.#parts = parts;
    this.#installHooks(sessionMemory);
  }

  /** The session memory kept for autocompact, when on. */
  get sessionMemory(): SessionMemory | undefined {
    return this.#sessionMemory;
  }

  /**
   * Compact now (the CLI's /compact): summarise the conversation with optional extra `instructions`, append
   * the boundary, summary and recent rounds, and reset the header latches. Throws when the summary fails.
   */
  async compact(instructions?: string): Promise<{ preTokens: number; postTokens: number }> {
    const { recorder, config, state, autoCompact } = this.#parts;
    const { timeline } = recorder;
    const view = projectApiView(timeline.entries, config.compaction);
    const preTokens = tokenCountWithEstimation(view);
    const chain = new RecordChain(this.#parts.sessionId, timeline.lastMessage?.uuid ?? null, this.#parts.now());
    const limits = modelLimits(state.model, config.modelOverrides);
    const reader = restoreFileReader(
      this.#parts.tools,
      this.#parts.cwd,
      this.#parts.additionalDirectories,
      new AbortController().signal,
    );
    const { hooks } = this.#parts;
    const hookNotices: string[] = [];
    const outcome = await this.#withSideRequests(
      compactConversation(
        {
          entries: timeline.entries,
          now: this.#parts.now(),
          settings: config.compaction,
          capabilities: capabilitiesWithout(this.#parts.provider.capabilities, state.featuresOff),
          model: state.model,
          contextWindow: limits.contextWindow,
          sessionId: this.#parts.sessionId,
          parentUuid: chain.context().parentUuid,
          compactableTools: compactableToolNames(this.#parts.tools),
          fork: createForkRunner(this.#forkParent()),
          autoCompact,
          ...(reader ? { restoreFile: reader } : {}),
          ...(hooks?.has("PreCompact") === true ? { beforeCompact: preCompactHooks(hooks, hookNotices) } : {}),
        },
        view,
        chain,
        { trigger: "manual", preTokens, ...(instructions !== undefined ? { instructions } : {}) },
      ),
    );
    recorder.appendAll(chain.records);
    state.latches = emptyLatches();
    autoCompact.consecutiveFailures = 0;
    for (const notice of hookNotices) recorder.notice("warning", notice);
    if (hooks?.has("SessionStart") === true) {
      const started = await hooks.run("SessionStart", { source: "compact" }, "compact");
      recorder.appendAll(hookContextEntries(recorder.context(), "SessionStart", started.context));
      for (const notice of started.notices) recorder.notice("warning", notice);
    }
    await recorder.flush();
    return { preTokens, postTokens: outcome.tokens };
  }

  /** Appends the records of side requests answered since the last call and adds them to the totals. */
  #recordSideRequests(): void {
    const { sessionId, now, totals, config } = this.#parts;
    this.#parts.recorder.appendAll(this.#sideRequests.drain(sessionId, now(), totals, config.modelOverrides));
  }

  #forkParent() {
    const { provider, state, config, tools, recorder } = this.#parts;
    return {
      provider,
      onSideRequest: this.#sideRequests.onSideRequest,
      ...(state.lastRequest ?? {
        settings: defaultRequestSettings(
          config,
          state.model,
          toolDefinitions([...tools.values()]),
          capabilitiesWithout(provider.capabilities, state.featuresOff),
          state.featuresOff,
        ),
        latches: state.latches,
        pins: pinsFromEntries(recorder.timeline.entries),
      }),
    };
  }

  /** After each turn: the ctx-agent stages collapsible spans; session memory refreshes. Both are forked requests. */
  #installHooks(sessionMemory: boolean): void {
    const { config, state, finisher, recorder } = this.#parts;
    const settings = config.compaction;
    if (settings.collapse) {
      finisher.add(async ({ entries }) => {
        if (state.lastRequest === undefined) return;
        const snapshot = await this.#withSideRequests(
          stageCollapses({
            entries,
            settings,
            fork: createForkRunner(this.#forkParent()),
            model: state.model,
            contextWindow: modelLimits(state.model, config.modelOverrides).contextWindow,
            compactableTools: compactableToolNames(this.#parts.tools),
            sessionId: this.#parts.sessionId,
            now: this.#parts.now(),
          }),
        );
        if (snapshot === undefined) return;
        recorder.append(snapshot);
        await recorder.flush();
      });
    }
    if (!sessionMemory || !settings.autocompact) return;
    const path = recorder.transcript.path?.replace(/\.jsonl$/, ".memory.md");
    const memory = new SessionMemory(path !== undefined ? { path } : {});
    this.#sessionMemory = memory;
    this.#parts.autoCompact.sessionMemory = () => memory.snapshot();
    finisher.add(async ({ entries }) => {
      if (state.lastRequest === undefined) return;
      const view = projectApiView(entries, settings);
      if (!memory.due(entries, view)) return;
      const limits = modelLimits(state.model, config.modelOverrides);
      await this.#withSideRequests(
        memory.update(
          entries,
          view,
          createForkRunner(this.#forkParent()),
          effectiveContextWindow(state.model, limits.contextWindow),
        ),
      );
      await recorder.flush();
    });
  }

  /** `work`, then the records of the side requests it made (also when it fails: they were billed). */
  async #withSideRequests<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } finally {
      this.#recordSideRequests();
    }
  }
}
