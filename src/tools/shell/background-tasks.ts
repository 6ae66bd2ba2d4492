/**
 * Background work of a session (docs/TOOLS.md "Background work"): commands (Bash `run_in_background`) and jobs
 * (Agent `run_in_background`: a subagent's loop in this process). Each command runs in its own process group,
 * detached from the turn, with stdout and stderr appended to a file the model reads with Read (so its output is
 * compactable like any Read result). A job is a promise with an abort controller. Every group is killed and every
 * job aborted when the session closes (groups also synchronously at process exit), so no background work outlives
 * the session that started it.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { appendFileSync, closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import type { Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AgentInbox } from "../agents/agent-inbox.js";
import { type SandboxSettings, sandboxArguments } from "./sandbox.js";

/** Default run time of a background command before it is stopped (Claude Code 2.1.328's Bash schema). */
export const DEFAULT_BACKGROUND_TIMEOUT_MS = 600_000;
/** Longest run time a background command may ask for. */
export const MAX_BACKGROUND_TIMEOUT_MS = 7_200_000;
/** Between SIGTERM to a group and the SIGKILL that follows. */
const STOP_GRACE_MS = 1000;

export type BackgroundState = "running" | "exited" | "stopped" | "timed-out";

interface TaskShared {
  readonly id: string;
  state: BackgroundState;
  /** What the model called it (Bash's or Agent's `description`) and the tool_use that started it. */
  readonly description?: string;
  readonly toolUseId?: string;
}

/** A background command (Bash `run_in_background`). */
export interface BackgroundCommand extends TaskShared {
  readonly kind: "command";
  readonly command: string;
  readonly outputFile: string;
  /** The process group id (the shell's pid). */
  readonly pid: number;
  exitCode: number | null;
  /** A Monitor (tools/monitor-tool.ts): its stdout lines are events; absent for a Bash background command. */
  readonly monitor?: true;
}

/** How a job ended by itself: what the model is told, and what the telling records. */
export interface BackgroundJobOutcome {
  status: "completed" | "failed";
  /** The whole `<task-notification>` message (the job's owner words it: tools/agent-background.ts). */
  notification: string;
  /** Recorded as the notification's `toolUseResult` (an Agent run's totals, so its tokens are counted). */
  display?: unknown;
}

/** A background job in this process (Agent `run_in_background`). */
export interface BackgroundJob extends TaskShared {
  readonly kind: "job";
  /** Claude Code's task type (`local_agent`), for TaskStop's record. */
  readonly taskType: string;
  /** One line naming it (TaskStop's "Successfully stopped task: <id> (<label>)"). */
  readonly label: string;
  /** Set when the job has settled (also after a stop: the run's record up to the stop). */
  outcome?: BackgroundJobOutcome;
  /** Where SendMessage queues messages for it (an Agent run); absent for a job that takes none. */
  readonly inbox?: AgentInbox;
  /**
   * Starts the job again under the same id with `message` (SendMessage to a finished agent), once it has settled;
   * returns the tool result to give. Absent for a job that cannot go on. Its context and result are the tool's
   * (tools/types.ts ToolContext and ToolOutput), named structurally here: types.ts imports this file.
   */
  resume?(message: string, context: object): Promise<unknown>;
  /** When it started and when it settled (ListAgents). */
  readonly startedAt: Date;
  endedAt?: Date;
}

export type BackgroundTask = BackgroundCommand | BackgroundJob;

type Running =
  | { task: BackgroundCommand; child: ChildProcess; exited: Promise<void>; timer: NodeJS.Timeout }
  | { task: BackgroundJob; controller: AbortController; exited: Promise<void> };

export interface BackgroundJobStart {
  /** The task id (an Agent job's is its agent id, as in Claude Code); must not be taken. */
  id: string;
  taskType: string;
  label: string;
  description?: string;
  toolUseId?: string;
  /** Aborted by TaskStop and by the session's end; the job's work must listen to it. */
  controller: AbortController;
  /** The job's work, already started; it settles with the outcome (a rejection is reported as a failure). */
  done: Promise<BackgroundJobOutcome>;
  /** The notification of a job whose `done` rejected. */
  failure: (error: unknown) => BackgroundJobOutcome;
  /** The job's inbox (SendMessage), when it reads one. */
  inbox?: AgentInbox;
  /** How the job goes on after it has settled (see `BackgroundJob.resume`). */
  resume?(message: string, context: object): Promise<unknown>;
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

  /** Whether the session has ended (no task can start). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Starts `command` detached; returns at once. Throws when the session is closed or bash cannot start. */
  start(options: BackgroundStart): BackgroundCommand {
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
    const task: BackgroundCommand = {
      kind: "command",
      id,
      command: options.command,
      outputFile,
      pid,
      state: "running",
      exitCode: null,
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
      ...(onStdout !== undefined ? { monitor: true as const } : {}),
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

  /**
   * Tracks a job already running (its `done` promise); returns at once. Throws when the session is closed or the id
   * is taken (the caller then aborts its controller).
   */
  startJob(options: BackgroundJobStart): BackgroundJob {
    if (this.#closed) throw new Error("the session has ended; no background task can start");
    const taken = this.#tasks.get(options.id)?.task;
    // A settled job's id may start again (a resumed agent keeps its id); a running task's never.
    if (taken !== undefined && (taken.kind !== "job" || taken.outcome === undefined))
      throw new Error(`a background task with ID ${options.id} exists already`);
    const task: BackgroundJob = {
      kind: "job",
      id: options.id,
      taskType: options.taskType,
      label: options.label,
      state: "running",
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.toolUseId !== undefined ? { toolUseId: options.toolUseId } : {}),
      ...(options.inbox !== undefined ? { inbox: options.inbox } : {}),
      ...(options.resume !== undefined ? { resume: options.resume } : {}),
      startedAt: new Date(),
    };
    const exited = options.done
      .catch((error: unknown) => options.failure(error))
      .then((outcome) => {
        task.outcome = outcome;
        task.endedAt = new Date();
        if (task.state !== "running") return; // stopped: TaskStop's caller knows, a closing session has no one to tell
        task.state = "exited";
        if (!this.#closed) this.#unreported.push(task);
      });
    this.#tasks.set(options.id, { task, controller: options.controller, exited });
    return task;
  }

  /** The tasks that ended by themselves since the last call (the loop tells the model: task-notifications.ts). */
  takeFinished(): BackgroundTask[] {
    return this.#unreported.splice(0);
  }

  /** Resolves once task `id` has settled (at once for an unknown id). */
  async settled(id: string): Promise<void> {
    await this.#tasks.get(id)?.exited;
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
    for (const { task } of this.#tasks.values())
      if (task.kind === "command" && task.outputFile === wanted) return task.outputFile;
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
    if ("controller" in running) {
      // A job ends when its work sees the abort (a subagent's loop cancels its request and tools, then cleans up).
      if (running.task.state === "running") running.task.state = "stopped";
      running.controller.abort();
      await running.exited;
      return;
    }
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
    for (const running of this.#tasks.values()) {
      if ("controller" in running) running.controller.abort();
      else killGroup(running.task.pid, "SIGKILL");
    }
    if (this.#directory !== undefined) rmSync(this.#directory, { recursive: true, force: true });
  }

  /** Ends the session's background work: every group stopped, every job aborted and settled, output files removed. */
  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#tasks.keys()].map((id) => this.#end(id, "stopped")));
    untrack(this);
    if (this.#directory !== undefined) rmSync(this.#directory, { recursive: true, force: true });
  }
}
