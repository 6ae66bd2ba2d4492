/**
 * QueryEngine: the library entry point. `submitMessage` records the person's message (timeline and
 * transcript, flushed) before the model is called, runs the query loop, and finishes in the background.
 * Where the transcript lives is the session manager's (sessions/); compaction outside a turn is
 * `session-compaction.ts`; the setup steps that are plain functions of the options are `engine-setup.ts`.
 */
import { randomUUID } from "node:crypto";
import { CacheBreakDetector } from "../cache/index.js";
import { type Checkpoints, withCheckpoints } from "../checkpoints/index.js";
import { type AutoCompactSession, compactionSettingsFromEnv, newAutoCompactSession } from "../compaction/index.js";
import type { HookRunner } from "../hooks/index.js";
import type { EngineEvent } from "../loop/events.js";
import { type LoopConfig, type LoopState, type QueryContext, query } from "../loop/query.js";
import { TurnRecorder } from "../loop/turn-recorder.js";
import { addUsage, createUserEntry, emptyUsage, type TurnUsage, type UserContentBlock } from "../messages/index.js";
import { createProvider, type Provider } from "../provider/index.js";
import type { ToolDefinition } from "../request/index.js";
import { type OpenedSession, SessionManager } from "../sessions/index.js";
import { accountSession, type SessionAccount, Timeline } from "../timeline/index.js";
import type { AnyTool, PermissionPolicy, ToolRuntime } from "../tools/index.js";
import { type CreatedToolRuntime, createToolRuntime, type SandboxStatus, WorktreeSession } from "../tools/index.js";
import { MemoryTranscriptStore, type TranscriptStore } from "../transcript/index.js";
import type { CompactionNotes } from "./compaction-notes.js";
import { SessionEffort } from "./effort-support.js";
import type { QueryEngineOptions, SubmitOptions } from "./engine-options.js";
import { loopConfigFor, pauseOptions, providerOptions, startingLoopState, toolRuntimeOptions } from "./engine-setup.js";
import { mentionAttachments } from "./file-mentions.js";
import { BackgroundFinisher, type BackgroundHook } from "./finalize.js";
import { createForkRunner } from "./forked-agent.js";
import { addSkillTool, type MemoryFiles, memoryFilesForSession, recordStartingMemory } from "./memory-setup.js";
import { applyTurnTtls, type PauseKeeper, sessionPauseKeeper } from "./pause-keeper.js";
import { planModeControl } from "./plan-mode.js";
import { checkpointsFor, type RewindMode, type RewindOutcome, rewindSession } from "./rewind.js";
import { SessionCompaction } from "./session-compaction.js";
import { blockedTurn, hookRunnerFor, notifyingAsk, runPromptHooks, runSessionStart } from "./session-hooks.js";
import { sessionTools } from "./session-tools.js";
import { sessionAgentTools, workflowSetting } from "./subagent-tools.js";
import { ToolRegistry } from "./tool-registry.js";
import { turnModel, turnPolicy } from "./turn-options.js";

export type { QueryEngineOptions, SubmitOptions } from "./engine-options.js";

export class QueryEngine {
  readonly sessionId: string;
  readonly timeline: Timeline;
  readonly cwd: string;
  readonly provider: Provider;
  readonly transcript: TranscriptStore;
  readonly config: LoopConfig;
  readonly cacheDetector: CacheBreakDetector;
  readonly #created: CreatedToolRuntime;
  /** The environment, redactor and sandbox every tool process of this session uses. */
  readonly toolRuntime: ToolRuntime;
  /** Usage summed over the whole session. */
  readonly totals: TurnUsage = emptyUsage();
  readonly #tools: ToolRegistry;
  readonly #effort: SessionEffort; // the session-wide effort, checked per model before each turn
  /** The session's permission policy; its `mode` may change mid-session (the terminal's plan approval). */
  readonly permissions: PermissionPolicy;
  readonly #options: QueryEngineOptions;
  readonly #finisher: BackgroundFinisher;
  readonly #state: LoopState;
  readonly #autoCompact: AutoCompactSession = newAutoCompactSession();
  /** Writes the entries made outside the loop (the person's message, /compact, background records). */
  readonly #recorder: TurnRecorder;
  readonly #compaction: SessionCompaction;
  readonly #pauses: PauseKeeper; // pays for the person's pauses: each turn's TTL, keep-warm when interactive
  readonly #hooks: HookRunner | undefined; // command hooks from settings; undefined when none are configured
  #promptId: string | undefined; // the prompt being worked on: hooks get it as `prompt_id`
  #sessionStarted = false; // whether SessionStart hooks have run in this process (before the first prompt)
  /** File checkpoints before each prompt, undefined when off (docs/REWIND.md). */
  readonly checkpoints: Checkpoints | undefined;
  /** The session's memory files; undefined when they are off. */
  readonly memoryFiles: MemoryFiles | undefined;
  #controller: AbortController | undefined;
  #turns = 0;
  #skillsPending: boolean; // whether the Skill tool is still to be looked for (once, before the first message)

