/** Bash: run a command with `bash -c` in the workspace, with a timeout and a capped output. */
import * as z from "zod";
import { checkNever } from "../../messages/index.js";
import { allowedRoots } from "../permissions/workspace-paths.js";
import { defaultToolRuntime, sandboxOf } from "../tool-runtime.js";
import type { Tool, ToolContext, ToolOutput } from "../types.js";
import { DEFAULT_BACKGROUND_TIMEOUT_MS, MAX_BACKGROUND_TIMEOUT_MS } from "./background-tasks.js";
import { isReadOnlyCommand } from "./bash-read-only.js";
import { readOnlyGitEnv } from "./git-read-only.js";
import { processEnvironmentRefusal, readsProcessEnvironment } from "./process-environ.js";
import { runShell, type ShellRunResult } from "./shell-process.js";

/** Timeout when the call gives none. */
export const DEFAULT_BASH_TIMEOUT_MS = 120_000;
/** Longest timeout a call may ask for; larger values are clamped. */
export const MAX_BASH_TIMEOUT_MS = 600_000;

export const bashInputSchema = z.strictObject({
  command: z.string().describe("The command to execute"),
  timeout: z
    .number()
    .positive()
    .optional()
    .describe("Optional timeout in milliseconds (max 600000 for a foreground command)"),
  description: z
    .string()
    .optional()
    .describe(
      "Clear, concise description of what this command does in 5-10 words, in active voice. Examples:\n" +
        "Input: ls\nOutput: List files in current directory\n\n" +
        "Input: git status\nOutput: Show working tree status",
    ),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      "Set to true to run this command in the background. With it, `timeout` limits how long the command may run " +
        "in the background before it is stopped (default 600000 ms, max 7200000 ms).",
    ),
});
export type BashInput = z.infer<typeof bashInputSchema>;

const DESCRIPTION = `Executes a bash command (bash -c) in the workspace directory and returns its output.
- stdout and stderr are returned interleaved. Output over 30000 characters is cut in the middle (the start and the end are kept).
- timeout is in milliseconds: default ${DEFAULT_BASH_TIMEOUT_MS}, max ${MAX_BASH_TIMEOUT_MS}. On timeout the command and every process it started are killed.
- A non-zero exit code is reported as an error together with the output.
- run_in_background: true starts the command in the background and returns its task id and output file at once; read the file with Read to see new output, stop it with TaskStop. Background commands end with the session.
- Prefer Read, Edit, Write, Grep and Glob over cat, sed, echo >, grep and find.`;

/**
 * What the shell is given: a read-only command runs with git's switches that keep the repository's programs
 * off (git-read-only.ts), whoever allowed it; any other command runs as written, with the secret-free env.
 */
function invocation(input: BashInput, context: ToolContext, env: Readonly<Record<string, string>>) {
  const readOnly = isReadOnlyCommand(input.command, context);
  return { command: input.command, env: readOnly ? readOnlyGitEnv(env) : env };
}

function describeResult(result: ShellRunResult, timeoutMs: number): ToolOutput {
  const output = result.output.length > 0 ? result.output.replace(/\n+$/, "") : "";
  const display = {
    kind: "bash",
    exitCode: result.exitCode,
    ending: result.ending,
    pid: result.pid,
    totalOutputChars: result.totalOutputChars,
  };
  const withOutput = (notice: string): string =>
    output.length > 0 ? `${output}\n\n${notice}` : `${notice} (no output)`;
  switch (result.ending) {
    case "timed-out":
      return {
        content: withOutput(
          `Command timed out after ${timeoutMs} ms and was killed with its whole process group. ` +
            "Run it with a larger timeout (max 600000), or in the background with output sent to a file.",
        ),
        isError: true,
        display,
      };
    case "aborted":
      return {
        content: withOutput("Command interrupted by the user; its process group was killed."),
        isError: true,
        display,
      };
    case "exited": {
      const background = result.backgroundStillRunning
        ? "\n\n(The command exited, but processes it started in the background are still running; their later output is not captured. Redirect it to a file to inspect it later.)"
        : "";
      if (result.exitCode === 0) return { content: (output.length > 0 ? output : "(no output)") + background, display };
      const how =
        result.exitCode === null
          ? `killed by signal ${result.exitSignal ?? "unknown"}`
          : `Exit code ${result.exitCode}`;
      return { content: withOutput(how) + background, isError: true, display };
    }
    default:
      return checkNever(result.ending);
  }
}

export const bashTool: Tool<BashInput> = {
  name: "Bash",
  description: DESCRIPTION,
  inputSchema: bashInputSchema,
  isReadOnly: (input: BashInput, scope) =>
    isReadOnlyCommand(input.command, scope ?? { cwd: process.cwd(), additionalDirectories: [] }),
  compactable: true,
  traits: { changesFiles: { kind: "command" } },
  async call(input: BashInput, context: ToolContext): Promise<ToolOutput> {
    const runtime = context.runtime ?? defaultToolRuntime();
    if (sandboxOf(runtime) === undefined && readsProcessEnvironment(input.command))
      return { content: processEnvironmentRefusal("Bash"), isError: true };
    if (input.run_in_background === true) return startInBackground(input, context);
    const timeoutMs = Math.min(input.timeout ?? DEFAULT_BASH_TIMEOUT_MS, MAX_BASH_TIMEOUT_MS);
    if (input.description !== undefined) context.onProgress(input.description);
    const sandbox = sandboxOf(runtime);
    const result = await runShell({
      ...invocation(input, context, runtime.secrets.toolEnv),
      cwd: context.cwd,
      timeoutMs,
      signal: context.signal,
      ...(sandbox !== undefined ? { sandbox, writableRoots: allowedRoots(context) } : {}),
    });
    return describeResult(result, timeoutMs);
  },
};

/** Bash `run_in_background`: started detached in its own process group; the result names its id and output file. */
function startInBackground(input: BashInput, context: ToolContext): ToolOutput {
  const runtime = context.runtime ?? defaultToolRuntime();
  if (runtime.background === undefined)
    return {
      content: "Background commands need a session; nothing was started. Run it without run_in_background.",
      isError: true,
    };
  const timeoutMs = Math.min(input.timeout ?? DEFAULT_BACKGROUND_TIMEOUT_MS, MAX_BACKGROUND_TIMEOUT_MS);
  if (input.description !== undefined) context.onProgress(input.description);
  const sandbox = sandboxOf(runtime);
  const task = runtime.background.start({
    ...invocation(input, context, runtime.secrets.toolEnv),
    cwd: context.cwd,
    toolUseId: context.toolUseId,
    ...(input.description !== undefined ? { description: input.description } : {}),
    timeoutMs,
    ...(sandbox !== undefined ? { sandbox, writableRoots: allowedRoots(context) } : {}),
  });
  return {
    content:
      `Command running in background with ID: ${task.id}. Output is being written to: ${task.outputFile}\n` +
      `Read that file to see its output so far; stop it with TaskStop (task_id "${task.id}"). It is stopped ` +
      `after ${timeoutMs} ms, or when the session ends.`,
    display: { kind: "bash-background", taskId: task.id, pid: task.pid, outputFile: task.outputFile },
  };
}
