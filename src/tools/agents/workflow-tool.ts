/**
 * Workflow (Claude Code 2.1.328's name and input schema; docs/TOOLS.md "Workflow"): runs a script that
 * orchestrates subagents in the background, as a job of the session's background tasks (TaskStop stops it, the
 * session's end stops it), and returns at once the run id and where the script was saved. The script comes from
 * `scriptPath`, else `script`, else `name` (`.claude/workflows/<name>.js` of the project — project code, loaded
 * only in a trusted folder — then the user's `~/.claude/workflows/`). Not read-only: vm is no security boundary,
 * so the call is asked about like Bash and refused in plan mode.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as z from "zod";
import { defaultToolRuntime } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import type { AgentRunner } from "./agent-run.js";
import {
  type CachedAgentCall,
  newWorkflowRunId,
  PositionalReplay,
  readRunCache,
  WORKFLOW_RUN_ID_PATTERN,
  WorkflowRunStore,
} from "./workflow-cache.js";
import { runWorkflow, WORKFLOW_TASK_TYPE } from "./workflow-run.js";
import { parseWorkflowScript } from "./workflow-script.js";

export const WORKFLOW_TOOL_NAME = "Workflow";
/** Claude Code's cap on an inline script: 512 KiB. */
const MAX_SCRIPT_CHARS = 524_288;

// Fields, types and constraints as Claude Code 2.1.328 records them (test/fixtures/claude-code-tools.json).
const workflowInputSchema = z.strictObject({
  script: z
    .string()
    .max(MAX_SCRIPT_CHARS)
    .optional()
    .describe(
      "Self-contained workflow script. Must begin with `export const meta = { name, description, phases }` (pure literal, no computed values) followed by the script body using agent()/parallel()/pipeline()/phase().",
    ),
  name: z
    .string()
    .optional()
    .describe(
      "Name of a predefined workflow (built-in or from .claude/workflows/). Resolves to a self-contained script.",
    ),
  description: z.string().optional().describe("Ignored — set the workflow description in the script's `meta` block."),
  title: z.string().optional().describe("Ignored — set the workflow title in the script's `meta` block."),
  args: z
    .unknown()
    .optional()
    .describe(
      "Optional input value exposed to the script as the global `args`, verbatim. Pass arrays/objects as actual JSON values, NOT as a JSON-encoded string — a stringified list breaks `args.filter`/`args.map` in the script. Use for parameterized named workflows (e.g. a research question).",
    ),
  scriptPath: z
    .string()
    .optional()
    .describe(
      "Path to a workflow script file on disk. Every Workflow invocation persists its script under the session directory and returns the path in the tool result. To iterate, edit that file with Write/Edit and re-invoke Workflow with the same `scriptPath` instead of re-sending the full script. Takes precedence over `script` and `name`.",
    ),
  resumeFromRunId: z
    .string()
    .regex(WORKFLOW_RUN_ID_PATTERN)
    .optional()
    .describe(
      "Run ID of a prior Workflow invocation to resume from. The cache is positional: agent() calls replay from cache up to the first call that failed, no longer matches the earlier run (edited, added, removed or reordered) or never started in it; that call and every call after it run again, even when their own (prompt, opts) are unchanged. A call a usage limit refused, or one still running when the run stopped, usually runs again without ending reuse: finished calls after it still come from cache. Same-session only. Stop the prior run first (TaskStop) before resuming.",
    ),
});

export type WorkflowInput = z.infer<typeof workflowInputSchema>;

export interface WorkflowToolOptions {
  /** The session's subagent runner (the Agent tool's). */
  run: AgentRunner;
  /** The session directory (the transcript's path without `.jsonl`); undefined for an in-memory transcript. */
  sessionDirectory: () => string | undefined;
  /** The project folder (its `.claude/workflows/`). */
  cwd: string;
  /** The user's home (`~/.claude/workflows/`). */
  userHome: string;
  /** Whether the project's own code may run (trust/, docs/TRUST.md); its workflows load only then. */
  projectCodeTrusted: boolean;
}

const DESCRIPTION = `Execute a workflow script that orchestrates multiple subagents deterministically. Workflows run in the background — this tool returns immediately with a task ID, and a <task-notification> arrives when the workflow completes.

ONLY call this tool when the user has explicitly opted into multi-agent orchestration (they asked in their own words to run a workflow, fan out agents or orchestrate with subagents, or named a saved workflow). Workflows can spawn many agents and use a lot of tokens. For anything else use the Agent tool, or describe what a workflow could do and ask.

Every script must begin with \`export const meta = {...}\`: a PURE LITERAL giving \`name\`, a one-line \`description\` and optionally \`phases\` ({ title, detail? } per phase() call). The body is plain JavaScript with top-level await and return:
- agent(prompt, { label, phase, schema, model, subagent_type }) → Promise of the subagent's final text, or with \`schema\` (a JSON Schema) the parsed JSON value.
- parallel([() => agent(...), ...]) runs the thunks concurrently; pipeline(items, stage1, stage2, ...) runs each item through the stages on its own; phase(title) marks the phase; \`args\` is the tool's args input.
- At most 4 subagents run at once; no require, fs or process in the script.
Pass the script inline via \`script\`. The result names the run ID (for resumeFromRunId and TaskStop) and the saved script's path (edit it and pass scriptPath to iterate).

Size guideline: medium — keep workflows under 10 agents, unless the user asks for a different scale.`;

/** The saved workflows of a folder (`<name>.js`), sorted. */
function savedNames(folder: string): string[] {
  try {
    return readdirSync(folder)
      .filter((file) => file.endsWith(".js"))
      .map((file) => file.slice(0, -3))
      .sort();
  } catch {
    return [];
  }
}

