/**
 * A Workflow run's folder in the session directory (beside the transcript, like subagents' sidechains):
 * `workflows/<runId>/script.js` (the script as run, so the model can Edit it and pass `scriptPath`),
 * `agents.json` (every agent() call's result as it finished) and `result.json` (what the script returned).
 * `resumeFromRunId` replays the earlier run's agents.json positionally (Claude Code's rule): call N comes from the
 * cache while every call before it did, its key (position + hash of prompt and options) matches, and it succeeded;
 * the first call that does not is run again, and so is every call after it.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** Claude Code's run id pattern (`resumeFromRunId`'s schema). */
export const WORKFLOW_RUN_ID_PATTERN = /^wf_[a-z0-9-]{6,}$/;

/** One agent() call as recorded. */
export interface CachedAgentCall {
  position: number;
  /** sha256 of the prompt and options, as JSON. */
  hash: string;
  label?: string;
  phase?: string;
  status: "completed" | "failed";
  /** What agent() resolved with (parsed JSON under a schema, else text); absent for a failure. */
  result?: unknown;
  error?: string;
}

/** A fresh run id: `wf_` and 10 lowercase hex digits. */
export function newWorkflowRunId(): string {
  return `wf_${randomBytes(5).toString("hex")}`;
}

/** The cache key's hash of one call. */
export function agentCallHash(prompt: string, options: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify([prompt, options ?? null]))
    .digest("hex");
}

/** The folder of a session's workflow runs. */
export function workflowsFolder(sessionDirectory: string): string {
  return path.join(sessionDirectory, "workflows");
}

/** One run's folder and files; writes are synchronous and whole, so concurrent agents never interleave them. */
export class WorkflowRunStore {
  readonly directory: string;
  readonly #calls: CachedAgentCall[] = [];

  constructor(
    sessionDirectory: string,
    readonly runId: string,
  ) {
    this.directory = path.join(workflowsFolder(sessionDirectory), runId);
    mkdirSync(this.directory, { recursive: true });
  }

  get scriptPath(): string {
    return path.join(this.directory, "script.js");
  }

  get resultPath(): string {
    return path.join(this.directory, "result.json");
  }

  writeScript(source: string): void {
    writeFileSync(this.scriptPath, source);
  }

  /** Records one finished call (and rewrites agents.json, so a run that dies keeps every call finished so far). */
  record(call: CachedAgentCall): void {
    this.#calls.push(call);
    const ordered = [...this.#calls].sort((a, b) => a.position - b.position);
    writeFileSync(path.join(this.directory, "agents.json"), `${JSON.stringify(ordered, null, 2)}\n`);
  }

  writeResult(value: unknown): void {
    writeFileSync(this.resultPath, `${JSON.stringify(value ?? null, null, 2)}\n`);
  }
}

/** An earlier run's calls by position (empty when it recorded none); undefined when this session has no such run. */
export function readRunCache(sessionDirectory: string, runId: string): Map<number, CachedAgentCall> | undefined {
  const directory = path.join(workflowsFolder(sessionDirectory), runId);
  if (!existsSync(directory)) return undefined;
  const file = path.join(directory, "agents.json");
  if (!existsSync(file)) return new Map();
  try {
    const calls = JSON.parse(readFileSync(file, "utf8")) as CachedAgentCall[];
    return new Map(calls.map((call) => [call.position, call]));
  } catch {
    return new Map();
  }
}

/**
 * Positional replay: `lookup(position, hash)` gives the cached call while the chain holds, and breaks it for good
 * at the first call that is missing, changed or failed.
 */
export class PositionalReplay {
  readonly #cache: ReadonlyMap<number, CachedAgentCall>;
  #broken = false;
  #replayed = 0;

  constructor(cache: ReadonlyMap<number, CachedAgentCall>) {
    this.#cache = cache;
  }

  get replayed(): number {
    return this.#replayed;
  }

  lookup(position: number, hash: string): CachedAgentCall | undefined {
    if (this.#broken) return undefined;
    const cached = this.#cache.get(position);
    if (cached === undefined || cached.hash !== hash || cached.status !== "completed") {
      this.#broken = true;
      return undefined;
    }
    this.#replayed++;
    return cached;
  }
}
