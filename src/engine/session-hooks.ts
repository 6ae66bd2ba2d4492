/**
 * The session's command hooks as QueryEngine runs them (docs/HOOKS.md): the runner for the configured hooks,
 * Notification on every permission question, SessionStart before the first prompt, UserPromptSubmit before
 * each. What they print for the model is recorded as attachments, so a resume resends it.
 */
import { DEFAULT_STOP_HOOK_BLOCK_CAP, HookRunner, hookContextEntries } from "../hooks/index.js";
import type { EngineEvent } from "../loop/events.js";
import type { TurnRecorder } from "../loop/turn-recorder.js";
import { type AttachmentEntry, contentText, emptyUsage, type UserContentBlock } from "../messages/index.js";
import type { HookEventName } from "../settings/index.js";
import type { PermissionMode, PermissionReply, PermissionRequest, ToolRuntime } from "../tools/index.js";
import type { QueryEngineOptions } from "./engine-options.js";

/** What a session's hooks are told about it. */
export interface HookSession {
  cwd: string;
  sessionId: string;
  runtime: ToolRuntime;
  transcriptPath: () => string | undefined;
  permissionMode: () => PermissionMode;
  /** The prompt being worked on, sent as `prompt_id`. */
  promptId: () => string | undefined;
}

/** `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` (Claude Code's override of the Stop block cap) when it is a whole number. */
function stopBlockCap(env: Readonly<Record<string, string | undefined>>): number {
  const value = Number(env.CLAUDE_CODE_STOP_HOOK_BLOCK_CAP);
  return Number.isInteger(value) && value >= 0 ? value : DEFAULT_STOP_HOOK_BLOCK_CAP;
}

/** The hook runner for the configured hooks (tools' environment, secrets removed; their redactor), or none. */
export function hookRunnerFor(options: QueryEngineOptions, session: HookSession): HookRunner | undefined {
  const hooks = options.hooks;
  if (hooks === undefined || Object.values(hooks).every((groups) => groups === undefined || groups.length === 0))
    return undefined;
  return new HookRunner({
    hooks,
    projectDir: session.cwd,
    env: session.runtime.secrets.toolEnv,
    sessionId: session.sessionId,
    transcriptPath: session.transcriptPath,
    permissionMode: session.permissionMode,
    promptId: session.promptId,
    stopBlockCap: stopBlockCap(options.env ?? process.env),
    redact: (text) => session.runtime.secrets.redact(text),
    ...(options.hookTimeoutMs !== undefined ? { timeoutMs: options.hookTimeoutMs } : {}),
  });
}

type Ask = (request: PermissionRequest) => Promise<PermissionReply>;

/**
 * `ask`, with PermissionRequest hooks answering a question before a person is asked (their `decision`: allow or
 * deny, with a message for the model), and Notification hooks hearing of every question that is asked (not
 * waited for).
 */
export function notifyingAsk(ask: Ask, hooks: HookRunner, note: (notice: string) => void): Ask {
  const answered = hooks.has("PermissionRequest") ? permissionRequestAsk(ask, hooks, note) : ask;
  if (!hooks.has("Notification")) return answered;
  return (request) => {
    void hooks
      .run(
        "Notification",
        {
          message: `threadline needs your permission to use ${request.summary}`,
          notification_type: "permission_prompt",
        },
        "permission_prompt",
      )
      .then((outcome) => {
        for (const notice of outcome.notices) note(notice);
      });
    return answered(request);
  };
}

function permissionRequestAsk(ask: Ask, hooks: HookRunner, note: (notice: string) => void): Ask {
  return async (request) => {
    const outcome = await hooks.run(
      "PermissionRequest",
      { tool_name: request.tool, tool_input: request.input, permission_suggestions: [] },
      request.tool,
    );
    for (const notice of outcome.notices) note(notice);
    const decision = outcome.permissionRequest;
    if (decision?.behavior === "allow") return true;
    if (decision?.behavior === "deny")
      return { allow: false, reason: decision.message ?? "a PermissionRequest hook denied it" };
    return ask(request);
  };
}

/** What async hooks that finished since the last prompt added: recorded with the next prompt (docs/HOOKS.md). */
export interface LaterContext {
  event: HookEventName;
  text: string;
}

/**
 * The context entries recorded right after a prompt: its UserPromptSubmit hooks' context, then what `async`
 * hooks that finished since the last prompt said (Claude Code delivers theirs on the next turn too).
 */
export function promptContextEntries(
  recorder: TurnRecorder,
  prompt: { context: string[]; later: LaterContext[] },
): AttachmentEntry[] {
  return [
    ...hookContextEntries(recorder.context(), "UserPromptSubmit", prompt.context),
    ...prompt.later.flatMap(({ event, text }) => hookContextEntries(recorder.context(), event, [text])),
  ];
}

/** SessionStart hooks with `source` ("resume" for a session that had entries; default "startup"). */
export async function* runSessionStart(
  hooks: HookRunner,
  recorder: TurnRecorder,
  source: string | undefined,
): AsyncGenerator<EngineEvent> {
  if (!hooks.has("SessionStart")) return;
  const started = source ?? "startup";
  const outcome = await hooks.run("SessionStart", { source: started }, started);
  const entries = hookContextEntries(recorder.context(), "SessionStart", outcome.context);
  recorder.appendAll(entries);
  for (const entry of entries) yield { type: "entry", entry };
  for (const notice of outcome.notices) yield recorder.notice("warning", notice);
}

/** What a prompt's hooks said: why they blocked it, or the context entries to record right after it. */
export interface PromptHooks {
  blocked?: string;
  entries: () => AttachmentEntry[];
}

/**
 * UserPromptSubmit hooks: the context they add, or why they blocked the prompt; with what `async` hooks that
 * finished since the last prompt said (their notices now, their context after the prompt).
 */
export async function* runPromptHooks(
  hooks: HookRunner | undefined,
  recorder: TurnRecorder,
  input: string | UserContentBlock[],
  signal: AbortSignal,
): AsyncGenerator<EngineEvent, PromptHooks> {
  const later: LaterContext[] = [];
  for (const result of hooks?.takeAsyncResults() ?? []) {
    for (const notice of result.notices) yield recorder.notice("warning", notice);
    later.push(...result.context.map((text) => ({ event: result.event, text })));
  }
  const done = (context: string[], blocked?: string): PromptHooks => ({
    ...(blocked !== undefined ? { blocked } : {}),
    // Made once the prompt is recorded: the entries follow it.
    entries: () => promptContextEntries(recorder, { context, later }),
  });
  if (hooks?.has("UserPromptSubmit") !== true) return done([]);
  const prompt = typeof input === "string" ? input : contentText(input);
  const outcome = await hooks.run("UserPromptSubmit", { prompt }, undefined, signal);
  for (const notice of outcome.notices) yield recorder.notice("warning", notice);
  const blocked = outcome.block ?? outcome.stop;
  return blocked !== undefined ? done([], blocked) : done(outcome.context);
}

/** The events of a turn a UserPromptSubmit hook blocked: it starts and ends without a request. */
export function* blockedTurn(model: string, reason: string): Generator<EngineEvent> {
  yield { type: "turn_start", model };
  yield {
    type: "turn_end",
    reason: "hook_blocked",
    usage: emptyUsage(),
    iterations: 0,
    answeredRequests: 0,
    error: `UserPromptSubmit hook blocked the prompt: ${reason}`,
    lastText: "",
  };
}
