/**
 * The built CLI in a real pseudo-terminal: a tmux server of its own (unique socket), one pane of `columns`×40,
 * the emulator behind it, and a temp home and workspace. The terminal e2e tests drive it by keys and read the
 * pane; `close()` kills the server and removes what it made. `HAVE_TMUX` false: the callers skip with a notice.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Emulator, type EmulatorOptions, startEmulator } from "@threadline/emulator";
import { afterEach, beforeAll } from "vitest";
import { makeTempDir } from "../../support/temp-dir.js";
import { BIN, buildOnce } from "./build-once.js";
import { cliEnv, waitFor } from "./cli-process.js";

export const HAVE_TMUX = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;

let sockets = 0;

export interface TerminalOptions {
  emulator: EmulatorOptions;
  /** Files written into the workspace before the CLI starts (folders in the path are made). */
  files?: Record<string, string>;
  /** More environment for the CLI. Default none. */
  env?: Record<string, string>;
  /** What the screen shows once the CLI is ready for keys. Default the prompt (`> ` at a line's start). */
  ready?: RegExp;
  columns?: number;
  /** Extra CLI arguments. */
  args?: string[];
}

/** A pattern for `text` where the terminal may have wrapped any space (or broken a long word). */
export function wrapped(text: string): RegExp {
  const escaped = [...text].map((char) => (char === " " ? "\\s+" : char.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
  return new RegExp(escaped.join("\\s*"));
}

export class TmuxTerminal {
  private constructor(
    readonly emulator: Emulator,
    readonly cwd: string,
    readonly home: string,
    private readonly socket: string,
  ) {}

  /** Starts the CLI (no key: the emulator is a non-Anthropic server) and waits for its prompt. */
  static async start(options: TerminalOptions): Promise<TmuxTerminal> {
    const emulator = await startEmulator(options.emulator);
    const home = await makeTempDir("tmux-home");
    const cwd = await makeTempDir("tmux-cwd");
    for (const [name, content] of Object.entries(options.files ?? {})) {
      await mkdir(dirname(join(cwd, name)), { recursive: true });
      await writeFile(join(cwd, name), content);
    }
    const { ANTHROPIC_API_KEY: _key, NO_COLOR: _noColor, ...env } = cliEnv(emulator.url, home);
    const socket = `threadline-test-${process.pid}-${++sockets}-${Date.now()}`;
    const size = ["-x", String(options.columns ?? 120), "-y", "40"];
    execFileSync(
      "tmux",
      ["-L", socket, "-f", "/dev/null", "new-session", "-d", ...size, "-c", cwd, process.execPath, BIN].concat(
        options.args ?? [],
      ),
      { env: { ...env, ...options.env, TERM: "xterm-256color" } },
    );
    const terminal = new TmuxTerminal(emulator, cwd, home, socket);
    await waitFor(() => (options.ready ?? /^> /m).test(terminal.screen()));
    return terminal;
  }

  tmux(...args: string[]): string {
    return execFileSync("tmux", ["-L", this.socket, ...args], { encoding: "utf8" });
  }

  /** The whole pane, scrollback included, as plain text (wrapped rows joined). */
  screen(): string {
    return this.tmux("capture-pane", "-p", "-J", "-S", "-500", "-t", "0");
  }

  /** The pane's rows as the terminal shows them (no joining): what fits and what the terminal had to wrap. */
  rows(): string[] {
    return this.tmux("capture-pane", "-p", "-S", "-500", "-t", "0").trimEnd().split("\n");
  }

  /** Types `text` literally, then Enter. */
  type(text: string): void {
    this.tmux("send-keys", "-t", "0", "-l", text);
    this.tmux("send-keys", "-t", "0", "Enter");
  }

  /** Main-loop request bodies (those that carry tools), count_tokens calls left out. */
  mainRequests(): Array<{ messages: Array<{ role: string; content: unknown }> }> {
    return this.emulator.requests
      .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
      .map((request) => request.body as { messages: Array<{ role: string; content: unknown }>; tools?: unknown[] })
      .filter((body) => Array.isArray((body as { tools?: unknown[] }).tools));
  }

  async close(): Promise<void> {
    spawnSync("tmux", ["-L", this.socket, "kill-server"], { stdio: "ignore" });
    // A test may already have closed the emulator to cut the connection.
    await this.emulator.close().catch(() => {});
    await rm(this.home, { recursive: true, force: true });
    await rm(this.cwd, { recursive: true, force: true });
  }
}

/**
 * For a test file whose tests each drive one terminal: builds the CLI once (where tmux exists), closes the test's
 * terminal after it, and returns `start`, which opens it.
 */
export function terminalPerTest(): (options: TerminalOptions) => Promise<TmuxTerminal> {
  let terminal: TmuxTerminal | undefined;
  beforeAll(() => {
    if (HAVE_TMUX) buildOnce();
  });
  afterEach(async () => {
    await terminal?.close();
    terminal = undefined;
  });
  return async (options) => {
    terminal = await TmuxTerminal.start(options);
    return terminal;
  };
}
