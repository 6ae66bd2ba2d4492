/**
 * Runs one command hook: `bash -c command` in its own process group, the event as JSON on stdin, stdout and
 * stderr captured apart (each capped), killed with its whole group at the timeout or on abort.
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";

/** Time between SIGTERM to the hook's group and the SIGKILL that follows. */
export const DEFAULT_HOOK_KILL_GRACE_MS = 1000;

export interface HookCommandOptions {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** Written to stdin, then stdin is closed. */
  stdin: string;
  timeoutMs: number;
  /** Most characters kept of stdout, and of stderr; the rest is read and dropped. */
  maxOutputChars: number;
  signal?: AbortSignal;
  /**
   * Called when the hook's first stdout line is `{"async": true, "asyncTimeout"?: ms}` (Claude Code's way for a
   * hook to send itself to the background): the caller stops waiting; the hook then runs to `asyncTimeout`
   * (default `timeoutMs`), and that line is not part of its `stdout`. Default: the line is ordinary output.
   */
  onAsync?: () => void;
}

export interface HookCommandResult {
  ending: "exited" | "timed-out" | "aborted" | "failed-to-start";
  /** Exit code; null when killed by a signal or never started. */
  exitCode: number | null;
  stdout: string;
  stderr: string;
  /** Characters the hook printed on stdout and stderr together, kept or not. */
  totalChars: number;
  /** Whether either stream was cut at `maxOutputChars`. */
  truncated: boolean;
  /** For `failed-to-start`: why. */
  error?: string;
}

class CappedText {
  text = "";
  total = 0;
  readonly #decoder = new StringDecoder("utf8");
  constructor(readonly max: number) {}
  append(chunk: Buffer | string): void {
    const piece = typeof chunk === "string" ? chunk : this.#decoder.write(chunk);
    this.total += piece.length;
    if (this.text.length < this.max) this.text += piece.slice(0, this.max - this.text.length);
  }
  end(): void {
    this.append(this.#decoder.end());
  }
  get truncated(): boolean {
    return this.total > this.max;
  }
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: already gone.
  }
}

/** The time limit a `{"async": true, "asyncTimeout": ms}` first line asks for; undefined when the line is not one. */
export function asyncAnnouncement(line: string): { timeoutMs?: number } | undefined {
  try {
    const value = JSON.parse(line) as { async?: unknown; asyncTimeout?: unknown };
    if (typeof value !== "object" || value === null || value.async !== true) return undefined;
    const timeout = value.asyncTimeout;
    return typeof timeout === "number" && timeout > 0 ? { timeoutMs: timeout } : {};
  } catch {
    return undefined;
  }
}

/** Never rejects: a hook that cannot start is an ending like any other. */
export function runHookCommand(options: HookCommandOptions): Promise<HookCommandResult> {
  return new Promise((resolve) => {
    const stdout = new CappedText(options.maxOutputChars);
    const stderr = new CappedText(options.maxOutputChars);
    let ending: HookCommandResult["ending"] = "exited";
    let settled = false;
    const timers: NodeJS.Timeout[] = [];
    const child = spawn("bash", ["-c", options.command], {
      cwd: options.cwd,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...options.env },
    });
    const finish = (exitCode: number | null, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timeout);
      for (const timer of timers) clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      stdout.end();
      stderr.end();
      resolve({
        ending,
        exitCode,
        stdout: backgrounded ? stdout.text.slice(stdout.text.indexOf("\n") + 1) : stdout.text,
        stderr: stderr.text,
        totalChars: stdout.total + stderr.total,
        truncated: stdout.truncated || stderr.truncated,
        ...(error !== undefined ? { error } : {}),
      });
    };
    const terminate = (why: "timed-out" | "aborted"): void => {
      if (ending !== "exited" || child.pid === undefined) return;
      ending = why;
      const pid = child.pid;
      killGroup(pid, "SIGTERM");
      timers.push(setTimeout(() => killGroup(pid, "SIGKILL"), DEFAULT_HOOK_KILL_GRACE_MS));
      // A grandchild that escaped the group may hold the pipes: stop waiting for them.
      timers.push(setTimeout(() => finish(null), DEFAULT_HOOK_KILL_GRACE_MS * 3));
    };
    const onAbort = (): void => terminate("aborted");
    let timeout = setTimeout(() => terminate("timed-out"), options.timeoutMs);
    let backgrounded = false;
    let firstLineSeen = options.onAsync === undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout.append(chunk);
      const end = stdout.text.indexOf("\n");
      if (firstLineSeen || end < 0) return;
      firstLineSeen = true;
      const announced = asyncAnnouncement(stdout.text.slice(0, end));
      if (announced === undefined) return;
      backgrounded = true;
      clearTimeout(timeout);
      timeout = setTimeout(() => terminate("timed-out"), announced.timeoutMs ?? options.timeoutMs);
      options.onAsync?.();
    });
    child.stderr.on("data", (chunk: Buffer) => stderr.append(chunk));
    child.stdin.on("error", () => {}); // a hook that never reads stdin closes it early (EPIPE): not a failure
    child.on("error", (error) => {
      ending = "failed-to-start";
      finish(null, error.message);
    });
    child.on("close", (code) => finish(ending === "exited" ? code : null));
    options.signal?.addEventListener("abort", onAbort, { once: true });
    if (options.signal?.aborted === true) onAbort();
    child.stdin.end(options.stdin);
  });
}

/**
 * What a withheld PreToolUse hook (an untrusted folder's) answers without running: exit 2, which refuses the
 * call it would have checked (docs/TRUST.md "Fail closed": "a guard that is withheld refuses what it guarded").
 */
export function withheldHookResult(command: string): HookCommandResult {
  const stderr = `Refused: the project's PreToolUse hook "${command}" would check this call, and it is withheld because this folder is not trusted. Do not retry; the user can run with --trust-folder.`;
  return { ending: "exited", exitCode: 2, stdout: "", stderr, totalChars: 0, truncated: false };
}
