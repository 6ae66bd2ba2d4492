/**
 * Background commands of a session (Bash `run_in_background`, docs/TOOLS.md "Background work"). Each runs in its
 * own process group, detached from the turn, with stdout and stderr appended to a file the model reads with Read
 * (so its output is compactable like any Read result). Every group is killed when the session closes, and
 * synchronously at process exit, so no command outlives the session that started it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type SandboxSettings, sandboxArguments } from "./sandbox.js";

/** Default run time of a background command before it is stopped (Claude Code 2.1.328's Bash schema). */
export const DEFAULT_BACKGROUND_TIMEOUT_MS = 600_000;
/** Longest run time a background command may ask for. */
export const MAX_BACKGROUND_TIMEOUT_MS = 7_200_000;
/** Between SIGTERM to a group and the SIGKILL that follows. */
const STOP_GRACE_MS = 1000;

export type BackgroundState = "running" | "exited" | "stopped" | "timed-out";

export interface BackgroundTask {
  readonly id: string;
  readonly command: string;
  readonly outputFile: string;
  /** The process group id (the shell's pid). */
  readonly pid: number;
  state: BackgroundState;
  exitCode: number | null;
  /** Bash's `description` and the tool_use that started it, for the notification when it ends. */
  readonly description?: string;
  readonly toolUseId?: string;
  /** A Monitor (tools/monitor-tool.ts): its stdout lines are events; absent for a Bash background command. */
  readonly kind?: "monitor";
}

interface Running {
  task: BackgroundTask;
  child: ChildProcess;
  exited: Promise<void>;
  timer: NodeJS.Timeout;
}

export interface BackgroundStart {
  command: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  sandbox?: SandboxSettings;
  writableRoots?: readonly string[];
  description?: string;
  toolUseId?: string;
  /**
   * Monitor: stdout is a pipe handed here chunk by chunk (and still appended to the output file); stderr goes to
   * the file only. The task's id is `monitor_N` instead of `bash_N`.
   */
  onStdout?: (chunk: string) => void;
}

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

/** Every registry with live groups, killed by one synchronous `exit` listener (no listener per session). */
const live = new Set<BackgroundTasks>();
let exitListener: (() => void) | undefined;
function track(tasks: BackgroundTasks): void {
  live.add(tasks);
  if (exitListener !== undefined) return;
  exitListener = () => {
    for (const each of live) each.killAllNow();
  };
  process.on("exit", exitListener);
}
function untrack(tasks: BackgroundTasks): void {
  live.delete(tasks);
  if (live.size > 0 || exitListener === undefined) return;
  process.off("exit", exitListener);
  exitListener = undefined;
}

/** One session's background commands; ids are `bash_1`, `bash_2`, … in the order they started. */
export class BackgroundTasks {
  readonly #tasks = new Map<string, Running>();
  #next = 1;
  #directory: string | undefined;
  #closed = false;
  /** Tasks that ended by themselves (exit or timeout) and the model has not been told about yet. */
  #unreported: BackgroundTask[] = [];