  /**
   * A session from its options, one named setup step a line: where it is written, how the model is reached,
   * the loop's configuration, the tools and who may run them, hooks, memory files, background work.
   */
  constructor(options: QueryEngineOptions = {}) {
    const env = options.env ?? process.env;
    this.#options = options;
    this.cwd = options.cwd ?? process.cwd();
    this.sessionId = options.sessionId ?? randomUUID();
    this.timeline = new Timeline(options.initialEntries ?? []);
    this.cacheDetector = new CacheBreakDetector(options.now ? { now: () => options.now!().getTime() } : {});
    this.provider = options.provider ?? createProvider(providerOptions(options, env));
    this.transcript = this.#openTranscript(options, env);
    this.#recorder = new TurnRecorder(this.sessionId, this.timeline, this.transcript, this.#now);
    this.#pauses = sessionPauseKeeper(pauseOptions(options), this.provider, this.#recorder);
    const compaction = compactionSettingsFromEnv(env, options.compaction ?? {});
    this.config = loopConfigFor(options, env, this.cwd, compaction);
    const tools = sessionTools(
      options,
      compaction.snip,
      () => [...this.#tools.values()],
      this.provider.capabilities.webSearch,
    );
    this.checkpoints = checkpointsFor(options.fileCheckpointing, this.cwd, this.transcript.path, this.sessionId, env);
    this.#tools = new ToolRegistry(withCheckpoints(tools, this.checkpoints), () => this.#options.extraTools?.() ?? []);
    this.permissions = { mode: "default", allow: [], deny: [], ...options.permission };
    // Not destructured: its `sandbox` is decided when first read (the bubblewrap probe), not here.
    this.#created = createToolRuntime(toolRuntimeOptions(options, env));
    const { runtime } = this.#created;
    const worktree = new WorktreeSession(this.cwd, () => runtime.secrets.toolEnv);
    this.toolRuntime = { ...runtime, planMode: planModeControl(this.permissions), worktree };
    this.#hooks = hookRunnerFor(options, {
      cwd: this.cwd,
      sessionId: this.sessionId,
      runtime,
      transcriptPath: () => this.transcript.path,
      permissionMode: () => this.permissions.mode,
      promptId: () => this.#promptId,
    });
    if (this.#hooks !== undefined && this.permissions.ask !== undefined)
      this.permissions.ask = notifyingAsk(this.permissions.ask, this.#hooks, (notice) => this.#note(notice));
    this.#addAgentTools(tools);
    this.#state = startingLoopState(this.timeline.entries, this.provider, this.config.model);
    this.#effort = new SessionEffort(options.effort, this.provider);
    this.memoryFiles = memoryFilesForSession(options, this.cwd, env);
    this.#skillsPending = options.skills ?? (this.memoryFiles !== undefined && options.tools === undefined);
    this.#finisher = new BackgroundFinisher((error) => this.#note(`Background task failed: ${String(error)}`));
    this.#compaction = this.#sessionCompaction(options);
  }

  /** A session the session manager opened (sessions/): its id, entries and transcript, with these options. */
  static fromSession(session: OpenedSession, options: QueryEngineOptions = {}): QueryEngine {
    const engine = new QueryEngine({
      ...options,
      sessionId: session.sessionId,
      initialEntries: session.entries,
      transcript: session.transcript,
    });
    if (session.resumed) engine.cacheDetector.expectDrop("resume");
    return engine;
  }

  /**
   * Resume a saved session by id, unique id prefix or transcript path, from the place the options name
   * (`home`, `project`, `store`, `cwd`); reports what the loader had to skip.
   */
  static async resume(
    sessionIdOrPath: string,
    options: QueryEngineOptions = {},
  ): Promise<{ engine: QueryEngine; problems: string[] }> {
    const session = await new SessionManager(options).open(sessionIdOrPath, options.transcript);
    return { engine: QueryEngine.fromSession(session, options), problems: session.problems };
  }

  /** The options' transcript, or a new one where the session manager puts this session. */
  /** Whether Bash runs sandboxed, and if not, why. The first read (or Bash call) runs the bubblewrap probe. */
  get sandbox(): SandboxStatus {
    return this.#created.sandbox;
  }

  #openTranscript(options: QueryEngineOptions, env: NodeJS.ProcessEnv): TranscriptStore {
    if (options.transcript === false) return new MemoryTranscriptStore();
    return options.transcript ?? new SessionManager({ ...options, cwd: this.cwd, env }).newTranscript(this.sessionId);
  }

