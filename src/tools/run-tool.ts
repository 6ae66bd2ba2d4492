/** The one way a tool call runs: validate, check permission, call, and turn every failure into a result. */

import { contentText } from "../messages/index.js";
import { formatInputValidationError } from "./input-validation.js";
import { checkPermission, type PermissionPolicy } from "./permissions/permissions.js";
import type { SecretEnvironment } from "./shell/secret-env.js";
import { defaultToolRuntime } from "./tool-runtime.js";
import type { AnyTool, ToolContext, ToolOutput } from "./types.js";

/** The `display` of a call a person denied at the permission question. */
export interface DeniedDisplay {
  kind: "denied";
  /** What the person told the model instead ("" when nothing). */
  reason: string;
}

/**
 * What the model reads for a tool call the user interrupted — stopped while it ran, or never started — and the
 * one text the terminal recognises as "interrupted" (cli/modes/render/tool-outcome.ts).
 */
export const INTERRUPTED_MESSAGE = "Interrupted by the user: the tool call was stopped before it finished.";

function interrupted(): ToolOutput {
  return { content: INTERRUPTED_MESSAGE, isError: true };
}

/** Error results must be non-empty text (the API's rule for `is_error`). */
function asErrorOutput(output: ToolOutput): ToolOutput {
  const text = typeof output.content === "string" ? output.content : contentText(output.content);
  const result: ToolOutput = {
    content: text.trim() === "" ? "The tool failed without a message." : text,
    isError: true,
  };
  if (output.display !== undefined) result.display = output.display;
  return result;
}

function thrownMessage(error: unknown): string {
  if (error instanceof Error)
    return error.name === "Error" ? `Error: ${error.message}` : `${error.name}: ${error.message}`;
  return `Error: ${String(error)}`;
}

/** Resolves when `signal` aborts (never rejects); the listener is removed by `dispose`. */
function abortPromise(signal: AbortSignal): { promise: Promise<"aborted">; dispose: () => void } {
  let onAbort = (): void => {};
  const promise = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    signal.addEventListener("abort", onAbort, { once: true });
  });
  return { promise, dispose: () => signal.removeEventListener("abort", onAbort) };
}

/** `output` with every secret value redacted: content, structured display data, error text alike. */
function redactToolOutput(output: ToolOutput, secrets: SecretEnvironment): ToolOutput {
  const content =
    typeof output.content === "string" ? secrets.redact(output.content) : secrets.redactDeep(output.content);
  const result: ToolOutput = { content };
  if (output.isError !== undefined) result.isError = output.isError;
  if (output.display !== undefined) result.display = secrets.redactDeep(output.display);
  return result;
}

/**
 * Runs one call of `tool` with the model's raw input. Never throws: invalid input, a denied permission and a
 * thrown error all come back as `isError` text the model can act on; an abort returns `INTERRUPTED_MESSAGE`.
 * This is the one place tool results are made, so secret values are redacted here (and from progress lines)
 * before anything reaches the timeline, a request or the transcript.
 */
export async function runTool(
  tool: AnyTool,
  rawInput: unknown,
  context: ToolContext,
  policy: PermissionPolicy,
): Promise<ToolOutput> {
  const runtime = context.runtime ?? defaultToolRuntime();
  const redacting: ToolContext = {
    ...context,
    runtime,
    onProgress: (message) => context.onProgress(runtime.secrets.redact(message)),
  };
  return redactToolOutput(await runUnredacted(tool, rawInput, redacting, policy), runtime.secrets);
}

async function runUnredacted(
  tool: AnyTool,
  rawInput: unknown,
  context: ToolContext,
  policy: PermissionPolicy,
): Promise<ToolOutput> {
  if (context.signal.aborted) return interrupted();
  const parsed = tool.inputSchema.safeParse(rawInput);
  if (!parsed.success) {
    return { content: formatInputValidationError(tool.name, tool.inputSchema, parsed.error), isError: true };
  }
  const abort = abortPromise(context.signal);
  try {
    const decision = await Promise.race([checkPermission(tool, parsed.data, policy, context), abort.promise]);
    if (decision === "aborted") return interrupted();
    if (decision.behavior === "deny") {
      // The display marks a person's "no", so a UI can show "denied" rather than the model's text.
      const output: ToolOutput = { content: decision.message, isError: true };
      if (decision.asked !== undefined)
        output.display = { kind: "denied", reason: decision.asked.reason } satisfies DeniedDisplay;
      return output;
    }
    // The race returns promptly on abort even if a tool ignores its signal; tools that own processes kill them.
    const call = tool.call(parsed.data, context);
    const outcome = await Promise.race([call, abort.promise]);
    if (outcome === "aborted") {
      call.catch(() => {});
      return interrupted();
    }
    return outcome.isError ? asErrorOutput(outcome) : outcome;
  } catch (error) {
    if (context.signal.aborted) return interrupted();
    return { content: thrownMessage(error), isError: true };
  } finally {
    abort.dispose();
  }
}
