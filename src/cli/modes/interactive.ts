/**
 * Interactive mode: on a TTY a raw-mode prompt (terminal/input.ts: multi-line, paste, history, type-ahead)
 * with a spinner and the status line kept at the bottom; streamed answers, tool lines, single-key permission
 * questions, slash commands. Ctrl-C or Esc interrupts the running turn (the engine records the interruption,
 * so the transcript stays resumable); a second Ctrl-C exits. Without a TTY it reads prompts line by line
 * (node:readline) and prints plain lines.
 */
import type { SubmitOptions } from "../../engine/engine-options.js";
import type { QueryEngine } from "../../engine/query-engine.js";
import type { EngineEvent } from "../../loop/events.js";
import type { CustomCommand } from "../../memory/index.js";
import type { PluginSet } from "../../plugins/index.js";
import type { PermissionReply, PermissionRequest } from "../../tools/index.js";
import type { CliOptions } from "../args.js";
import type { CliIo } from "../io.js";
import { promptContent } from "../prompt-media.js";
import {
  CliError,
  engineOptions,
  openSession,
  type RunningSession,
  requireCredentials,
  switchSession,
} from "../session-flags.js";
import type { TerminalInput } from "../terminal/input.js";
import { loadMarkdown } from "../terminal/markdown.js";
import { createStyle, type Style } from "../terminal/style.js";
import type { TextSink } from "../terminal/text.js";
import { IdlePrompts, REAL_IDLE_CLOCK, scheduledLine } from "./idle-prompts.js";
import { type CliMcp, openMcp, settingsServers } from "./mcp-session.js";
import { ModeCycle } from "./questions/mode-cycle.js";
import { PermissionPrompter, type PromptReader } from "./questions/permission-prompt.js";
import { approvePlan, type PlanApprovalHost, planPrompt } from "./questions/plan-approval.js";
import { askFolderTrust } from "./questions/trust-question.js";
import { describeChange, loadDiff } from "./render/edit-diff.js";
import type { TurnRenderer } from "./render/render.js";
import { type ChangeCache, changeKey } from "./render/tool-outcome.js";
import { TurnActivity } from "./render/turn-activity.js";
import { openReplTerminal } from "./repl-terminal.js";
import { recapOutput, summarizeProblems } from "./resume-recap.js";
import { bannerLines } from "./session-banner.js";
import { OutputStyleChoice } from "./slash/output-style-command.js";
import { isSlashCommand, type ReplHost, runSlashCommand } from "./slash/slash-commands.js";
import { ReplStatus } from "./status/repl-status.js";
import { sessionStats } from "./status/session-stats.js";
import { formatStatusLine, freshStats, type SessionStats } from "./status/status-line.js";
import { loadUserSetup, terminalCommandTurn, type UserSetup } from "./user-setup.js";

/** Exit code after leaving with Ctrl-C (128 + SIGINT). */
export const INTERRUPT_EXIT_CODE = 130;

/** The prompt shown before each input line. */
export const PROMPT = "> ";

/** Two Ctrl-C presses at an empty prompt within this many milliseconds exit. */
export const DEFAULT_DOUBLE_INTERRUPT_MS = 2_000;

/** After a second Ctrl-C during a turn, exit anyway if the turn has not ended within this many milliseconds. */
export const DEFAULT_FORCED_EXIT_MS = 3_000;

/** Runs the interactive mode until /exit, end of input or a second Ctrl-C; resolves to the exit code. */
export async function runInteractive(
  cli: CliOptions,
  io: CliIo,
  reload?: () => { cli: CliOptions; io: CliIo },
): Promise<number> {
  requireCredentials(io.env, cli.provider, cli.baseURL);
  const repl = new Repl(cli, io, reload);
  return repl.run();
}