  /** The Agent and REPL tools, around this session's runner and policy (names already taken are kept). */
  #addAgentTools(baseTools: readonly AnyTool[]): void {
    const options = this.#options;
    const agentTools = sessionAgentTools({
      baseTools,
      explicitTools: options.tools !== undefined,
      agents: options.agents,
      repl: options.repl,
      ...workflowSetting(options),
      environment: {
        sessionId: this.sessionId,
        cwd: this.cwd,
        additionalDirectories: options.additionalDirectories ?? [],
        provider: this.provider,
        tools: () => [...this.#tools.values()],
        policy: this.permissions,
        toolRuntime: this.toolRuntime,
        config: this.config,
        model: () => this.#state.model,
        parentTranscriptPath: this.transcript.path,
        now: this.#now,
        ...(this.#hooks ? { hooks: this.#hooks } : {}),
      },
    });
    for (const tool of agentTools) if (!this.#tools.has(tool.name)) this.#tools.set(tool.name, tool);
  }

  /** Compaction outside a turn (/compact) and the compaction notes kept for autocompact. */
  #sessionCompaction(options: QueryEngineOptions): SessionCompaction {
    return new SessionCompaction(
      {
        context: () => this.#queryContext(new AbortController().signal, this.permissions),
        config: this.config,
        recorder: this.#recorder,
        state: this.#state,
        totals: this.totals,
        autoCompact: this.#autoCompact,
        finisher: this.#finisher,
      },
      options.sessionMemory ?? true,
    );
  }

  /** The session as the loop sees it: one turn's context, and what /compact and the work between turns run on. */
  #queryContext(signal: AbortSignal, policy: PermissionPolicy): QueryContext {
    return {
      sessionId: this.sessionId,
      timeline: this.timeline,
      transcript: this.transcript,
      provider: this.provider,
      tools: this.#tools,
      toolDefinitions: this.requestToolDefinitions(),
      lateToolDefinitions: (entries) => this.#tools.lateDefinitions(entries),
      policy,
      toolRuntime: this.toolRuntime,
      cwd: this.cwd,
      additionalDirectories: this.#options.additionalDirectories ?? [],
      config: this.config,
      state: this.#state,
      cacheDetector: this.cacheDetector,
      now: this.#now,
      signal,
      forkFactory: createForkRunner,
      autoCompact: this.#autoCompact,
      taskNotifications: true,
      ...(this.#hooks ? { hooks: this.#hooks } : {}),
      ...(this.memoryFiles ? { memory: this.memoryFiles } : {}),
    };
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

  /** The next request's tools block: all but deferred tools not yet loaded (new `extraTools` added first). */
  requestToolDefinitions(): ToolDefinition[] {
    // Where the server declares tool changes, found tools are offered in tool-change messages instead, and
    // join the tools block only at the next compaction (when the prefix is rewritten anyway).
    const moment =
      this.provider.capabilities.toolChanges === true ? "next-compaction" : this.#options.deferredToolLoading;
    return this.#tools.requestDefinitions(this.timeline.entries, moment);
  }

  /** Add a task to run after each turn (collapse ctx-agent, compaction notes, metrics). */
  addBackgroundHook(hook: BackgroundHook): void {
    this.#finisher.add(hook);
  }

  /** Interrupt the running turn (tools are cancelled; the transcript stays resumable). */
  interrupt(): void {
    this.#controller?.abort();
  }

  /** Submit a user message and iterate the turn's events; the last event is `turn_end`. */
  async *submitMessage(input: string | UserContentBlock[], options: SubmitOptions = {}): AsyncGenerator<EngineEvent> {
    // Background hooks of the previous turn (ctx-agent, compaction notes) are not waited for: see finalize.ts.
    const controller = new AbortController();
    this.#controller = controller;
    const relay = () => controller.abort();
    options.signal?.addEventListener("abort", relay, { once: true });
    const restoreModel = turnModel(this.#state, options.model);
    try {
      yield* this.#startMemory();
      yield* this.#startSkills();
      yield* this.#startSession();
      yield* this.#effort.beforeTurn(this.config, this.#state.model, controller.signal);
      this.#promptId = randomUUID();
      const prompt = yield* runPromptHooks(this.#hooks, this.#recorder, input, controller.signal);
      if (prompt.blocked !== undefined) return yield* blockedTurn(this.#state.model, prompt.blocked);
      const user = createUserEntry(this.#recorder.context(), input);
      this.#recorder.append(user);
      await this.checkpoints?.beginPrompt(user.uuid);
      // Recorded right after the prompt (hook context, `@file` reads); the normalizer puts it ahead of its text.
      const reading = this.#queryContext(controller.signal, this.permissions);
      const context = [...prompt.entries(), ...(await mentionAttachments(input, this.#recorder, reading, options))];
      this.#recorder.appendAll(context);
      await this.#recorder.flush();
      yield { type: "user", entry: user };
      for (const entry of context) yield { type: "entry", entry };
      this.#turns++;
      // On the one config: mid-turn readers see it.
      applyTurnTtls(this.config, this.#pauses.turnStarting(this.#state.model), this.#options.cacheTtl);
      const turn = query(this.#queryContext(controller.signal, turnPolicy(this.permissions, options.allowedTools)));
      for await (const event of turn) {
        if (event.type === "request_start") this.#pauses.requestSent(event.request);
        if (event.type === "turn_end") {
          addUsage(this.totals, event.usage);
          this.#pauses.turnEnded(this.#state.model);
        }
        yield event;
      }
    } finally {
      restoreModel();
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

  /** Resolves when the background work of earlier turns (ctx-agent, compaction notes, added hooks) is done. */
  async idle(): Promise<void> {
    await this.#pauses.settled();
    await this.#finisher.idle();
  }

  /** Go back to the end of prompt `reference`'s turn: conversation, code or both (rewind.ts, docs/REWIND.md). */
  async rewind(reference: string, mode: RewindMode): Promise<RewindOutcome> {
    await this.#finisher.idle();
    const deps = { timeline: this.timeline, checkpoints: this.checkpoints, now: this.#now, recorder: this.#recorder };
    return rewindSession({ ...deps, sessionId: this.sessionId }, reference, mode);
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
   * Wait for background work, stop background commands, run the SessionEnd hooks (with `reason`, Claude Code's: "clear", "logout",
   * "prompt_input_exit" or "other"; default "other"), flush and close the transcript. Returns lines for a person
   * about what the session leaves behind (a worktree kept because it holds work: tools/worktree-session.ts).
   */
  async close(reason = "other"): Promise<string[]> {
    this.#pauses.stop();
    await this.#pauses.settled();
    await this.#finisher.idle();
    await this.toolRuntime.background?.close();
    this.toolRuntime.scheduled?.close();
    const left = (await this.toolRuntime.worktree?.close()) ?? [];
    for (const line of left) this.#note(line);
    this.#hooks?.cancelAsync();
    if (this.#hooks?.has("SessionEnd") === true) {
      const outcome = await this.#hooks.run("SessionEnd", { reason }, reason);
      for (const notice of outcome.notices) this.#note(notice);
    }
    await this.transcript.close();
    return left;
  }

  /** SessionStart hooks, once, before the first prompt (session-hooks.ts). */
  async *#startSession(): AsyncGenerator<EngineEvent> {
    if (this.#sessionStarted) return;
    this.#sessionStarted = true;
    if (this.#hooks === undefined) return;
    const resumed = (this.#options.initialEntries?.length ?? 0) > 0;
    yield* runSessionStart(this.#hooks, this.#recorder, resumed ? "resume" : this.#options.sessionStartSource);
  }

  /** The compaction notes kept for autocompact (Claude Code's "session memory"), when on. */
  get compactionNotes(): CompactionNotes | undefined {
    return this.#compaction.compactionNotes;
  }

  /** What this session has cost and done so far: the one account, of the recorded entries (timeline/). */
  account(): SessionAccount {
    return accountSession(this.timeline.allEntries, this.config.modelOverrides);
  }

  /** The memory files known at session start, recorded once before the first message (memory-setup.ts). */
  async *#startMemory(): AsyncGenerator<EngineEvent> {
    if (this.memoryFiles !== undefined) yield* recordStartingMemory(this.memoryFiles, this.#recorder);
  }

  /** The Skill tool, appended last to the tools (the tools block is fixed from the first request on). */
  async *#startSkills(): AsyncGenerator<EngineEvent> {
    if (!this.#skillsPending) return;
    this.#skillsPending = false;
    yield* addSkillTool(this.#options, this.cwd, this.#tools, this.#recorder);
  }

  readonly #now = (): Date => (this.#options.now ? this.#options.now() : new Date());

  readonly #note = (message: string) => void this.#recorder.notice("warning", message);
}
