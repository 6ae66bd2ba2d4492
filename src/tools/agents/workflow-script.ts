/**
 * A Workflow script (Claude Code's format): `export const meta = { name, description, phases }` as a pure literal,
 * then plain JavaScript with top-level `await` and `return`, calling the host's `agent()`, `parallel()`,
 * `pipeline()` and `phase()` and reading the global `args`. The script runs in a fresh `node:vm` context that
 * holds only those names, `console.log`, and the language's own builtins (JSON, Math, Promise…): no require, no
 * process, no fs. `node:vm` is not a security boundary (a script can climb out through the host's functions), so
 * the Workflow tool is permission-checked like Bash (docs/TOOLS.md "Workflow"); the context keeps honest scripts
 * deterministic and their mistakes contained, nothing more.
 */
import vm from "node:vm";

/** The file name errors are reported against; line numbers are the script's own. */
export const WORKFLOW_SCRIPT_FILE = "workflow.js";
/** How long the script's synchronous parts may run at a stretch before it is stopped (an endless loop): 5 s. */
export const DEFAULT_WORKFLOW_SYNC_TIMEOUT_MS = 5_000;

export interface WorkflowPhase {
  title: string;
  detail?: string;
}

export interface WorkflowMeta {
  name: string;
  description: string;
  phases: WorkflowPhase[];
}

/** What the script's body calls (the run supplies it: tools/workflow-run.ts). */
export interface WorkflowHost {
  agent(prompt: unknown, options: unknown): Promise<unknown>;
  phase(title: unknown): void;
  log(line: string): void;
}

const META_START = /^\s*export\s+const\s+meta\s*=\s*/;

/** The end (exclusive) of the `{…}` literal starting at `start`, skipping strings and comments; -1 when open. */
function literalEnd(source: string, start: number): number | { interpolation: true } {
  let depth = 0;
  for (let index = start; index < source.length; index++) {
    const char = source[index];
    if (char === "/" && source[index + 1] === "/")
      index = source.indexOf("\n", index) < 0 ? source.length : source.indexOf("\n", index);
    else if (char === "/" && source[index + 1] === "*") {
      const close = source.indexOf("*/", index + 2);
      index = close < 0 ? source.length : close + 1;
    } else if (char === '"' || char === "'" || char === "`") {
      for (index++; index < source.length && source[index] !== char; index++) {
        if (source[index] === "\\") index++;
        else if (char === "`" && source[index] === "$" && source[index + 1] === "{") return { interpolation: true };
      }
    } else if (char === "{" || char === "[") depth++;
    else if (char === "}" || char === "]") {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return -1;
}

/** One line saying what is wrong with a script's meta, or the meta and the body with `export` removed. */
export function parseWorkflowScript(source: string): { meta: WorkflowMeta; body: string } | { error: string } {
  const start = META_START.exec(source);
  const impure = "the workflow's meta must be a pure literal (no variables, calls or interpolation)";
  if (start === null || source[start[0].length] !== "{")
    return { error: "a workflow script must begin with `export const meta = { name, description, phases }`" };
  const end = literalEnd(source, start[0].length);
  if (typeof end !== "number") return { error: `${impure}: it interpolates a template string` };
  if (end < 0) return { error: "the workflow's meta literal is never closed" };
  let value: unknown;
  try {
    // An empty context with no time to spare: a name or call in the literal fails or is stopped here.
    value = vm.runInNewContext(`(${source.slice(start[0].length, end)})`, Object.create(null), { timeout: 50 });
  } catch (error) {
    return { error: `${impure}: ${messageOf(error)}` };
  }
  const meta = value as Partial<Record<keyof WorkflowMeta, unknown>>;
  if (typeof meta.name !== "string" || meta.name.trim() === "")
    return { error: "the workflow's meta needs a `name` (a non-empty string)" };
  if (typeof meta.description !== "string") return { error: "the workflow's meta needs a `description` (a string)" };
  const phases = meta.phases ?? [];
  if (!Array.isArray(phases) || phases.some((phase) => typeof (phase as WorkflowPhase)?.title !== "string"))
    return { error: "the workflow's meta `phases` must be a list of { title, detail? }" };
  const body = source.replace(META_START, (prefix) => prefix.replace(/export\s+/, ""));
  return {
    meta: { name: meta.name, description: meta.description, phases: JSON.parse(JSON.stringify(phases)) },
    body,
  };
}

/** An error's message whatever realm it comes from (a vm context's errors are not this realm's `Error`). */
export function messageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "message" in error) {
    const name = (error as { name?: unknown }).name;
    const message = String((error as { message: unknown }).message);
    return typeof name === "string" && name !== "Error" ? `${name}: ${message}` : message;
  }
  return String(error);
}

/** `workflow.js:LINE` of the first frame inside the script, when the error has one. */
export function scriptLine(error: unknown): number | undefined {
  const stack = typeof error === "object" && error !== null ? (error as { stack?: unknown }).stack : undefined;
  const found = typeof stack === "string" ? new RegExp(`${WORKFLOW_SCRIPT_FILE}:(\\d+)`).exec(stack) : null;
  return found === null ? undefined : Number(found[1]);
}

/** Runs items through stages, each item on its own (item 2's first stage does not wait for item 1's last). */
function pipeline(items: unknown, ...stages: unknown[]): Promise<unknown[]> {
  if (!Array.isArray(items)) return Promise.reject(new TypeError("pipeline(items, ...stages): items must be an array"));
  if (stages.some((stage) => typeof stage !== "function"))
    return Promise.reject(new TypeError("pipeline(items, ...stages): every stage must be a function"));
  return Promise.all(
    items.map(async (item, index) => {
      let value: unknown = item;
      for (const stage of stages as Array<(value: unknown, index: number) => unknown>)
        value = await stage(value, index);
      return value;
    }),
  );
}

/** Starts every thunk at once (agent() itself caps how many subagents run together) and waits for all. */
function parallel(thunks: unknown): Promise<unknown[]> {
  if (!Array.isArray(thunks)) return Promise.reject(new TypeError("parallel(thunks): expects an array of functions"));
  return Promise.all(thunks.map((thunk) => (typeof thunk === "function" ? (thunk as () => unknown)() : thunk)));
}

/**
 * Runs a parsed script's body with `args` and the host's functions; resolves with what the script returned.
 * A syntax error throws before anything runs (its stack names `workflow.js:LINE`).
 */
export function runWorkflowScript(
  body: string,
  args: unknown,
  host: WorkflowHost,
  syncTimeoutMs = DEFAULT_WORKFLOW_SYNC_TIMEOUT_MS,
): Promise<unknown> {
  // The wrapper's first line is not the script's: line numbers in errors stay the script's own.
  const script = new vm.Script(`(async () => {\n${body}\n})()`, { filename: WORKFLOW_SCRIPT_FILE, lineOffset: -1 });
  const context = vm.createContext({
    agent: (prompt: unknown, options?: unknown) => host.agent(prompt, options),
    parallel,
    pipeline,
    phase: (title: unknown) => host.phase(title),
    console: { log: (...parts: unknown[]) => host.log(parts.map(String).join(" ")) },
  });
  // `args` is the tool's input value, copied into the context so the script cannot reach the host's objects.
  vm.runInContext(`globalThis.args = ${JSON.stringify(args ?? null)};`, context);
  return script.runInContext(context, { timeout: syncTimeoutMs }) as Promise<unknown>;
}