class Repl implements ReplHost {
  #cli: CliOptions;
  #io: CliIo;
  /** Settings read again once the folder is trusted (main.ts). */
  readonly #reload: (() => { cli: CliOptions; io: CliIo }) | undefined;
  readonly #style: Style;
  readonly #renderer: TurnRenderer;
  readonly #reader: PromptReader;
  /** The raw-mode prompt on a TTY (undefined when reading lines from a pipe). */
  readonly #terminal: TerminalInput | undefined;
  readonly #sink: (TextSink & { flush?: () => void }) | undefined;
  readonly #prompter: PermissionPrompter;
  /** Shift+Tab's permission mode cycle, named in the status line. */
  readonly #modes = new ModeCycle({ policy: () => this.#engine?.permissions, changed: () => this.showStatus() });
  /** Edit/Write changes captured when asked about, shown as diffs after they ran. */
  readonly #changes: ChangeCache = new Map();
  /** A plan accepted with "clear context": started in a fresh session once the turn that made it ends. */
  #pendingPlan: string | undefined;
  /** One line about what the transcript loader skipped, shown after the banner. */
  #problems: string | undefined;
  /** Resolves once markdown and diff rendering are loaded. */
  #renderers: Promise<unknown> = Promise.resolve();
  /** What the spinner says the turn is doing. */
  readonly #activity = new TurnActivity();
  #engine: QueryEngine | undefined;
  /** The output style of the open session and the one /output-style chose for the next (docs/SETTINGS.md). */
  readonly outputStyle = new OutputStyleChoice(() => this.#setup?.outputStyles);
  /** threadline's status line and the `statusLine` command's rows. */
  readonly #status: ReplStatus;
  /** The session's MCP servers, connected once the REPL starts (kept across /clear and /resume). */
  #mcp: CliMcp | undefined;
  #turnRunning = false;
  readonly #idle = new IdlePrompts(REAL_IDLE_CLOCK, (job) => this.print(this.#style.dim(scheduledLine(job))));
  #interruptsThisTurn = 0;
  #lastIdleInterrupt = 0;
  #lastIdleEscape = 0;
  #exitCode: number | undefined;

  constructor(cli: CliOptions, io: CliIo, reload?: () => { cli: CliOptions; io: CliIo }) {
    this.#cli = cli;
    this.#io = io;
    this.#reload = reload;
    this.#style = createStyle(io.stdout.isTTY === true, io.env);
    const opened = openReplTerminal(cli, io, this.#style, this.#changes, {
      onInterrupt: () => this.#onInterrupt(),
      onEscape: () => this.#onEscape(),
      onBackTab: () => this.#modes.next(),
      onExpand: (renderer) => {
        if (!renderer.expandLastGroup()) this.print(this.#style.dim("No grouped tool calls to expand."));
      },
      print: (line) => this.print(line),
    });
    ({ terminal: this.#terminal, reader: this.#reader, sink: this.#sink, renderer: this.#renderer } = opened);
    this.#status = new ReplStatus(this.#terminal, {
      stats: () => this.stats,
      openEngine: () => this.#engine,
      sessionOutputStyle: () => this.outputStyle.sessionOutputStyle,
      footer: (line) => this.#modes.footer(line),
      printDim: (text) => this.print(this.#style.dim(text)),
      warn: (text) => this.print(this.#style.warning(text)),
    });
    this.#prompter = new PermissionPrompter(this.#reader, this.#style, (text) => this.print(text), {
      describe: (request) =>
        this.#terminal === undefined
          ? []
          : describeChange(request, this.#io.cwd, this.#changes, changeKey(request.tool, request.input), this.#style),
      onCancel: () => this.#engine?.interrupt(),
      plan: (request) => approvePlan(this.#planHost(), request),
    });
  }

  /**
   * What /cost and the status line show, from the session's recorded entries (one account, see
   * timeline/session-account.ts): a resumed session, a /clear and a /compact agree with `inspect`.
   */
  get stats(): SessionStats {
    return this.#engine === undefined ? freshStats(0) : sessionStats(this.#engine);
  }

  get engine(): QueryEngine {
    if (this.#engine === undefined) throw new CliError("no session is open");
    return this.#engine;
  }

  /** The custom commands (and skills as `/name`) found when the REPL started. */
  customCommands: CustomCommand[] = [];
  #setup: UserSetup | undefined;
  /** The run's plugins (`/plugin`). */
  get plugins(): PluginSet | undefined {
    return this.#setup?.plugins;
  }

  get home(): string | undefined {
    return undefined; // transcripts follow THREADLINE_HOME, read by the transcript layer
  }

  print(text: string): void {
    this.#renderer.line(text);
  }

  render(event: EngineEvent): void {
    this.#activity.track(event);
    this.#renderer.handle(event);
    this.#status.changed();
  }

  clearScreen(): void {
    this.#terminal?.clearScreen();
  }

  ask(prompt: string): Promise<string | null> {
    return this.#reader.next(prompt);
  }

  async run(): Promise<number> {
    const onSignal = () => this.#onInterrupt();
    process.on("SIGINT", onSignal);
    this.#terminal?.start();
    // Loaded once the session is up, off the start-up path (only the interactive TTY renders them).
    this.#renderers = this.#terminal !== undefined ? Promise.all([loadMarkdown(), loadDiff()]) : Promise.resolve();
    try {
      const style = this.#style;
      const show = (line: string, kind: "plain" | "dim" | "warning") =>
        this.print(kind === "plain" ? line : style[kind](line));
      if (this.#reload !== undefined && (await askFolderTrust(this.#cli.trustGate, (q) => this.#reader.next(q), show)))
        ({ cli: this.#cli, io: this.#io } = this.#reload());
      const setup = await loadUserSetup(this.#cli, this.#io);
      this.#setup = setup;
      this.customCommands = setup.commands;
      const stderr = { write: (text: string) => this.print(text.trimEnd()) };
      const servers = [...settingsServers(this.#cli), ...setup.mcpServers];
      this.#mcp = await openMcp(this.#cli, { cwd: this.#io.cwd, env: this.#io.env, stderr }, servers);
      this.#adopt(await openSession(this.#cli, this.#options()));
      for (const line of bannerLines(this.engine, this.#style)) this.print(line);
      for (const line of setup.notices) this.print(this.#style.warning(`! ${line}`));
      this.#status.startCommand(this.#cli.settings?.statusLine, this.#io.cwd);
      this.#recap();
      if (this.#cli.prompt.trim() !== "") await this.#turn(this.#cli.prompt);
      while (this.#exitCode === undefined) {
        const input = await this.#idle.next(this.#reader, PROMPT, this.#engine?.toolRuntime.scheduled);
        const line = input.kind === "line" ? input.line : input.job.prompt; // CronCreate, ScheduleWakeup
        if (line === null) break;
        const text = line.trim();
        if (text === "") continue;
        const custom = await terminalCommandTurn(text, this.customCommands, this.engine, this.#cli, this.#io.env);
        if (custom !== undefined) {
          for (const line of custom.notices) this.print(this.#style.warning(`! ${line}`));
          await this.#turn(custom.prompt, custom.options);
          continue;
        }
        if (isSlashCommand(text)) {
          if ((await this.#slash(text)) === "exit") break;
          // /compact, /clear and /resume change what the status line counts; it is redrawn from the account.
          this.#status.show(false);
          continue;
        }
        await this.#turn(text);
      }
    } finally {
      process.off("SIGINT", onSignal);
      this.#status.close();
      this.#sink?.flush?.();
      this.#reader.close();
      for (const line of (await this.#engine?.close("prompt_input_exit")) ?? []) this.print(line);
      await this.#mcp?.close();
      await this.#setup?.habits.save(this.#engine?.timeline.entries); // the session open at the end
    }
    const path = this.#engine?.transcriptPath;
    if (path !== undefined) this.print(this.#style.dim(`Transcript: ${path}`));
    return this.#exitCode ?? 0;
  }

  async clearSession(): Promise<void> {
    // The mode the session is in now (plan mode left by an accepted plan stays left), not the one it started in.
    this.#cli = { ...this.#cli, permissionMode: this.#engine?.permissions.mode ?? this.#cli.permissionMode };
    await this.#engine?.close("clear");
    this.#engine = undefined;
    const { resume: _resume, sessionId: _sessionId, ...rest } = this.#cli;
    this.#adopt(await openSession({ ...rest, continue: false }, { ...this.#options(), sessionStartSource: "clear" }));
  }

  async switchToSession(sessionIdOrPath: string): Promise<void> {
    const opened = await switchSession(sessionIdOrPath, this.#options());
    await this.#engine?.close();
    this.#adopt(opened);
    this.#recap();
  }

  #options() {
    const options = engineOptions(this.#cli, this.#io.cwd, (request) => this.#ask(request));
    // Keep-warm runs only with a person at a terminal, while the session is open (docs/PROMPT-CACHE.md, "Pauses").
    const personPresent = () => this.#terminal !== undefined && this.#exitCode === undefined;
    const pause = { ...options.pause, personPresent, earlierGapsMs: this.#setup?.habits.earlierGapsMs ?? [] };
    return this.outputStyle.apply({ ...options, pause, ...this.#setup?.engineOptions, ...this.#mcp?.engineOptions });
  }

  mcpStatus(): string {
    return this.#mcp?.status() ?? "No MCP servers configured.";
  }

  /** The permission question; the spinner's clock does not count the time spent answering it. */
  async #ask(request: PermissionRequest): Promise<PermissionReply> {
    const asked = Date.now();
    try {
      return await this.#prompter.ask(request);
    } finally {
      this.#activity.pause(Date.now() - asked);
    }
  }

  #adopt(opened: RunningSession): void {
    this.#engine = opened.engine;
    if (opened.engine.toolRuntime.scheduled !== undefined) opened.engine.toolRuntime.scheduled.firesWhenIdle = true;
    this.#problems = summarizeProblems(opened.problems);
    this.#status.sessionOpened();
  }

  /** A few lines of where a resumed session left off. */
  #recap(): void {
    const status = this.stats.totals.requests > 0 ? formatStatusLine(this.stats) : undefined;
    for (const line of recapOutput(this.#problems, this.engine.timeline.entries, this.#style, status)) this.print(line);
    this.#problems = undefined;
  }

  async #slash(line: string): Promise<"continue" | "exit"> {
    try {
      return await runSlashCommand(line, this);
    } catch (error) {
      this.print(this.#style.error(`✗ ${error instanceof Error ? error.message : String(error)}`));
      return "continue";
    }
  }

  async #turn(text: string, options: SubmitOptions = {}): Promise<void> {
    const engine = this.engine;
    this.#turnRunning = true;
    this.#interruptsThisTurn = 0;
    this.#renderer.reset();
    await this.#renderers;
    this.#activity.start();
    this.#terminal?.startActivity(() => this.#activity.describe());
    try {
      const input = await promptContent(text, engine.cwd); // @image.png, a dragged path: a MediaError is one line
      for await (const event of engine.submitMessage(input, options)) this.render(event);
    } catch (error) {
      this.print(this.#style.error(`✗ ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      this.#turnRunning = false;
      this.#terminal?.stopActivity();
      this.#renderer.finish();
      this.#sink?.flush?.();
    }
    this.showStatus();
    const plan = this.#pendingPlan;
    this.#pendingPlan = undefined;
    if (plan === undefined) return;
    await this.clearSession();
    this.print(this.#style.dim("Context cleared; carrying out the plan in a fresh session (accept edits on)."));
    await this.#turn(planPrompt(plan));
  }

  #planHost(): PlanApprovalHost {
    return {
      reader: this.#reader,
      style: this.#style,
      print: (text) => this.print(text),
      setMode: (mode) => {
        if (this.#engine !== undefined) this.#engine.permissions.mode = mode;
      },
      startAfresh: (plan) => {
        this.#pendingPlan = plan;
        this.#engine?.interrupt();
      },
      cancel: () => this.#engine?.interrupt(),
    };
  }

  /** The status line: kept at the bottom on a TTY, printed after the turn elsewhere. */
  showStatus(): void {
    this.#status.show();
  }

  #onEscape(): void {
    if (!this.#turnRunning) {
      this.#onIdleEscape();
      return;
    }
    // A pending question (or its reason prompt) is dismissed: the turn ends with nothing run.
    if (this.#reader.waiting) this.#reader.cancel(null);
    this.#engine?.interrupt();
  }

  /** Esc twice between turns: clears the prompt line when it has text, else opens /rewind (docs/REWIND.md). */
  #onIdleEscape(): void {
    const now = Date.now();
    const twice = now - this.#lastIdleEscape < DEFAULT_DOUBLE_INTERRUPT_MS;
    this.#lastIdleEscape = twice ? 0 : now;
    if (twice && !this.#reader.clearInput() && this.#reader.waiting) this.#reader.cancel("/rewind");
  }

  #onInterrupt(): void {
    if (this.#turnRunning) {
      this.#interruptsThisTurn++;
      if (this.#interruptsThisTurn > 1) {
        this.#exitCode = INTERRUPT_EXIT_CODE;
        this.#reader.cancel(null);
        this.#engine?.interrupt();
        // The turn normally ends at once; never let a stuck tool keep the person from leaving.
        setTimeout(() => process.exit(INTERRUPT_EXIT_CODE), DEFAULT_FORCED_EXIT_MS).unref();
        return;
      }
      // A pending permission question is dismissed, then the turn stops with nothing run.
      if (this.#reader.waiting) this.#reader.cancel(null);
      this.#engine?.interrupt();
      return;
    }
    if (this.#reader.clearInput()) return;
    const now = Date.now();
    if (now - this.#lastIdleInterrupt < DEFAULT_DOUBLE_INTERRUPT_MS) {
      this.#exitCode = 0;
      this.#reader.cancel(null);
      return;
    }
    this.#lastIdleInterrupt = now;
    this.print(this.#style.dim("(Press Ctrl-C again to exit)"));
  }
}