/** The script a `name` resolves to, or one line saying why none. */
function namedScript(name: string, options: WorkflowToolOptions): { source: string } | { error: string } {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.:-]*$/.test(name) || name.includes(".."))
    return { error: `Workflow name ${JSON.stringify(name)} is not a workflow name; nothing was started.` };
  const project = path.join(options.cwd, ".claude", "workflows");
  const user = path.join(options.userHome, ".claude", "workflows");
  const projectFile = path.join(project, `${name}.js`);
  const userFile = path.join(user, `${name}.js`);
  if (existsSync(projectFile) && options.projectCodeTrusted) return { source: readFileSync(projectFile, "utf8") };
  if (existsSync(userFile)) return { source: readFileSync(userFile, "utf8") };
  if (existsSync(projectFile))
    return {
      error: `The project's workflow "${name}" (${projectFile}) is project code and this folder is not trusted; nothing was started. Trust the folder (--trust-folder, or accept the trust question) to run it.`,
    };
  const available = [...(options.projectCodeTrusted ? savedNames(project) : []), ...savedNames(user)];
  const which = available.length > 0 ? `Available: ${[...new Set(available)].join(", ")}.` : "No saved workflows.";
  return {
    error: `No workflow named "${name}" in .claude/workflows or ~/.claude/workflows; nothing was started. ${which}`,
  };
}

/** The script source the input names: scriptPath, else script, else name. */
function scriptSource(
  input: WorkflowInput,
  options: WorkflowToolOptions,
  cwd: string,
): { source: string } | { error: string } {
  if (input.scriptPath !== undefined) {
    const file = path.resolve(cwd, input.scriptPath);
    try {
      return { source: readFileSync(file, "utf8") };
    } catch (error) {
      return {
        error: `Cannot read scriptPath ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}; nothing was started.`,
      };
    }
  }
  if (input.script !== undefined) return { source: input.script };
  if (input.name !== undefined) return namedScript(input.name, options);
  return { error: "Workflow needs script, scriptPath or name; nothing was started." };
}

/** Builds the Workflow tool around the session's runner and folders. */
export function createWorkflowTool(options: WorkflowToolOptions): Tool<WorkflowInput> {
  let memoryDirectory: string | undefined;
  // An in-memory transcript has no session directory: its runs go to one temporary folder per tool.
  const sessionDirectory = (): string => {
    const directory = options.sessionDirectory();
    if (directory !== undefined) return directory;
    memoryDirectory ??= mkdtempSync(path.join(tmpdir(), "threadline-workflows-"));
    return memoryDirectory;
  };
  return {
    name: WORKFLOW_TOOL_NAME,
    description: DESCRIPTION,
    inputSchema: workflowInputSchema,
    // A script starts subagents and runs code in this process: asked about like Bash, refused in plan mode.
    isReadOnly: () => false,
    compactable: false,
    traits: { forSubagents: false },
    async call(input: WorkflowInput, context: ToolContext): Promise<ToolOutput> {
      const background = (context.runtime ?? defaultToolRuntime()).background;
      if (background === undefined || background.closed)
        return { content: "Workflows need an open session; nothing was started.", isError: true };
      const found = scriptSource(input, options, context.cwd);
      if ("error" in found) return { content: found.error, isError: true };
      const parsed = parseWorkflowScript(found.source);
      if ("error" in parsed)
        return { content: `Workflow script refused: ${parsed.error}; nothing was started.`, isError: true };
      const directory = sessionDirectory();
      let cache: ReadonlyMap<number, CachedAgentCall> = new Map();
      if (input.resumeFromRunId !== undefined) {
        const earlier = background.get(input.resumeFromRunId);
        if (earlier?.state === "running")
          return {
            content: `Workflow run ${input.resumeFromRunId} is still running; stop it with TaskStop before resuming it. Nothing was started.`,
            isError: true,
          };
        const read = readRunCache(directory, input.resumeFromRunId);
        if (read === undefined)
          return {
            content: `No workflow run ${input.resumeFromRunId} in this session (resume works within the same session only); nothing was started.`,
            isError: true,
          };
        cache = read;
      }
      const runId = newWorkflowRunId();
      const store = new WorkflowRunStore(directory, runId);
      store.writeScript(found.source);
      const controller = new AbortController();
      const done = runWorkflow({
        runId,
        meta: parsed.meta,
        body: parsed.body,
        args: input.args,
        store,
        replay: new PositionalReplay(cache),
        run: options.run,
        signal: controller.signal,
        toolUseId: context.toolUseId,
      });
      try {
        background.startJob({
          id: runId,
          taskType: WORKFLOW_TASK_TYPE,
          label: `workflow ${parsed.meta.name}`,
          description: parsed.meta.description,
          toolUseId: context.toolUseId,
          controller,
          done,
          failure: (error) => ({
            status: "failed",
            notification: `<task-notification>\n<task-id>${runId}</task-id>\n<status>failed</status>\n<summary>Workflow "${parsed.meta.name}" failed: ${String(error)}</summary>\n</task-notification>`,
          }),
        });
      } catch (error) {
        controller.abort();
        await done.catch(() => undefined);
        return { content: `${(error as Error).message}; nothing was started.`, isError: true };
      }
      return {
        content: [
          `Workflow "${parsed.meta.name}" launched in the background.`,
          `Run ID: ${runId} (task ID for TaskStop; pass it as resumeFromRunId to rerun with cached agent results).`,
          `Script saved at: ${store.scriptPath} (edit it and pass scriptPath to iterate).`,
          "You will be notified with its result when it completes.",
        ].join("\n"),
        display: { kind: "workflow-launch", runId, name: parsed.meta.name, scriptPath: store.scriptPath },
      };
    },
  };
}
