/**
 * QueryEngine: the library entry point. `submitMessage` records the person's message (timeline and
 * transcript, flushed) before the model is called, runs the query loop, and finishes in the background.
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { CacheBreakDetector } from "../cache/index.js";
import {
  type AutoCompactSession,
  type CompactionSettings,
  compactConversation,
  compactionSettingsFromEnv,
  createSnipTool,
  effectiveContextWindow,
  newAutoCompactSession,
  projectApiView,
  RecordChain,
  stageCollapses,
  tokenCountWithEstimation,
} from "../compaction/index.js";
import type { EngineEvent } from "../loop/events.js";
import { emptyUsage, type TurnUsage } from "../loop/events.js";
import {
  compactableToolNames,
  defaultRequestSettings,
  type LoopConfig,
  type LoopState,
  pinsFromEntries,
  query,
} from "../loop/query.js";
import { restoreFileReader } from "../loop/restore-file.js";
import { capabilitiesWithout } from "../loop/self-heal.js";
import { SideRequestLog } from "../loop/side-requests.js";
import { TurnRecorder } from "../loop/turn-recorder.js";
import {
  createUserEntry,
  DEFAULT_MODEL,
  type ModelLimits,
  modelLimits,
  type TimelineEntry,
  type UserContentBlock,
} from "../messages/index.js";
import { createProvider, type PlatformName } from "../provider/index.js";
import type { Provider } from "../provider/types.js";
import {
  announcedFeaturesFromEntries,
  emptyLatches,
  latchesFromEntries,
  NormalizeMemo,
  serverFeaturesFromEntries,
  toolDefinitions,
} from "../request/index.js";
import { Timeline } from "../timeline/index.js";
import { defaultTools } from "../tools/index.js";
import type { PermissionPolicy } from "../tools/permissions.js";
import type { SecretEnvSettings } from "../tools/secret-env.js";
import { createToolRuntime, type SandboxStatus } from "../tools/tool-runtime.js";
import type { AnyTool, ToolRuntime } from "../tools/types.js";
import {
  cwdSlug,
  JsonlTranscriptStore,
  MemoryTranscriptStore,
  parseStoreUrl,
  projectKeyDir,
  resumeConversation,
  resumeSession,
  THREADLINE_STORE_ENV,
  TRANSCRIPT_EXTENSION,
  type TranscriptStore,
  transcriptPath,
} from "../transcript/index.js";
import { DeferredTranscriptStore } from "./deferred-transcript.js";
import { BackgroundFinisher, type BackgroundHook } from "./finalize.js";
import { createForkRunner } from "./forked-agent.js";
import { newPostgresTranscript, resumePostgresSession } from "./postgres-session.js";
import { SessionMemory } from "./session-memory.js";
import { sessionAgentTools } from "./subagent-tools.js";
import type { SubagentType } from "./subagent-types.js";
import { buildSystemPrompt } from "./system-prompt.js";

export interface QueryEngineOptions {
  /** Workspace root; tools are confined to it. Default `process.cwd()`. */
  cwd?: string;
  /** Default: `createProvider` for `platform`, configured from the environment. */
  provider?: Provider;
  /** Platform of the default provider (ignored when `provider` is given). Default: `THREADLINE_USE_BEDROCK` / `THREADLINE_USE_VERTEX`, else "anthropic". */
  platform?: PlatformName;
  /** Default `ANTHROPIC_MODEL`, else `DEFAULT_MODEL`. */
  model?: string;
  /** Model to switch to after repeated overloads (default none). */
  fallbackModel?: string;
  /** Default: Read, Write, Edit, Bash, Grep, Glob, plus Snip when snip is on. */
  tools?: AnyTool[];
  /** Subagent types the Agent tool offers; `false` leaves Agent out. Default DEFAULT_SUBAGENT_TYPES unless `tools` is given. */
  agents?: readonly SubagentType[] | false;
  /** Offer the REPL tool (primitive calls recorded as virtual pairs). Default true unless `tools` is given. */
  repl?: boolean;
  /** Default mode "default" with no ask callback (non-read-only tools are denied). */
  permission?: Partial<PermissionPolicy>;
  /**
   * Run Bash (and REPL's Bash) under bubblewrap: workspace writable, the rest read-only, private /tmp, no
   * network. `true` asks for it, `false` turns it off. Default: on when `bwrap` works on this machine.
   */
  sandbox?: boolean;
  /** Let sandboxed commands use the network. Default false. */
  sandboxNetwork?: boolean;
  /**
   * Extra secret names kept out of tool processes, and names passed through anyway. Default: from
   * THREADLINE_SECRET_ENV / THREADLINE_PASS_ENV.
   */
  secretEnv?: SecretEnvSettings;
  /** Replaces the default instructions segment. */
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** Default a random UUID. */
  sessionId?: string;
  /** Default: a JSONL file under THREADLINE_HOME; `false` keeps the transcript in memory. */
  transcript?: TranscriptStore | false;
  /** Overrides THREADLINE_HOME for the default transcript location. */
  home?: string;
  /**
   * Transcript store URL: `postgres://…` or `postgresql://…` keeps sessions in PostgreSQL (one writer per
   * session, by lease). Default `$THREADLINE_STORE`; unset means JSONL files. Ignored when `transcript` is given.
   */
  store?: string;
  /** Project key sessions are filed under in a database store. Default the cwd's slug (`cwdSlug(cwd)`). */
  project?: string;
  compaction?: Partial<CompactionSettings>;
  /** Keep a background session-memory summary that autocompact can use without a model call. Default true. */
  sessionMemory?: boolean;
  /** Model requests allowed per turn (default unlimited). */
  maxTurns?: number;
  /** Overrides the model table's context window. */
  contextWindow?: number;
  thinking?: LoopConfig["thinking"];
  maxTokens?: number;
  /** Default "5m". */
  cacheTtl?: "5m" | "1h";
  additionalDirectories?: string[];
  /** Entries to start from (resume). */
  initialEntries?: readonly TimelineEntry[];
  /** Clock, for tests. Default `() => new Date()`. */
  now?: () => Date;
  env?: NodeJS.ProcessEnv;
}

