/**
 * The `statusLine` command (docs/SETTINGS.md "Status line command"), run as Claude Code runs it
 * (https://code.claude.com/docs/en/statusline): in a shell, with the session's JSON on stdin
 * (status-command-input.ts); its non-empty stdout lines are shown in their own rows above threadline's own status
 * line, which stays (Claude Code keeps its footer too). Runs when the conversation changes, at most once every
 * DEFAULT_STATUS_COMMAND_DEBOUNCE_MS, each run killed at the timeout. It gets the environment hooks get (secret names
 * removed, tools/secret-env.ts). A failing or slow command is one notice for the run, never a crash: its rows are
 * hidden and it is tried again at the next change.
 */
import { runHookCommand } from "../../../hooks/index.js";
import type { StatusLineSetting } from "../../../settings/index.js";

/** Claude Code's pace: at most one run every 300 ms. */
export const DEFAULT_STATUS_COMMAND_DEBOUNCE_MS = 300;

/** A run still going after this long is killed (its rows hidden, one notice). */
export const DEFAULT_STATUS_COMMAND_TIMEOUT_MS = 5_000;

/** Most rows of the command's output shown. */
export const DEFAULT_STATUS_COMMAND_ROWS = 3;

/** Most characters of its stdout read. */
const MAX_OUTPUT_CHARS = 16_000;

export interface StatusCommandOptions {
  setting: StatusLineSetting;
  cwd: string;
  /** The hooks' environment, secrets already removed (asked at each run: /clear opens another session). */
  env: () => Readonly<Record<string, string>>;
  /** The JSON to send, built when the run starts. */
  input: () => Record<string, unknown>;
  /** The rows to show; undefined hides them. */
  show: (rows: string[] | undefined) => void;
  /** One line, said once per run of threadline. */
  notice: (line: string) => void;
  /** Default DEFAULT_STATUS_COMMAND_DEBOUNCE_MS. */
  debounceMs?: number;
  /** Default DEFAULT_STATUS_COMMAND_TIMEOUT_MS. */
  timeoutMs?: number;
}

export class StatusCommand {
  readonly #options: StatusCommandOptions;
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  /** A change arrived while a run was going: run once more after it. */
  #pending = false;
  #lastStart = 0;
  #noticed = false;
  #closed = false;
  readonly #abort = new AbortController();

  constructor(options: StatusCommandOptions) {
    this.#options = options;
  }

  /** The conversation changed: run the command soon (at most once per debounce interval). */
  request(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#pending = true;
      return;
    }
    if (this.#timer !== undefined) return;
    const debounce = this.#options.debounceMs ?? DEFAULT_STATUS_COMMAND_DEBOUNCE_MS;
    const wait = Math.max(0, this.#lastStart + debounce - Date.now());
    this.#timer = setTimeout(() => void this.#run(), wait);
  }

  /** Stops: no further runs, a running one is killed. */
  close(): void {
    this.#closed = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#abort.abort();
  }

  async #run(): Promise<void> {
    this.#timer = undefined;
    this.#running = true;
    this.#lastStart = Date.now();
    const { setting } = this.#options;
    const timeoutMs = this.#options.timeoutMs ?? DEFAULT_STATUS_COMMAND_TIMEOUT_MS;
    let stdin: string;
    try {
      stdin = JSON.stringify(this.#options.input());
    } catch {
      stdin = "{}";
    }
    const result = await runHookCommand({
      command: setting.command,
      cwd: this.#options.cwd,
      env: { ...this.#options.env(), CLAUDE_PROJECT_DIR: this.#options.cwd },
      stdin,
      timeoutMs,
      maxOutputChars: MAX_OUTPUT_CHARS,
      signal: this.#abort.signal,
    });
    this.#running = false;
    if (this.#closed) return;
    if (result.ending === "exited" && result.exitCode === 0) {
      const pad = " ".repeat(setting.padding);
      const rows = result.stdout
        .split(/\r?\n/)
        .map((row) => safeRow(row).trimEnd())
        .filter((row) => row.trim() !== "")
        .slice(0, DEFAULT_STATUS_COMMAND_ROWS)
        .map((row) => pad + row);
      this.#options.show(rows.length > 0 ? rows : undefined);
    } else {
      this.#options.show(undefined);
      this.#fail(describeFailure(result, timeoutMs));
    }
    if (this.#pending) {
      this.#pending = false;
      this.request();
    }
  }

  #fail(why: string): void {
    if (this.#noticed) return;
    this.#noticed = true;
    const command = this.#options.setting.command.replace(/\s+/g, " ");
    const shown = command.length > 60 ? `${command.slice(0, 59)}…` : command;
    this.#options.notice(
      `status line command "${shown}" (${this.#options.setting.source}) ${why}; its line is hidden until it succeeds (said once)`,
    );
  }
}

/**
 * A row with its colours (SGR `ESC[…m`) kept and every other control sequence removed: a cursor move or screen
 * clear from the command would break the live region it is drawn in.
 */
export function safeRow(row: string): string {
  return row
    .replace(/\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/g, "")
    .replace(/\x1b\[[0-9;?]*[A-Za-ln-z@`]/g, "")
    .replace(/\x1b(?!\[[0-9;]*m)/g, "")
    .replace(/\t/g, " ")
    .replace(/[\x00-\x08\x0a-\x1a\x1c-\x1f\x7f]/g, "");
}

function describeFailure(
  result: { ending: string; exitCode: number | null; stderr: string; error?: string },
  timeoutMs: number,
): string {
  if (result.ending === "timed-out") return `took longer than ${timeoutMs / 1000}s and was stopped`;
  if (result.ending === "failed-to-start") return `could not start (${result.error ?? "unknown error"})`;
  const first = result.stderr.trim().split("\n")[0]?.slice(0, 120) ?? "";
  return `failed (exit ${result.exitCode ?? "by a signal"}${first !== "" ? `: ${first}` : ""})`;
}
