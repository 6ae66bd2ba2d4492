/**
 * Runs a shell command in its own process group and kills the whole group on timeout or abort, so background
 * children (`sleep 30 &`) die with it.
 */
import { spawn } from "node:child_process";
import { StringDecoder } from "node:string_decoder";
import { OutputBuffer } from "./output-buffer.js";
import { type SandboxSettings, sandboxArguments } from "./sandbox.js";

/** Time between SIGTERM to the group and the SIGKILL that follows if it has not exited. */
export const DEFAULT_KILL_GRACE_MS = 1000;
/**
 * After the shell itself exits, how long to wait for its pipes to close. Past this, processes it put in the
 * background (`server &`) still hold them; the call returns rather than waiting for them to finish.
 */
export const DEFAULT_EXIT_DRAIN_MS = 500;
/** After the kill, how long to wait for the pipes to close before returning anyway (a detached grandchild may hold them). */
const CLOSE_WAIT_AFTER_KILL_MS = 2000;

export interface ShellRunOptions {
  command: string;
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Cap on captured output (head + tail kept). */
  maxOutputChars?: number;
  /** The environment of the shell. Callers pass one without secrets (secret-env.ts). */
  env: Readonly<Record<string, string>>;
  /** Run under bubblewrap with these settings; undefined runs `bash` directly. */
  sandbox?: SandboxSettings;
  /** Directories the sandboxed command may write (the workspace and additional directories). Default `[cwd]`. */
  writableRoots?: readonly string[];
}

export type ShellEnding = "exited" | "timed-out" | "aborted";

export interface ShellRunResult {
  ending: ShellEnding;
  /** Exit code, or null when killed by a signal. */
  exitCode: number | null;
  exitSignal: NodeJS.Signals | null;
  /** stdout and stderr interleaved in arrival order, capped. */
  output: string;
  totalOutputChars: number;
  /** The process group id (= the shell's pid). */
  pid: number | undefined;
  /** True when the shell exited but background processes it started still held the output open. */
  backgroundStillRunning: boolean;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** The program and arguments that run `command`: `bash -c`, inside bwrap when sandboxed. */
function shellInvocation(options: ShellRunOptions): [string, string[]] {
  if (options.sandbox === undefined) return ["bash", ["-c", options.command]];
  const roots = options.writableRoots ?? [options.cwd];
  return [options.sandbox.bwrapPath, sandboxArguments(options.sandbox, options.cwd, roots, options.command)];
}

/** Runs `bash -c command`; never rejects for the command's own failure (spawn errors do reject). */
export function runShell(options: ShellRunOptions): Promise<ShellRunResult> {
  return new Promise((resolve, reject) => {
    const [program, args] = shellInvocation(options);
    const child = spawn(program, args, {
      cwd: options.cwd,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...options.env },
    });
    const buffer = new OutputBuffer(options.maxOutputChars);
    const stdoutDecoder = new StringDecoder("utf8");
    const stderrDecoder = new StringDecoder("utf8");
    child.stdout.on("data", (chunk: Buffer) => buffer.append(stdoutDecoder.write(chunk)));
    child.stderr.on("data", (chunk: Buffer) => buffer.append(stderrDecoder.write(chunk)));

    let ending: ShellEnding = "exited";
    let settled = false;
    let backgroundStillRunning = false;
    const timers: NodeJS.Timeout[] = [];
    const terminate = (why: ShellEnding): void => {
      if (ending !== "exited" || child.pid === undefined) return;
      ending = why;
      const pid = child.pid;
      killGroup(pid, "SIGTERM");
      timers.push(setTimeout(() => killGroup(pid, "SIGKILL"), DEFAULT_KILL_GRACE_MS));
      timers.push(
        setTimeout(() => {
          child.stdout.destroy();
          child.stderr.destroy();
          finish(child.exitCode, child.signalCode);
        }, DEFAULT_KILL_GRACE_MS + CLOSE_WAIT_AFTER_KILL_MS),
      );
    };
    const onAbort = (): void => terminate("aborted");
    timers.push(setTimeout(() => terminate("timed-out"), options.timeoutMs));
    options.signal.addEventListener("abort", onAbort, { once: true });

    const finish = (exitCode: number | null, exitSignal: NodeJS.Signals | null): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      // The shell may be gone while children it backgrounded still run; they belong to the group.
      if (ending !== "exited" && child.pid !== undefined) killGroup(child.pid, "SIGKILL");
      buffer.append(stdoutDecoder.end());
      buffer.append(stderrDecoder.end());
      resolve({
        ending,
        exitCode,
        exitSignal,
        output: buffer.text(),
        totalOutputChars: buffer.totalChars,
        pid: child.pid,
        backgroundStillRunning,
      });
    };
    child.on("error", (error) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      options.signal.removeEventListener("abort", onAbort);
      reject(error);
    });
    child.on("close", (code, signal) => finish(code, signal));
    child.on("exit", (code, signal) => {
      if (ending !== "exited") return;
      timers.push(
        setTimeout(() => {
          backgroundStillRunning = true;
          child.stdout.destroy();
          child.stderr.destroy();
          finish(code, signal);
        }, DEFAULT_EXIT_DRAIN_MS),
      );
    });
    if (options.signal.aborted) onAbort();
  });
}
