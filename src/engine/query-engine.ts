/**
 * QueryEngine: the library entry point. `submitMessage` records the person's message (timeline and
 * transcript, flushed) before the model is called, runs the query loop, and finishes in the background.
 * Where the transcript lives is `session-store.ts`; compaction outside a turn is `session-compaction.ts`.
 */
import { randomUUID } from "node:crypto";
import { CacheBreakDetector } from "../cache/index.js";
import {
  type AutoCompactSession,
  compactionSettingsFromEnv,
  createSnipTool,
  newAutoCompactSession,
} from "../compaction/index.js";
import { HookRunner, hookContextEntries } from "../hooks/index.js";
import type { EngineEvent } from "../loop/events.js";
import { type LoopConfig, type LoopState, query } from "../loop/query.js";
import { TurnRecorder } from "../loop/turn-recorder.js";
import { foundSinceBoundary, loadedToolNames, requestTools } from "../mcp/index.js";
import { attachmentExtra, createSkillTool, loadSkills, MEMORY_ATTACHMENT_TYPE } from "../memory/index.js";
import {
  addUsage,
  contentText,
  createAttachmentEntry,
  createUserEntry,
  DEFAULT_MODEL,
  emptyUsage,
  type ModelLimits,
  type TimelineEntry,
  type TurnUsage,
  type UserContentBlock,
} from "../messages/index.js";
import type { Provider } from "../provider/index.js";
import { createProvider } from "../provider/index.js";
import {
  announcedFeaturesFromEntries,
  emptyLatches,
  latchesFromEntries,
  NormalizeMemo,
  serverFeaturesFromEntries,
  type ToolDefinition,
  toolDefinitions,
} from "../request/index.js";
import { Timeline } from "../timeline/index.js";
import type { AnyTool, PermissionPolicy, ToolRuntime } from "../tools/index.js";
import { createToolRuntime, defaultTools, type SandboxStatus } from "../tools/index.js";
import { MemoryTranscriptStore, type TranscriptStore } from "../transcript/index.js";
import type { QueryEngineOptions, SubmitOptions } from "./engine-options.js";
import { BackgroundFinisher, type BackgroundHook } from "./finalize.js";
import { createForkRunner } from "./forked-agent.js";
import { type MemorySession, memoryFilesEnabled, memorySessionFor, userPlaces } from "./memory-setup.js";
import { SessionCompaction } from "./session-compaction.js";
import type { SessionMemory } from "./session-memory.js";
import { defaultTranscript, loadResumedSession } from "./session-store.js";
import { sessionAgentTools } from "./subagent-tools.js";
import { buildSystemPrompt } from "./system-prompt.js";
import { ToolRegistry } from "./tool-registry.js";

