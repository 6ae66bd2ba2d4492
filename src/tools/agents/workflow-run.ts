/**
 * One Workflow run in the background: the script's body in its vm context (workflow-script.ts), each agent() call
 * replayed from the resumed run's cache or run as a subagent (workflow-agent.ts) under a concurrency cap, each
 * finished call recorded in the run's folder (workflow-cache.ts), and the `<task-notification>` the model gets
 * when the script returns or fails, with the returned value as JSON (capped; the whole value is in result.json).
 */

import type { BackgroundJobOutcome } from "../shell/background-tasks.js";
import type { AgentRunner } from "./agent-run.js";
import { readAgentCall, runWorkflowAgent } from "./workflow-agent.js";
import { agentCallHash, type PositionalReplay, type WorkflowRunStore } from "./workflow-cache.js";
import { messageOf, runWorkflowScript, scriptLine, type WorkflowMeta } from "./workflow-script.js";

/** Subagents of one run working at the same time: 4. */
export const DEFAULT_WORKFLOW_CONCURRENCY = 4;
/** agent() calls one run may make before the next one fails (a runaway loop, not the size guideline): 50. */
export const DEFAULT_WORKFLOW_MAX_AGENTS = 50;
/** Characters of the returned value's JSON the notification carries: 20,000. */
export const DEFAULT_WORKFLOW_RESULT_CHARS = 20_000;
/** Claude Code's task type for a workflow run (TaskStop's record). */
export const WORKFLOW_TASK_TYPE = "local_workflow";

export interface WorkflowRunOptions {
  runId: string;
  meta: WorkflowMeta;
  body: string;
  args: unknown;
  store: WorkflowRunStore;
  replay: PositionalReplay;
  run: AgentRunner;
  signal: AbortSignal;
  toolUseId: string;
  concurrency?: number;
  maxAgents?: number;
}

/** A counting semaphore: at most `limit` holders at once, the rest wait in call order. */
class Slots {
  #free: number;
  readonly #waiting: Array<() => void> = [];
  constructor(limit: number) {
    this.#free = limit;
  }
  async hold<T>(work: () => Promise<T>): Promise<T> {
    if (this.#free > 0) this.#free--;
    else await new Promise<void>((resolve) => this.#waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#free++;
    }
  }
}

/** What a run did, for its notification. */
interface RunCounts {
  started: number;
  fromCache: number;
}

/** Runs the script to its end; the job's outcome (completed with the value, or failed with one line). */
export async function runWorkflow(options: WorkflowRunOptions): Promise<BackgroundJobOutcome> {
  const slots = new Slots(options.concurrency ?? DEFAULT_WORKFLOW_CONCURRENCY);
  const maxAgents = options.maxAgents ?? DEFAULT_WORKFLOW_MAX_AGENTS;
  const counts: RunCounts = { started: 0, fromCache: 0 };
  let position = 0;
  let currentPhase: string | undefined;
  const agent = async (prompt: unknown, opts: unknown): Promise<unknown> => {
    const read = readAgentCall(prompt, opts);
    if ("error" in read) throw new Error(read.error);
    if (options.signal.aborted) throw new Error("the workflow was stopped");
    // Positions are taken in call order, synchronously, so a script's calls get the same ones on every run.
    const at = position++;
    if (at >= maxAgents)
      throw new Error(`agent() called more than ${maxAgents} times in one run; the rest were refused`);
    const hash = agentCallHash(read.prompt, read.options);
    const label = read.options.label;
    const phase = read.options.phase ?? currentPhase;
    const tags = { ...(label !== undefined ? { label } : {}), ...(phase !== undefined ? { phase } : {}) };
    const cached = options.replay.lookup(at, hash);
    if (cached !== undefined) {
      counts.fromCache++;
      options.store.record(cached);
      return cached.result;
    }
    counts.started++;
    try {
      const result = await slots.hold(() =>
        runWorkflowAgent(
          options.run,
          { ...read, position: at },
          { signal: options.signal, toolUseId: options.toolUseId },
        ),
      );
      options.store.record({ position: at, hash, ...tags, status: "completed", result });
      return result;
    } catch (error) {
      options.store.record({ position: at, hash, ...tags, status: "failed", error: messageOf(error) });
      throw error;
    }
  };
  const host = {
    agent,
    phase: (title: unknown) => {
      currentPhase = typeof title === "string" ? title : String(title);
    },
    log: () => {},
  };
  try {
    const value = await runWorkflowScript(options.body, options.args, host);
    options.store.writeResult(value);
    return outcome(options, counts, "completed", resultText(value, options.store.resultPath));
  } catch (error) {
    const line = scriptLine(error);
    const where = line !== undefined ? ` (script line ${line})` : "";
    const stopped = options.signal.aborted ? "the workflow was stopped" : `${messageOf(error)}${where}`;
    return outcome(options, counts, "failed", undefined, stopped);
  }
}

/** The returned value as JSON, cut at the cap with where the whole of it is. */
function resultText(value: unknown, resultPath: string): string {
  const json = JSON.stringify(value ?? null, null, 2) ?? "null";
  if (json.length <= DEFAULT_WORKFLOW_RESULT_CHARS) return json;
  return `${json.slice(0, DEFAULT_WORKFLOW_RESULT_CHARS)}\n[… ${json.length - DEFAULT_WORKFLOW_RESULT_CHARS} more characters; the whole result is in ${resultPath}]`;
}

function outcome(
  options: WorkflowRunOptions,
  counts: RunCounts,
  status: "completed" | "failed",
  result: string | undefined,
  error?: string,
): BackgroundJobOutcome {
  const agents = `${counts.started} agents run, ${counts.fromCache} from the cache of the resumed run`;
  const summary =
    status === "completed"
      ? `Workflow "${options.meta.name}" completed (${agents})`
      : `Workflow "${options.meta.name}" failed: ${error} (${agents}; finished agent results are kept for resumeFromRunId)`;
  return {
    status,
    notification: [
      "<task-notification>",
      `<task-id>${options.runId}</task-id>`,
      `<tool-use-id>${options.toolUseId}</tool-use-id>`,
      `<status>${status}</status>`,
      `<summary>${summary}</summary>`,
      ...(result !== undefined ? [`<result>${result}</result>`] : []),
      "</task-notification>",
    ].join("\n"),
    display: { kind: "workflow", runId: options.runId, status, agents: counts.started, fromCache: counts.fromCache },
  };
}
