/** Spawning the built CLI in tests: real processes, a private THREADLINE_HOME, the emulator's URL. */
import { type ChildProcess, spawn } from "node:child_process";
import { BIN } from "./build-once.js";

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  /** Everything written to stdout so far. */
  stdout(): string;
  done: Promise<CliResult>;
}

/**
 * Model used by the tests: in the model table, and not on the SDK's deprecation list (the SDK warns on stderr
 * for listed models, which would hide the CLI's own stderr).
 */
export const TEST_MODEL = "claude-sonnet-4-20250514";

/** Environment for a CLI run against `baseUrl`, transcripts under `home`. */
export function cliEnv(baseUrl: string, home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ANTHROPIC_MODEL: _model, ANTHROPIC_AUTH_TOKEN: _token, ...rest } = process.env;
  return {
    ...rest,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: "test",
    THREADLINE_HOME: home,
    ANTHROPIC_MODEL: TEST_MODEL,
    NO_COLOR: "1",
    ...extra,
  };
}

/** Starts `node bin/threadline ...args`. `input` is written to stdin and closed; without it stdin is /dev/null. */
export function startCli(args: string[], options: { env: NodeJS.ProcessEnv; cwd: string; input?: string }): CliRun {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  if (options.input !== undefined) child.stdin?.end(options.input);
  const done = new Promise<CliResult>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, stdout: () => stdout, done };
}

/** Runs the CLI to completion. */
export function runCli(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; input?: string },
): Promise<CliResult> {
  return startCli(args, options).done;
}

/** Resolves once `predicate` holds, polling every 20 ms; rejects after `limitMs`. */
export async function waitFor(predicate: () => boolean, limitMs = 20_000): Promise<void> {
  const started = Date.now();
  while (!predicate()) {
    if (Date.now() - started > limitMs) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