export type { QueryEngineOptions, SubmitOptions } from "./engine-options.js";

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
  readonly #tools: ToolRegistry;
  readonly #policy: PermissionPolicy;
  readonly #options: QueryEngineOptions;
  readonly #finisher: BackgroundFinisher;
  readonly #state: LoopState;
  readonly #autoCompact: AutoCompactSession = newAutoCompactSession();
  /** Writes the entries made outside the loop (the person's message, /compact, background records). */
  readonly #recorder: TurnRecorder;
  readonly #compaction: SessionCompaction;
  /** Command hooks from settings; undefined when none are configured. */
  readonly #hooks: HookRunner | undefined;
  /** Whether SessionStart hooks have run in this process (they run before the first prompt). */
  #sessionStarted = false;
  /** The session's memory files; undefined when they are off. */
  readonly memory: MemorySession | undefined;
  #controller: AbortController | undefined;
  #turns = 0;
  /** Whether the Skill tool is still to be looked for (once, before the process's first message). */
  #skillsPending: boolean;

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
      ...(options.serverCompaction !== undefined ? { serverCompaction: options.serverCompaction } : {}),
      ...(modelOverrides ? { modelOverrides } : {}),
    };
    const tools = options.tools ?? [...defaultTools(), ...(compaction.snip ? [createSnipTool()] : [])];
    this.#tools = new ToolRegistry(tools, () => this.#options.extraTools?.() ?? []);
    this.#policy = { mode: "default", allow: [], deny: [], ...options.permission };
    const { runtime, sandbox } = createToolRuntime({
      env,
      ...(options.secretEnv !== undefined ? { secretEnv: options.secretEnv } : {}),
      ...(options.toolEnv !== undefined ? { extraEnv: options.toolEnv } : {}),
      ...(options.sandbox !== undefined ? { sandbox: options.sandbox } : {}),
      ...(options.sandboxNetwork !== undefined ? { sandboxNetwork: options.sandboxNetwork } : {}),
    });
    this.toolRuntime = runtime;
    this.sandbox = sandbox;
    this.#hooks = this.#hookRunner(options, runtime);
    const hooks = this.#hooks;
    const ask = this.#policy.ask;
    if (hooks?.has("Notification") === true && ask !== undefined) {
      // Notification hooks hear of every permission question as it is asked (not waited for).
      this.#policy.ask = (request) => {
        void hooks
          .run(
            "Notification",
            {
              message: `threadline needs your permission to use ${request.summary}`,
              notification_type: "permission_prompt",
            },
            "permission_prompt",
          )
          .then((outcome) => {
            for (const notice of outcome.notices) this.#note(notice);
          });
        return ask(request);
      };
    }
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
        ...(this.#hooks ? { hooks: this.#hooks } : {}),
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
    this.memory = memoryFilesEnabled(options.memoryFiles, env)
      ? memorySessionFor(this.cwd, options.additionalDirectories ?? [], options.home, env)
      : undefined;
    this.#skillsPending = options.skills ?? (this.memory !== undefined && options.tools === undefined);
    this.#finisher = new BackgroundFinisher((error) => this.#note(`Background task failed: ${String(error)}`));
    this.#compaction = new SessionCompaction(
      {
        sessionId: this.sessionId,
        recorder: this.#recorder,
        provider: this.provider,
        config: this.config,
        state: this.#state,
        tools: this.#tools,
        cwd: this.cwd,
        additionalDirectories: options.additionalDirectories ?? [],
        now: this.#now,
        totals: this.totals,
        autoCompact: this.#autoCompact,
        finisher: this.#finisher,
        ...(this.#hooks ? { hooks: this.#hooks } : {}),
      },
      options.sessionMemory ?? true,
    );
  }

  /** Resume a saved session by id (or transcript path); reports what the loader had to skip. */
  static async resume(
    sessionIdOrPath: string,
    options: QueryEngineOptions = {},
  ): Promise<{ engine: QueryEngine; problems: string[] }> {
    const cwd = options.cwd ?? process.cwd();
    const resumed = await loadResumedSession(sessionIdOrPath, options, cwd);
    const engine = new QueryEngine({
      ...options,
      cwd,
      sessionId: resumed.sessionId,
      initialEntries: resumed.entries,
      transcript: resumed.transcript,
    });
    engine.cacheDetector.expectDrop("resume");
    return { engine, problems: resumed.problems };
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

  /**
   * The tools block of the next request: every tool but the deferred ones ToolSearch has not loaded before the
   * latest compaction (a pure function of the timeline). Tools from `extraTools` that appeared since the last
   * turn are added first.
   */
  requestToolDefinitions(): ToolDefinition[] {
    this.#tools.addExtraTools();
    const tools = [...this.#tools.values()];
    if (!tools.some((tool) => tool.deferLoading === true)) return toolDefinitions(tools);
    // Where the server declares tool changes, found tools are offered in tool-change messages instead, and
    // join the tools block only at the next compaction (when the prefix is rewritten anyway).
    const moment =
      this.provider.capabilities.toolChanges === true ? "next-compaction" : this.#options.deferredToolLoading;
    const loaded = loadedToolNames(this.timeline.entries, moment);
    return toolDefinitions(requestTools(tools, loaded));
  }

  /** Definitions of the deferred tools ToolSearch found since the latest compaction (see loop/tool-arrivals.ts). */
  #lateToolDefinitions(entries: readonly TimelineEntry[]): ToolDefinition[] {
    const found = foundSinceBoundary(entries);
    if (found.size === 0) return [];
    return toolDefinitions(
      [...this.#tools.values()].filter((tool) => tool.deferLoading === true && found.has(tool.name)),
    );
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
      yield* this.#startMemory();
      yield* this.#startSkills();
      yield* this.#startSession();
      const prompt = yield* this.#promptHooks(input, controller.signal);
      if (prompt.blocked !== undefined) {
        yield { type: "turn_start", model: this.#state.model };
        yield {
          type: "turn_end",
          reason: "hook_blocked",
          usage: emptyUsage(),
          iterations: 0,
          error: `UserPromptSubmit hook blocked the prompt: ${prompt.blocked}`,
          lastText: "",
        };
        return;
      }
      const user = createUserEntry(this.#recorder.context(), input);
      this.#recorder.append(user);
      // Recorded right after the prompt; the normalizer's reorder rule puts it ahead of the prompt's text.
      const context = hookContextEntries(this.#recorder.context(), "UserPromptSubmit", prompt.context);
      this.#recorder.appendAll(context);
      await this.#recorder.flush();
      yield { type: "user", entry: user };
      for (const entry of context) yield { type: "entry", entry };
      this.#turns++;
      const turn = query({
        sessionId: this.sessionId,
        timeline: this.timeline,
        transcript: this.transcript,
        provider: this.provider,
        tools: this.#tools,
        toolDefinitions: this.requestToolDefinitions(),
        lateToolDefinitions: (entries) => this.#lateToolDefinitions(entries),
        policy: options.allowedTools?.length
          ? { ...this.#policy, allow: [...this.#policy.allow, ...options.allowedTools] }
          : this.#policy,
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
        ...(this.#hooks ? { hooks: this.#hooks } : {}),
        ...(this.memory ? { memory: this.memory } : {}),
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
    return this.#compaction.compact(instructions);
  }

  /**
   * Wait for background work, run the SessionEnd hooks (with `reason`, Claude Code's: "clear", "logout",
   * "prompt_input_exit" or "other"; default "other"), flush and close the transcript.
   */
  async close(reason = "other"): Promise<void> {
    await this.#finisher.idle();
    if (this.#hooks?.has("SessionEnd") === true) {
      const outcome = await this.#hooks.run("SessionEnd", { reason }, reason);
      for (const notice of outcome.notices) this.#note(notice);
    }
    await this.transcript.close();
  }

  /** The hook runner for the configured hooks: tools' environment (secrets removed), their redactor. */
  #hookRunner(options: QueryEngineOptions, runtime: ToolRuntime): HookRunner | undefined {
    const hooks = options.hooks;
    if (hooks === undefined || Object.values(hooks).every((groups) => groups === undefined || groups.length === 0))
      return undefined;
    return new HookRunner({
      hooks,
      projectDir: this.cwd,
      env: runtime.secrets.toolEnv,
      sessionId: this.sessionId,
      transcriptPath: () => this.transcript.path,
      permissionMode: () => this.#policy.mode,
      redact: (text) => runtime.secrets.redact(text),
      ...(options.hookTimeoutMs !== undefined ? { timeoutMs: options.hookTimeoutMs } : {}),
    });
  }

  /**
   * SessionStart hooks, once, before the first prompt: source "resume" for a session that had entries, else
   * the option's (default "startup"). What they print is recorded as attachments, so a resume resends it.
   */
  async *#startSession(): AsyncGenerator<EngineEvent> {
    if (this.#sessionStarted) return;
    this.#sessionStarted = true;
    if (this.#hooks?.has("SessionStart") !== true) return;
    const resumed = (this.#options.initialEntries?.length ?? 0) > 0;
    const source = resumed ? "resume" : (this.#options.sessionStartSource ?? "startup");
    const outcome = await this.#hooks.run("SessionStart", { source }, source);
    const entries = hookContextEntries(this.#recorder.context(), "SessionStart", outcome.context);
    this.#recorder.appendAll(entries);
    for (const entry of entries) yield { type: "entry", entry };
    for (const notice of outcome.notices) yield this.#recorder.notice("warning", notice);
  }

  /** UserPromptSubmit hooks: the context they add, or why they blocked the prompt. */
  async *#promptHooks(
    input: string | UserContentBlock[],
    signal: AbortSignal,
  ): AsyncGenerator<EngineEvent, { context: string[]; blocked?: string }> {
    if (this.#hooks?.has("UserPromptSubmit") !== true) return { context: [] };
    const prompt = typeof input === "string" ? input : contentText(input);
    const outcome = await this.#hooks.run("UserPromptSubmit", { prompt }, undefined, signal);
    for (const notice of outcome.notices) yield this.#recorder.notice("warning", notice);
    const blocked = outcome.block ?? outcome.stop;
    return blocked !== undefined ? { context: [], blocked } : { context: outcome.context };
  }

  /** The session memory kept for autocompact, when on. */
  get sessionMemory(): SessionMemory | undefined {
    return this.#compaction.sessionMemory;
  }

  /**
   * The memory files known at session start, recorded once before the session's first message so they sit at
   * one fixed place in the first request; a resumed session already holds them and reads nothing.
   */
  async *#startMemory(): AsyncGenerator<EngineEvent> {
    if (this.memory === undefined) return;
    const found = await this.memory.start(this.timeline.entries);
    for (const line of found.notices) yield this.#recorder.notice("warning", line);
    if (found.attachment === undefined) return;
    const entry = createAttachmentEntry(
      this.#recorder.context(),
      MEMORY_ATTACHMENT_TYPE,
      found.attachment.content,
      attachmentExtra(found.attachment),
    );
    this.#recorder.append(entry);
    yield { type: "entry", entry };
  }

  /** The Skill tool, appended last to the tools (the tools block is fixed from the first request on). */
  async *#startSkills(): AsyncGenerator<EngineEvent> {
    if (!this.#skillsPending) return;
    this.#skillsPending = false;
    const found = await loadSkills(userPlaces(this.cwd, this.#options.home, this.#options.env ?? process.env));
    for (const line of found.notices) yield this.#recorder.notice("warning", line);
    const tool = createSkillTool(found.skills);
    if (tool !== undefined && !this.#tools.has(tool.name)) this.#tools.set(tool.name, tool as AnyTool);
  }

  readonly #now = (): Date => (this.#options.now ? this.#options.now() : new Date());

  #note(message: string): void {
    this.#recorder.notice("warning", message);
  }

  #addTotals(usage: TurnUsage): void {
    addUsage(this.totals, usage);
  }
}
