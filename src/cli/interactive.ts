/**
 * Interactive mode: on a TTY a raw-mode prompt (terminal-input.ts: multi-line, paste, history, type-ahead)
 * with a spinner and the status line kept at the bottom; streamed answers, tool lines, single-key permission
 * questions, slash commands. Ctrl-C or Esc interrupts the running turn (the engine records the interruption,
 * so the transcript stays resumable); a second Ctrl-C exits. Without a TTY it reads prompts line by line
 * (node:readline) and prints plain lines.
 */
import { createInterface } from "node:readline";
import { userPlaces } from "../engine/memory-setup.js";
import type { QueryEngine } from "../engine/query-engine.js";
import type { OpenedSession } from "../engine/sessions.js";
import type { EngineEvent } from "../loop/events.js";
import { type CustomCommand, customCommandPrompt, loadCustomCommands } from "../memory/index.js";
import { emptyUsage } from "../messages/index.js";
import { type PermissionReply, type PermissionRequest, sandboxNotice, summarizeToolCall } from "../tools/index.js";
import type { CliOptions } from "./args.js";
import { changeOf, formatDiff, loadDiff } from "./edit-diff.js";
import type { CliIo } from "./io.js";
import { type CliMcp, openMcp } from "./mcp-session.js";
import { PermissionPrompter, type PromptReader } from "./permission-prompt.js";
import { type ChangeCache, changeKey, TurnRenderer } from "./render.js";
import { recapLines, summarizeProblems } from "./resume-recap.js";
import { CliError, engineOptions, openSession, requireCredentials, resume } from "./session.js";
import { sessionStats } from "./session-account.js";
import { isBuiltinCommand, isSlashCommand, type ReplHost, runSlashCommand } from "./slash-commands.js";
import { formatStatusLine, formatTokens, type SessionStats } from "./status-line.js";
import { TerminalInput } from "./terminal/input.js";
import { LineReader } from "./terminal/line-reader.js";
import { DEFAULT_MARKDOWN_WIDTH, loadMarkdown } from "./terminal/markdown.js";
import { createStyle, type Style } from "./terminal/style.js";
import type { TextSink } from "./terminal/text.js";
import { packageVersion } from "./version.js";

/** Exit code after leaving with Ctrl-C (128 + SIGINT). */
export const INTERRUPT_EXIT_CODE = 130;

/** The prompt shown before each input line. */
export const PROMPT = "> ";

/** Two Ctrl-C presses at an empty prompt within this many milliseconds exit. */
export const DEFAULT_DOUBLE_INTERRUPT_MS = 2_000;

/** After a second Ctrl-C during a turn, exit anyway if the turn has not ended within this many milliseconds. */
export const DEFAULT_FORCED_EXIT_MS = 3_000;

/** Runs the interactive mode until /exit, end of input or a second Ctrl-C; resolves to the exit code. */
export async function runInteractive(cli: CliOptions, io: CliIo): Promise<number> {
  requireCredentials(io.env, cli.provider);
  const repl = new Repl(cli, io);
  return repl.run();
}

class Repl implements ReplHost {
  readonly #cli: CliOptions;
  readonly #io: CliIo;
  readonly #style: Style;
  readonly #renderer: TurnRenderer;
  readonly #reader: PromptReader;
  /** The raw-mode prompt on a TTY (undefined when reading lines from a pipe). */
  readonly #terminal: TerminalInput | undefined;
  readonly #sink: (TextSink & { flush?: () => void }) | undefined;
  readonly #prompter: PermissionPrompter;
  /** Edit/Write changes captured when asked about, shown as diffs after they ran. */
  readonly #changes: ChangeCache = new Map();
  /** One line about what the transcript loader skipped, shown after the banner. */
  #problems: string | undefined;
  /** Resolves once markdown and diff rendering are loaded. */
  #renderers: Promise<unknown> = Promise.resolve();
  /** What the spinner says the turn is doing. */
  #activity = { label: "Thinking", started: 0, outputChars: 0, outputTokens: 0 };
  #engine: QueryEngine | undefined;
  /** The session's MCP servers, connected once the REPL starts (kept across /clear and /resume). */
  #mcp: CliMcp | undefined;
  #turnRunning = false;
  #interruptsThisTurn = 0;
  #lastIdleInterrupt = 0;
  #exitCode: number | undefined;

