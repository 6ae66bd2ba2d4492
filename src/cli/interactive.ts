/**
 * Interactive mode: a prompt line (node:readline), streamed answers, tool lines, permission questions,
 * a status line after each turn, slash commands. Ctrl-C interrupts the running turn (the engine records
 * the interruption, so the transcript stays resumable); a second Ctrl-C exits. Without a TTY it reads
 * prompts line by line and prints plain lines.
 */
import { createInterface } from "node:readline";
import type { QueryEngine } from "../engine/query-engine.js";
import type { EngineEvent } from "../loop/events.js";
import { emptyUsage } from "../loop/events.js";
import { modelLimits } from "../messages/index.js";
import { sandboxNotice } from "../tools/tool-runtime.js";
import type { CliOptions } from "./args.js";
import type { CliIo } from "./io.js";
import { LineReader } from "./line-reader.js";
import { PermissionPrompter } from "./permission-prompt.js";
import { TurnRenderer } from "./render.js";
import { CliError, engineOptions, type OpenedSession, openSession, requireCredentials, resume } from "./session.js";
import { isSlashCommand, type ReplHost, runSlashCommand } from "./slash-commands.js";
import { formatStatusLine, observeEvent, type SessionStats } from "./status-line.js";
import { createStyle, type Style } from "./style.js";
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
  readonly #reader: LineReader;
  readonly #prompter: PermissionPrompter;
  #engine: QueryEngine | undefined;
  stats: SessionStats;
  #turnRunning = false;
  #interruptsThisTurn = 0;
  #lastIdleInterrupt = 0;
  #exitCode: number | undefined;

  constructor(cli: CliOptions, io: CliIo) {
    this.#cli = cli;
    this.#io = io;
    const tty = io.stdin.isTTY === true && io.stdout.isTTY === true;
    this.#style = createStyle(io.stdout.isTTY === true, io.env);
    this.#renderer = new TurnRenderer(io.stdout, { verbose: cli.verbose, style: this.#style });
    const rl = createInterface({ input: io.stdin, output: io.stdout, terminal: tty, historySize: 500 });
    this.#reader = new LineReader(rl, tty ? undefined : (line) => this.print(line));
    rl.on("SIGINT", () => this.#onInterrupt());
    this.#prompter = new PermissionPrompter(this.#reader, this.#style, (text) => this.print(text));
    this.stats = freshStats(0);
  }

  get engine(): QueryEngine {
    if (this.#engine === undefined) throw new CliError("no session is open");
    return this.#engine;
  }

  get home(): string | undefined {
    return undefined; // transcripts follow THREADLINE_HOME, read by the transcript layer
  }

  print(text: string): void {
    this.#renderer.line(text);
  }

  render(event: EngineEvent): void {
    observeEvent(this.stats, event);
    this.#renderer.handle(event);
  }

  ask(prompt: string): Promise<string | null> {
    return this.#reader.next(prompt);
  }

  async run(): Promise<number> {
    const onSignal = () => this.#onInterrupt();
    process.on("SIGINT", onSignal);
    try {
      this.#adopt(await openSession(this.#cli, this.#options()));
      this.#banner();
      if (this.#cli.prompt.trim() !== "") await this.#turn(this.#cli.prompt);
      while (this.#exitCode === undefined) {
        const line = await this.#reader.next(PROMPT);
        if (line === null) break;
        const text = line.trim();
        if (text === "") continue;
        if (isSlashCommand(text)) {
          if ((await this.#slash(text)) === "exit") break;
          continue;
        }
        await this.#turn(text);
      }
    } finally {
      process.off("SIGINT", onSignal);
      this.#reader.close();
      await this.#engine?.close();
    }
    const path = this.#engine?.transcriptPath;
    if (path !== undefined) this.print(this.#style.dim(`Transcript: ${path}`));
    return this.#exitCode ?? 0;
  }

  async clearSession(): Promise<void> {
    await this.#engine?.close();
    this.#engine = undefined;
    const { resume: _resume, sessionId: _sessionId, ...rest } = this.#cli;
    this.#adopt(await openSession({ ...rest, continue: false }, this.#options()));
  }

  async resumeSession(sessionIdOrPath: string): Promise<void> {
    const opened = await resume(sessionIdOrPath, this.#options());
    await this.#engine?.close();
    this.#adopt(opened);
  }

  #options() {
    return engineOptions(this.#cli, this.#io.cwd, (request) => this.#prompter.ask(request));
  }

  #adopt(opened: OpenedSession): void {
    this.#engine = opened.engine;
    const window = modelLimits(opened.engine.model, opened.engine.config.modelOverrides).contextWindow;
    this.stats = { ...freshStats(window), model: opened.engine.model };
    for (const problem of opened.problems) this.print(this.#style.warning(`! transcript: ${problem}`));
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

  async #turn(text: string): Promise<void> {
    const engine = this.engine;
    this.#turnRunning = true;
    this.#interruptsThisTurn = 0;
    this.#renderer.reset();
    const started = Date.now();
    try {
      for await (const event of engine.submitMessage(text)) this.render(event);
    } catch (error) {
      this.print(this.#style.error(`✗ ${error instanceof Error ? error.message : String(error)}`));
    } finally {
      this.#turnRunning = false;
      this.stats.turnMillis += Date.now() - started;
      this.stats.totals = { ...engine.totals };
    }
    this.print(this.#style.dim(formatStatusLine(this.stats)));
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
      // A pending permission question is answered "no", then the turn stops.
      if (this.#reader.waiting) this.#reader.cancel("n");
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