export interface SubmitOptions {
  signal?: AbortSignal;
}

export class QueryEngine {
  readonly sessionId: string;
  readonly timeline: Timeline;
  readonly cwd: string;
  readonly provider: Provider;
  readonly transcript: TranscriptStore;
  readonly config: LoopConfig;
  readonly cacheDetector: CacheBreakDetector;
  /** Whether Bash runs sandboxed, and if not, why. */
  readonly sandbox: SandboxStatus;
  /** The environment, redactor and sandbox every tool process of this session uses. */
  readonly toolRuntime: ToolRuntime;
  /** Usage summed over the whole session. */
  readonly totals: TurnUsage = emptyUsage();
  readonly #tools: Map<string, AnyTool>;
  readonly #policy: PermissionPolicy;
  readonly #options: QueryEngineOptions;
  readonly #finisher: BackgroundFinisher;
  readonly #state: LoopState;
  readonly #autoCompact: AutoCompactSession = newAutoCompactSession();
  /** Writes the entries made outside the loop (the person's message, /compact, background records). */
  readonly #recorder: TurnRecorder;
  #sessionMemory: SessionMemory | undefined;
  #controller: AbortController | undefined;
  #turns = 0;

  constructor(options: QueryEngineOptions = {}) {
    const env = options.env ?? process.env;
    this.#options = options;
    this.cwd = options.cwd ?? process.cwd();
    this.cacheDetector = new CacheBreakDetector(options.now ? { now: () => options.now!().getTime() } : {});
    this.sessionId = options.sessionId ?? randomUUID();
    this.timeline = new Timeline(options.initialEntries ?? []);
    this.provider =
      options.provider ??
      createProvider({
        env,
        ...(options.platform !== undefined ? { platform: options.platform } : {}),
        ...(options.fallbackModel !== undefined ? { fallbackModel: options.fallbackModel } : {}),
      });
    this.transcript =
      options.transcript === false
        ? new MemoryTranscriptStore()
        : (options.transcript ?? defaultTranscript(this.sessionId, this.cwd, options, env));
    this.#recorder = new TurnRecorder(this.sessionId, this.timeline, this.transcript, this.#now);
    const compaction = compactionSettingsFromEnv(env, options.compaction ?? {});
    const model = options.model ?? env.ANTHROPIC_MODEL ?? DEFAULT_MODEL;
    const modelOverrides: Partial<ModelLimits> | undefined =
      options.contextWindow !== undefined ? { contextWindow: options.contextWindow } : undefined;
    this.config = {
      model,
      systemPrompt: buildSystemPrompt({
        cwd: this.cwd,
        ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
        ...(options.appendSystemPrompt !== undefined ? { appendSystemPrompt: options.appendSystemPrompt } : {}),
        ...(options.now ? { date: options.now() } : {}),
      }),
      compaction,
      ...(options.fallbackModel !== undefined ? { fallbackModel: options.fallbackModel } : {}),
      ...(options.maxTurns !== undefined ? { maxTurns: options.maxTurns } : {}),
      ...(options.thinking !== undefined ? { thinking: options.thinking } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.cacheTtl !== undefined ? { cacheTtl: options.cacheTtl } : {}),
      ...(modelOverrides ? { modelOverrides } : {}),
    };
    const tools = options.tools ?? [...defaultTools(), ...(compaction.snip ? [createSnipTool()] : [])];
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]));
    this.#policy = { mode: "default", allow: [], deny: [], ...options.permission };
    const { runtime, sandbox } = createToolRuntime({
      env,
      ...(options.secretEnv !== undefined ? { secretEnv: options.secretEnv } : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      ...(options.sandboxNetwork !== undefined ? { sandboxNetwork: options.sandboxNetwork } : {}),
    });
    this.toolRuntime = runtime;
    this.sandbox = sandbox;
    const agentTools = sessionAgentTools({
      baseTools: tools,
      explicitTools: options.tools !== undefined,
      agents: options.agents,
      repl: options.repl,
      environment: {
        sessionId: this.sessionId,
        cwd: this.cwd,
        additionalDirectories: options.additionalDirectories ?? [],
        provider: this.provider,
        tools: () => [...this.#tools.values()],
        policy: this.#policy,
        toolRuntime: this.toolRuntime,
        config: this.config,
        model: () => this.#state.model,
        parentTranscriptPath: this.transcript.path,
        now: this.#now,
      },
    });
    for (const tool of agentTools) if (!this.#tools.has(tool.name)) this.#tools.set(tool.name, tool);
    // Announcements recorded by an earlier run of this session hold again, so the resumed requests match.
    const features = announcedFeaturesFromEntries(this.timeline.entries);
    if (features.length > 0) this.provider.adoptFeatures?.(features);
    this.#state = {
      latches: latchesFromEntries(this.timeline.entries) ?? emptyLatches(),
      features,
      featuresOff: serverFeaturesFromEntries(this.timeline.entries),
      model,
      normalizeMemo: new NormalizeMemo(),
    };
    this.#finisher = new BackgroundFinisher((error) => this.#note(`Background task failed: ${String(error)}`));
    this.#installCompactionHooks(options.sessionMemory ?? true);
  }

  /** Resume a saved session by id (or transcript path); reports what the loader had to skip. */
  static async resume(
    sessionIdOrPath: string,
    options: QueryEngineOptions = {},
  ): Promise<{ engine: QueryEngine; problems: string[] }> {
    const cwd = options.cwd ?? process.cwd();
    const location = parseStoreUrl(options.store ?? (options.env ?? process.env)[THREADLINE_STORE_ENV]);
    if (location.kind === "postgres" && options.transcript === undefined) {
      const { store, loaded } = await resumePostgresSession(location.url, sessionIdOrPath);
      const resumed = resumeConversation(loaded.entries);
      const engine = new QueryEngine({
        ...options,
        cwd,
        sessionId: loaded.header.sessionId,
        initialEntries: resumed.entries,
        transcript: store,
      });
      engine.cacheDetector.expectDrop("resume");
      return { engine, problems: loaded.problems.map((problem) => `entry ${problem.line - 1}: ${problem.reason}`) };
    }
    const resumed = await resumeSession(sessionIdOrPath, {
      cwd,
      ...(options.home !== undefined ? { home: options.home } : {}),
    });
    const engine = new QueryEngine({
      ...options,
      cwd,
      sessionId: resumed.header.sessionId,
      initialEntries: resumed.entries,
      transcript: options.transcript ?? openJsonl(resumed.header.sessionId, cwd, resumed.path),
    });
    engine.cacheDetector.expectDrop("resume");
    return { engine, problems: resumed.problems.map((problem) => `line ${problem.line}: ${problem.reason}`) };
  }

  /** Path of the JSONL transcript, when on disk. */
  get transcriptPath(): string | undefined {
    return this.transcript.path;
  }

  get model(): string {
    return this.#state.model;
  }

  get tools(): readonly AnyTool[] {
    return [...this.#tools.values()];
  }

  /** Add a task to run after each turn (collapse ctx-agent, session memory, metrics). */
  addBackgroundHook(hook: BackgroundHook): void {
    this.#finisher.add(hook);
  }

  /** Interrupt the running turn (tools are cancelled; the transcript stays resumable). */
  interrupt(): void {
    this.#controller?.abort();
  }

  /** Submit a user message and iterate the turn's events; the last event is `turn_end`. */
  async *submitMessage(input: string | UserContentBlock[], options: SubmitOptions = {}): AsyncGenerator<EngineEvent> {
    // Background hooks of the previous turn (ctx-agent, session memory) are not waited for: see finalize.ts.
    const controller = new AbortController();
    this.#controller = controller;
    const relay = () => controller.abort();
    options.signal?.addEventListener("abort", relay, { once: true });
    try {
      const user = createUserEntry(this.#recorder.context(), input);
      this.#recorder.append(user);
      await this.#recorder.flush();
      yield { type: "user", entry: user };
      this.#turns++;
      const turn = query({
        sessionId: this.sessionId,
        timeline: this.timeline,
        transcript: this.transcript,
        provider: this.provider,
        tools: this.#tools,
        toolDefinitions: toolDefinitions([...this.#tools.values()]),
        policy: this.#policy,
        toolRuntime: this.toolRuntime,
        cwd: this.cwd,
        additionalDirectories: this.#options.additionalDirectories ?? [],
        config: this.config,
        state: this.#state,
        cacheDetector: this.cacheDetector,
        now: this.#now,
        signal: controller.signal,
        forkFactory: createForkRunner,
        autoCompact: this.#autoCompact,
      });
      for await (const event of turn) {
        if (event.type === "turn_end") this.#addTotals(event.usage);
        yield event;
      }
    } finally {
      options.signal?.removeEventListener("abort", relay);
      this.#controller = undefined;
      await this.transcript.flush();
      this.#finisher.start(() => ({
        sessionId: this.sessionId,
        entries: this.timeline.entries.slice(),
        usage: this.totals,
      }));
    }
  }

  /** Resolves when the background work of earlier turns (ctx-agent, session memory, added hooks) is done. */
  async idle(): Promise<void> {
    await this.#finisher.idle();
  }

  /** Number of turns submitted in this process. */
  get turnCount(): number {
    return this.#turns;
  }

  /**
   * Compact now (the CLI's /compact): summarise the conversation with optional extra `instructions`, append
   * the boundary, summary and recent rounds, and reset the header latches. Throws when the summary fails.
   */
  async compact(instructions?: string): Promise<{ preTokens: number; postTokens: number }> {
    await this.#finisher.idle();
    const view = projectApiView(this.timeline.entries, this.config.compaction);
    const preTokens = tokenCountWithEstimation(view);
    const chain = new RecordChain(this.sessionId, this.timeline.lastMessage?.uuid ?? null, this.#now());
    const limits = modelLimits(this.#state.model, this.config.modelOverrides);
    const outcome = await this.#withSideRequests(
      compactConversation(
        {
          entries: this.timeline.entries,
          now: this.#now(),
          settings: this.config.compaction,
          capabilities: capabilitiesWithout(this.provider.capabilities, this.#state.featuresOff),
          model: this.#state.model,
          contextWindow: limits.contextWindow,
          sessionId: this.sessionId,
          parentUuid: chain.context().parentUuid,
          compactableTools: compactableToolNames(this.#tools),
          fork: createForkRunner(this.#forkParent()),
          autoCompact: this.#autoCompact,
          ...restoreFileOption(
            restoreFileReader(
              this.#tools,
              this.cwd,
              this.#options.additionalDirectories ?? [],
              new AbortController().signal,
            ),
          ),
        },
        view,
        chain,
        { trigger: "manual", preTokens, ...(instructions !== undefined ? { instructions } : {}) },
      ),
    );
    this.#recorder.appendAll(chain.records);
    this.#state.latches = emptyLatches();
    this.#autoCompact.consecutiveFailures = 0;
    await this.transcript.flush();
    return { preTokens, postTokens: outcome.tokens };
  }

  /** Wait for background work, flush and close the transcript. */
  async close(): Promise<void> {
    await this.#finisher.idle();
    await this.transcript.close();
  }

  /** Bills of side requests made outside a turn (/compact, ctx-agent, session memory). */
  readonly #sideRequests = new SideRequestLog();

  /** Appends the records of side requests answered since the last call and adds them to the totals. */
  #recordSideRequests(): void {
    this.#recorder.appendAll(
      this.#sideRequests.drain(this.sessionId, this.#now(), this.totals, this.config.modelOverrides),
    );
  }

  #forkParent() {
    return {
      provider: this.provider,
      onSideRequest: this.#sideRequests.onSideRequest,
      ...(this.#state.lastRequest ?? {
        settings: defaultRequestSettings(
          this.config,
          this.#state.model,
          toolDefinitions([...this.#tools.values()]),
          capabilitiesWithout(this.provider.capabilities, this.#state.featuresOff),
          this.#state.featuresOff,
        ),
        latches: this.#state.latches,
        pins: pinsFromEntries(this.timeline.entries),
      }),
    };
  }

  /** After each turn: the ctx-agent stages collapsible spans; session memory refreshes. Both are forked requests. */
  #installCompactionHooks(sessionMemory: boolean): void {
    const settings = this.config.compaction;
    if (settings.collapse) {
      this.#finisher.add(async ({ entries }) => {
        if (this.#state.lastRequest === undefined) return;
        const snapshot = await this.#withSideRequests(
          stageCollapses({
            entries,
            settings,
            fork: createForkRunner(this.#forkParent()),
            model: this.#state.model,
            contextWindow: modelLimits(this.#state.model, this.config.modelOverrides).contextWindow,
            compactableTools: compactableToolNames(this.#tools),
            sessionId: this.sessionId,
            now: this.#now(),
          }),
        );
        if (snapshot === undefined) return;
        this.#recorder.append(snapshot);
        await this.#recorder.flush();
      });
    }
    if (!sessionMemory || !settings.autocompact) return;
    const path = this.transcript.path?.replace(/\.jsonl$/, ".memory.md");
    const memory = new SessionMemory(path !== undefined ? { path } : {});
    this.#sessionMemory = memory;
    this.#autoCompact.sessionMemory = () => memory.snapshot();
    this.#finisher.add(async ({ entries }) => {
      if (this.#state.lastRequest === undefined) return;
      const view = projectApiView(entries, settings);
      if (!memory.due(entries, view)) return;
      const limits = modelLimits(this.#state.model, this.config.modelOverrides);
      await this.#withSideRequests(
        memory.update(
          entries,
          view,
          createForkRunner(this.#forkParent()),
          effectiveContextWindow(this.#state.model, limits.contextWindow),
        ),
      );
      await this.transcript.flush();
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

  /** The session memory kept for autocompact, when on. */
  get sessionMemory(): SessionMemory | undefined {
    return this.#sessionMemory;
  }

  readonly #now = (): Date => (this.#options.now ? this.#options.now() : new Date());

  #note(message: string): void {
    this.#recorder.notice("warning", message);
  }

  #addTotals(usage: TurnUsage): void {
    this.totals.inputTokens += usage.inputTokens;
    this.totals.outputTokens += usage.outputTokens;
    this.totals.cacheReadInputTokens += usage.cacheReadInputTokens;
    this.totals.cacheCreationInputTokens += usage.cacheCreationInputTokens;
    this.totals.requests += usage.requests;
    this.totals.costUsd += usage.costUsd;
  }
}

/** The store `options.store` (else `$THREADLINE_STORE`) names: PostgreSQL, or the JSONL file under home. */
function defaultTranscript(
  sessionId: string,
  cwd: string,
  options: QueryEngineOptions,
  env: NodeJS.ProcessEnv,
): TranscriptStore {
  const location = parseStoreUrl(options.store ?? env[THREADLINE_STORE_ENV]);
  switch (location.kind) {
    case "postgres":
      return newPostgresTranscript(location.url, { sessionId, cwd, project: options.project ?? cwdSlug(cwd) });
    case "jsonl": {
      const path =
        options.project === undefined
          ? transcriptPath(sessionId, cwd, options.home)
          : join(projectKeyDir(options.project, options.home), `${sessionId}${TRANSCRIPT_EXTENSION}`);
      return openJsonl(sessionId, cwd, path);
    }
    default: {
      const never: never = location;
      throw new Error(`unknown store ${String(never)}`);
    }
  }
}

function openJsonl(sessionId: string, cwd: string, path: string): TranscriptStore {
  return new DeferredTranscriptStore(path, () => JsonlTranscriptStore.open({ sessionId, cwd, path }));
}

function restoreFileOption(reader: ((path: string) => Promise<string | undefined>) | undefined): {
  restoreFile?: (path: string) => Promise<string | undefined>;
} {
  return reader ? { restoreFile: reader } : {};
}