  constructor(cli: CliOptions, io: CliIo) {
    this.#cli = cli;
    this.#io = io;
    const tty = io.stdin.isTTY === true && io.stdout.isTTY === true;
    this.#style = createStyle(io.stdout.isTTY === true, io.env);
    if (tty) {
      const terminal = new TerminalInput({ stdin: io.stdin, stdout: io.stdout }, this.#style, {
        onInterrupt: () => this.#onInterrupt(),
        onEscape: () => this.#onEscape(),
      });
      this.#terminal = terminal;
      this.#reader = terminal;
      // Output reaches the screen above the live region, a whole line at a time.
      this.#sink = terminal.sink();
      this.#renderer = new TurnRenderer(this.#sink, {
        verbose: cli.verbose,
        style: this.#style,
        markdown: true,
        width: () => (io.stdout as { columns?: number }).columns || DEFAULT_MARKDOWN_WIDTH,
        details: { cwd: io.cwd, changes: this.#changes },
      });
    } else {
      this.#terminal = undefined;
      this.#sink = undefined;
      this.#renderer = new TurnRenderer(io.stdout, { verbose: cli.verbose, style: this.#style });
      const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: false, historySize: 500 });
      this.#reader = new LineReader(rl, (line) => this.print(line));
      rl.on("SIGINT", () => this.#onInterrupt());
    }
    this.#prompter = new PermissionPrompter(this.#reader, this.#style, (text) => this.print(text), {
      describe: (request) => (this.#terminal !== undefined ? this.#diffFor(request) : []),
      onCancel: () => this.#engine?.interrupt(),
    });
  }

  /**
   * What /cost and the status line show, from the session's recorded entries (one account, see
   * session-account.ts): a resumed session, a /clear and a /compact agree with `inspect`.
   */
  get stats(): SessionStats {
    const engine = this.#engine;
    if (engine === undefined) return freshStats(0);
    return sessionStats(engine);
  }

  get engine(): QueryEngine {
    if (this.#engine === undefined) throw new CliError("no session is open");
    return this.#engine;
  }

  /** The custom commands found when the REPL started. */
  customCommands: CustomCommand[] = [];

  get home(): string | undefined {
    return undefined; // transcripts follow THREADLINE_HOME, read by the transcript layer
  }

  print(text: string): void {
    this.#renderer.line(text);
  }

  render(event: EngineEvent): void {
    this.#track(event);
    this.#renderer.handle(event);
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
      this.#mcp = await openMcp(this.#cli, {
        cwd: this.#io.cwd,
        env: this.#io.env,
        stderr: { write: (text: string) => this.print(text.trimEnd()) },
      });
      this.#adopt(await openSession(this.#cli, this.#options()));
      this.#banner();
      await this.#loadCustomCommands();
      this.#recap();
      if (this.#cli.prompt.trim() !== "") await this.#turn(this.#cli.prompt);
      while (this.#exitCode === undefined) {
        const line = await this.#reader.next(PROMPT);
        if (line === null) break;
        const text = line.trim();
        if (text === "") continue;
        const custom = isBuiltinCommand(/^\/(\S*)/.exec(text)?.[1] ?? "")
          ? undefined
          : customCommandPrompt(text, this.customCommands);
        if (custom !== undefined) {
          await this.#turn(custom.prompt, custom.command.allowedTools);
          continue;
        }
        if (isSlashCommand(text)) {
          if ((await this.#slash(text)) === "exit") break;
          // /compact, /clear and /resume change what the status line counts; it is redrawn from the account.
          this.#terminal?.setStatus(formatStatusLine(this.stats));
          continue;
        }
        await this.#turn(text);
      }
    } finally {
      process.off("SIGINT", onSignal);
      this.#sink?.flush?.();
      this.#reader.close();
      await this.#engine?.close("prompt_input_exit");
      await this.#mcp?.close();
    }
    const path = this.#engine?.transcriptPath;
    if (path !== undefined) this.print(this.#style.dim(`Transcript: ${path}`));
    return this.#exitCode ?? 0;
  }

  async clearSession(): Promise<void> {
    await this.#engine?.close("clear");
    this.#engine = undefined;
    const { resume: _resume, sessionId: _sessionId, ...rest } = this.#cli;
    this.#adopt(await openSession({ ...rest, continue: false }, { ...this.#options(), sessionStartSource: "clear" }));
  }

  async resumeSession(sessionIdOrPath: string): Promise<void> {
    const opened = await resume(sessionIdOrPath, this.#options());
    await this.#engine?.close();
    this.#adopt(opened);
    this.#recap();
  }

  #options() {
    return {
      ...engineOptions(this.#cli, this.#io.cwd, (request) => this.#ask(request)),
      ...this.#mcp?.engineOptions,
    };
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
      this.#activity.started += Date.now() - asked;
    }
  }

  #adopt(opened: OpenedSession): void {
    this.#engine = opened.engine;
    this.#problems = summarizeProblems(opened.problems);
  }

  /** A few lines of where a resumed session left off. */
  #recap(): void {
    if (this.#problems !== undefined) this.print(this.#style.warning(`! transcript: ${this.#problems}`));
    this.#problems = undefined;
    const lines = recapLines(this.engine.timeline.entries);
    if (lines.length === 0) return;
    this.print(this.#style.dim("Where this session left off:"));
    for (const line of lines) this.print(line.startsWith("›") ? line : this.#style.dim(line));
    if (this.stats.totals.requests > 0) this.print(this.#style.dim(formatStatusLine(this.stats)));
  }

  #banner(): void {
    const engine = this.engine;
    const resumed = engine.timeline.entries.length > 0 ? ` · resumed (${engine.timeline.entries.length} entries)` : "";
    this.print(
      this.#style.bold(`threadline ${packageVersion()}`) +
        this.#style.dim(` · ${engine.model} · ${engine.cwd}${resumed}`),
    );
    this.print(this.#style.dim(`Session ${engine.sessionId} · /help for commands · Ctrl-C interrupts`));
    const notice = sandboxNotice(engine.sandbox);
    if (notice !== undefined) this.print(this.#style.warning(notice));
  }

  async #slash(line: string): Promise<"continue" | "exit"> {
    try {
      return await runSlashCommand(line, this);
    } catch (error) {
      this.print(this.#style.error(`✗ ${error instanceof Error ? error.message : String(error)}`));
      return "continue";
    }
  }

  async #loadCustomCommands(): Promise<void> {
    const found = await loadCustomCommands(userPlaces(this.engine.cwd, undefined, this.#io.env));
    this.customCommands = found.commands;
    for (const line of found.notices) this.print(this.#style.warning(`! ${line}`));
  }

  async #turn(text: string, allowedTools: readonly string[] = []): Promise<void> {
    const engine = this.engine;
    this.#turnRunning = true;
    this.#interruptsThisTurn = 0;
    this.#renderer.reset();
    await this.#renderers;
    const started = Date.now();
    this.#activity = { label: "Thinking", started, outputChars: 0, outputTokens: 0 };
    this.#terminal?.startActivity(() => this.#describeActivity());
    try {
      for await (const event of engine.submitMessage(text, allowedTools.length > 0 ? { allowedTools } : {}))
        this.render(event);
    } catch (error) {
      this.print(this.#style.error(`✗ ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      this.#turnRunning = false;
      this.#terminal?.stopActivity();
      this.#renderer.finish();
      this.#sink?.flush?.();
    }
    this.showStatus();
  }

  /** The status line: kept at the bottom on a TTY, printed after the turn elsewhere. */
  showStatus(): void {
    const line = formatStatusLine(this.stats);
    if (this.#terminal !== undefined) this.#terminal.setStatus(line);
    else this.print(this.#style.dim(line));
  }

  /** Follows the turn for the spinner: what runs now, and how much the model has written. */
  #track(event: EngineEvent): void {
    const activity = this.#activity;
    switch (event.type) {
      case "request_start":
        activity.label = "Thinking";
        return;
      case "tool_start":
        activity.label = `Running ${summarizeToolCall(event.block.name, event.block.input)}`;
        return;
      case "tool_progress":
        activity.label = `${activity.label.split(" · ")[0]} · ${event.message.split("\n")[0]?.slice(0, 60) ?? ""}`;
        return;
      case "tool_end":
        activity.label = "Working";
        return;
      case "text_delta":
        activity.label = "Writing";
        activity.outputChars += event.text.length;
        return;
      case "message_end":
        activity.outputTokens += event.usage.output_tokens;
        activity.outputChars = 0;
        return;
      default:
        return;
    }
  }

  #describeActivity(): string {
    const activity = this.#activity;
    const seconds = Math.floor((Date.now() - activity.started) / 1000);
    // Tokens of finished responses, plus an estimate (4 characters a token) for the one streaming now.
    const tokens = activity.outputTokens + Math.round(activity.outputChars / 4);
    const parts = [`${activity.label}…`, `${seconds}s`];
    if (tokens > 0) parts.push(`↓ ${formatTokens(tokens)} tokens`);
    parts.push("esc to interrupt");
    return parts.join(" · ");
  }

  /** The diff lines of an Edit/Write being asked about (remembered, so the same diff shows after approval). */
  #diffFor(request: PermissionRequest): string[] {
    const change = changeOf(request.tool, request.input, this.#io.cwd);
    if (change === undefined) return [];
    this.#changes.set(changeKey(request.tool, request.input), change);
    const diff = formatDiff(change, this.#style);
    return [
      this.#style.dim(`  ${change.path} (+${diff.added} -${diff.removed})`),
      ...diff.lines.map((line) => `  ${line}`),
    ];
  }

  #onEscape(): void {
    if (!this.#turnRunning) return;
    // A pending question (or its reason prompt) is dismissed: the turn ends with nothing run.
    if (this.#reader.waiting) this.#reader.cancel(null);
    this.#engine?.interrupt();
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

function freshStats(contextWindow: number): SessionStats {
  return {
    contextTokens: 0,
    contextWindow,
    totals: emptyUsage(),
    turnMillis: 0,
    toolCalls: 0,
    toolErrors: 0,
    turns: 0,
  };
}