  /** Starts `command` detached; returns at once. Throws when the session is closed or bash cannot start. */
  start(options: BackgroundStart): BackgroundTask {
    if (this.#closed) throw new Error("the session has ended; no background command can start");
    this.#directory ??= mkdtempSync(path.join(tmpdir(), "threadline-tasks-"));
    const id = `${options.onStdout !== undefined ? "monitor" : "bash"}_${this.#next++}`;
    const outputFile = path.join(this.#directory, `${id}.output`);
    const fd = openSync(outputFile, "a");
    let child: ChildProcess;
    try {
      const roots = options.writableRoots ?? [options.cwd];
      const [program, args]: [string, string[]] =
        options.sandbox === undefined
          ? ["bash", ["-c", options.command]]
          : [options.sandbox.bwrapPath, sandboxArguments(options.sandbox, options.cwd, roots, options.command)];
      // Its own process group (detached), so stopping it reaches everything it started; unref'd so the turn
      // and the process never wait for it.
      child = spawn(program, args, {
        cwd: options.cwd,
        detached: true,
        stdio: ["ignore", options.onStdout !== undefined ? "pipe" : fd, fd],
        env: { ...options.env },
      });
    } finally {
      closeSync(fd);
    }
    child.unref();
    const onStdout = options.onStdout;
    if (onStdout !== undefined && child.stdout !== null) {
      child.stdout.setEncoding("utf8");
      child.stdout.on("data", (chunk: string) => {
        appendFileSync(outputFile, chunk);
        onStdout(chunk);
      });
      // The pipe must not keep the process alive either (the group is killed at exit anyway).
      (child.stdout as Socket).unref?.();
    }
    const pid = child.pid;
    if (pid === undefined) throw new Error(`bash could not start for: ${options.command}`);
    const task: BackgroundTask = {
      id,
      command: options.command,
      outputFile,
      pid,
      state: "running",
      exitCode: null,
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
      ...(onStdout !== undefined ? { kind: "monitor" as const } : {}),
    };
    const exited = new Promise<void>((resolve) => {
      child.on("exit", (code) => {
        if (task.state === "running") task.state = "exited";
        task.exitCode = code;
        // TaskStop's caller already knows; a session closing has no one left to tell.
        if (!this.#closed && (task.state === "exited" || task.state === "timed-out")) this.#unreported.push(task);
        resolve();
      });
      child.on("error", () => resolve());
    });
    const timer = setTimeout(() => void this.#end(id, "timed-out"), options.timeoutMs);
    timer.unref();
    this.#tasks.set(id, { task, child, exited, timer });
    track(this);
    return task;
  }

  /** The tasks that ended by themselves since the last call (the loop tells the model: task-notifications.ts). */
  takeFinished(): BackgroundTask[] {
    return this.#unreported.splice(0);
  }

  get(id: string): BackgroundTask | undefined {
    return this.#tasks.get(id)?.task;
  }

  list(): BackgroundTask[] {
    return [...this.#tasks.values()].map((running) => running.task);
  }

  /** The task output file `filePath` names (absolute or not), so Read may open it outside the workspace. */
  outputFileFor(filePath: string): string | undefined {
    const wanted = path.resolve(filePath);
    for (const { task } of this.#tasks.values()) if (task.outputFile === wanted) return task.outputFile;
    return undefined;
  }

  /** Stops a task and every process of its group; resolves once the shell has exited. */
  async stop(id: string): Promise<BackgroundTask | undefined> {
    await this.#end(id, "stopped");
    return this.get(id);
  }

  async #end(id: string, why: "stopped" | "timed-out"): Promise<void> {
    const running = this.#tasks.get(id);
    if (running === undefined) return;
    clearTimeout(running.timer);
    const { task } = running;
    if (task.state === "running") {
      task.state = why;
      killGroup(task.pid, "SIGTERM");
      const grace = new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS));
      await Promise.race([running.exited, grace]);
    }
    // The shell may be gone while processes it put in the background (`server &`) still hold the group.
    killGroup(task.pid, "SIGKILL");
    await Promise.race([running.exited, new Promise<void>((resolve) => setTimeout(resolve, STOP_GRACE_MS))]);
  }

  /** Synchronous last resort at process exit: SIGKILL every group, remove the output files. */
  killAllNow(): void {
    for (const { task } of this.#tasks.values()) killGroup(task.pid, "SIGKILL");
    if (this.#directory !== undefined) rmSync(this.#directory, { recursive: true, force: true });
  }

  /** Ends the session's background work: every group stopped, the output files removed. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#tasks.keys()].map((id) => this.#end(id, "stopped")));
    untrack(this);
    if (this.#directory !== undefined) rmSync(this.#directory, { recursive: true, force: true });
  }
}
