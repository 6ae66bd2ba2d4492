/**
 * The interactive mode's status rows: threadline's own status line (status-line.ts) and, when settings give a
 * `statusLine` command, that command's rows above it (status-command.ts). On a TTY both stay at the bottom; without
 * one the own line is printed after each turn and the command is not run (Claude Code runs it only in its
 * terminal interface).
 */
import type { QueryEngine } from "../../../engine/query-engine.js";
import type { Usage } from "../../../messages/index.js";
import type { StatusLineSetting } from "../../../settings/index.js";
import type { TerminalInput } from "../../terminal/input.js";
import { packageVersion } from "../../version.js";
import { StatusCommand } from "./status-command.js";
import { statusCommandInput } from "./status-command-input.js";
import { formatStatusLine, type SessionStats } from "./status-line.js";

/** What the status rows read from the REPL. */
export interface ReplStatusHost {
  stats(): SessionStats;
  /** The open session, if any. */
  openEngine(): QueryEngine | undefined;
  /** The open session's output style. */
  sessionOutputStyle(): string;
  printDim(text: string): void;
  warn(text: string): void;
  /** The status line as shown: the permission mode's words first (mode-cycle.ts). */
  footer(line: string): string;
}

export class ReplStatus {
  readonly #terminal: TerminalInput | undefined;
  readonly #host: ReplStatusHost;
  #command: StatusCommand | undefined;
  #sessionStart = Date.now();

  constructor(terminal: TerminalInput | undefined, host: ReplStatusHost) {
    this.#terminal = terminal;
    this.#host = host;
  }

  /** Starts the `statusLine` command (a TTY only); `projectDir` is where threadline started. */
  startCommand(setting: StatusLineSetting | undefined, projectDir: string): void {
    const terminal = this.#terminal;
    if (setting === undefined || terminal === undefined) return;
    this.#command = new StatusCommand({
      setting,
      cwd: projectDir,
      env: () => this.#host.openEngine()?.toolRuntime.secrets.toolEnv ?? {},
      input: () => {
        const engine = this.#host.openEngine();
        return statusCommandInput({
          sessionId: engine?.sessionId ?? "",
          transcriptPath: engine?.transcriptPath,
          cwd: engine?.cwd ?? projectDir,
          projectDir,
          model: engine?.model ?? "",
          version: packageVersion(),
          outputStyle: this.#host.sessionOutputStyle(),
          stats: this.#host.stats(),
          sessionMillis: Date.now() - this.#sessionStart,
          lastUsage: engine === undefined ? undefined : lastUsage(engine),
        });
      },
      show: (rows) => terminal.setCommandStatus(rows),
      notice: (line) => this.#host.warn(`! ${line}`),
    });
    this.#command.request();
  }

  /** A new session was opened (start, /clear, /resume): its duration counts from now. */
  sessionOpened(): void {
    this.#sessionStart = Date.now();
    this.#command?.request();
  }

  /** The conversation changed (an engine event): the command runs again, debounced. */
  changed(): void {
    this.#command?.request();
  }

  /**
   * After a turn or a slash command: threadline's own line redrawn and the command run. Without a TTY the line is
   * printed when `print` says so (after a turn, not after a slash command).
   */
  show(print = true): void {
    const line = this.#host.footer(formatStatusLine(this.#host.stats()));
    if (this.#terminal !== undefined) this.#terminal.setStatus(line);
    else if (print) this.#host.printDim(line);
    this.#command?.request();
  }

  close(): void {
    this.#command?.close();
  }
}

function lastUsage(engine: QueryEngine): Usage | undefined {
  const entries = engine.timeline.entries;
  for (let index = entries.length - 1; index >= 0; index--) {
    const entry = entries[index];
    if (entry?.type === "assistant" && entry.message.usage !== undefined) return entry.message.usage;
  }
  return undefined;
}
