/**
 * The one runner for command hooks (docs/HOOKS.md). For an event it picks the hooks whose matcher fits, runs
 * them at once with the event as JSON on stdin, `CLAUDE_PROJECT_DIR` set and the environment tools get (secrets
 * removed), and folds what they said into one `HookOutcome`: exit 0 stdout is context (SessionStart,
 * UserPromptSubmit) or JSON to honour; exit 2 blocks with stderr; any other code, a timeout, cut output or a
 * bad JSON field is a notice and the session goes on.
 */
import type { HookEventName, HookMatcherSetting, HooksSettings } from "../settings/index.js";
import { type HookJsonOutput, parseHookJson } from "./hook-output.js";
import { type HookCommandResult, runHookCommand } from "./run-hook-command.js";

/** A hook's time limit when its settings give none: 60 seconds (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Most characters kept of one hook's stdout, and of its stderr: 20,000 (about 5,000 tokens of context). */
export const DEFAULT_HOOK_OUTPUT_CHARS = 20_000;

/** Events whose matcher is compared with something (the tool name, the source, the trigger). */
const MATCHED_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "Notification",
]);

/**
 * Events where exit 0 stdout that is not JSON is taken as text: context for the model (SessionStart,
 * UserPromptSubmit), extra summary instructions (PreCompact).
 */
const STDOUT_IS_CONTEXT: ReadonlySet<HookEventName> = new Set(["SessionStart", "UserPromptSubmit", "PreCompact"]);

/** Events that exit 2 (or `decision: "block"`) blocks. */
const BLOCKING_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "Stop",
  "SubagentStop",
]);

export interface HookRunnerOptions {
  hooks: HooksSettings;
  /** The project directory: the hooks' cwd and `CLAUDE_PROJECT_DIR`. */
  projectDir: string;
  /** The environment hook processes get: the tools' one, secrets already removed (tools/secret-env.ts). */
  env: Readonly<Record<string, string>>;
  sessionId: string;
  /** The transcript file, when on disk (sent as `transcript_path`). Default none (null is sent). */
  transcriptPath?: () => string | undefined;
  /** The permission mode, sent as `permission_mode`. Default none. */
  permissionMode?: () => string;
  /** Redacts secret values from what hooks print before it can reach the model. Default: no change. */
  redact?: (text: string) => string;
  /** Default DEFAULT_HOOK_TIMEOUT_MS, unless a hook sets its own `timeout`. */
  timeoutMs?: number;
  /** Default DEFAULT_HOOK_OUTPUT_CHARS. */
  maxOutputChars?: number;
}

/** What the hooks of one event said, together. */
export interface HookOutcome {
  /** Hooks that ran. */
  ran: number;
  /** Why the action is blocked (exit 2 stderr, `decision: "block"`, a deny decision), when it is. */
  block?: string;
  /** PreToolUse's decision: deny beats ask beats allow across hooks. */
  permissionDecision?: "allow" | "deny" | "ask";
  permissionReason?: string;
  /** PreToolUse: the input to run the tool with instead (the last hook's). */
  updatedInput?: Record<string, unknown>;
  /** Text for the model (stdout context, `additionalContext`), in hook order. */
  context: string[];
  /** Lines for the person: failures, timeouts, cut output, `systemMessage`. */
  notices: string[];
  /** `continue: false`: the session should stop here, with this reason. */
  stop?: string;
}

/** Whether a notice line came from a hook (they start with the event's name): print mode always shows them. */
export function isHookNotice(message: string): boolean {
  return /^(?:PreToolUse|PostToolUse|UserPromptSubmit|SessionStart|SessionEnd|Stop|SubagentStop|PreCompact|Notification) hook /.test(
    message,
  );
}

export function emptyOutcome(): HookOutcome {
  return { ran: 0, context: [], notices: [] };
}

/** Whether `matcher` (regex over the whole value, `|` lists, `*` or "" for all) accepts `value`. */
export function matcherAccepts(matcher: string, value: string | undefined): boolean {
  if (matcher === "" || matcher === "*") return true;
  if (value === undefined) return false;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return matcher === value;
  }
}

const DECISION_RANK = { allow: 1, ask: 2, deny: 3 } as const;

export class HookRunner {
  readonly #options: HookRunnerOptions;

  constructor(options: HookRunnerOptions) {
    this.#options = options;
  }

  /** Whether any hook is configured for `event` (callers skip building the input otherwise). */
  has(event: HookEventName): boolean {
    return (this.#options.hooks[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the hooks of `event` whose matcher accepts `matchOn` (the tool name, source, trigger…); `fields` are
   * the event's own stdin fields, after the common ones.
   */
  async run(
    event: HookEventName,
    fields: Record<string, unknown>,
    matchOn?: string,
    signal?: AbortSignal,
  ): Promise<HookOutcome> {
    const commands = this.#matching(event, matchOn);
    const outcome = emptyOutcome();
    if (commands.length === 0) return outcome;
    const options = this.#options;
    const stdin = JSON.stringify({
      session_id: options.sessionId,
      transcript_path: options.transcriptPath?.() ?? null,
      cwd: options.projectDir,
      ...(options.permissionMode ? { permission_mode: options.permissionMode() } : {}),
      hook_event_name: event,
      ...fields,
    });
    const env = { ...options.env, CLAUDE_PROJECT_DIR: options.projectDir };
    const results = await Promise.all(
      commands.map(async (hook) => {
        const timeoutMs =
          hook.timeoutSeconds !== undefined
            ? hook.timeoutSeconds * 1000
            : (options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
        const result = await runHookCommand({
          command: hook.command,
          cwd: options.projectDir,
          env,
          stdin,
          timeoutMs,
          maxOutputChars: options.maxOutputChars ?? DEFAULT_HOOK_OUTPUT_CHARS,
          ...(signal ? { signal } : {}),
        });
        return { hook, result, timeoutMs };
      }),
    );
    for (const { hook, result, timeoutMs } of results) {
      outcome.ran++;
      this.#fold(event, hook.command, result, timeoutMs, outcome);
    }
    return outcome;
  }

  /** The distinct commands of the groups whose matcher fits (the same command from two files runs once). */
  #matching(event: HookEventName, matchOn: string | undefined): { command: string; timeoutSeconds?: number }[] {
    const groups: readonly HookMatcherSetting[] = this.#options.hooks[event] ?? [];
    const seen = new Set<string>();
    const commands: { command: string; timeoutSeconds?: number }[] = [];
    for (const group of groups) {
      if (MATCHED_EVENTS.has(event) && !matcherAccepts(group.matcher, matchOn)) continue;
      for (const hook of group.hooks) {
        if (seen.has(hook.command)) continue;
        seen.add(hook.command);
        commands.push(hook);
      }
    }
    return commands;
  }

  #fold(event: HookEventName, command: string, result: HookCommandResult, timeoutMs: number, outcome: HookOutcome) {
    const redact = this.#options.redact ?? ((text: string) => text);
    const name = `${event} hook "${shorten(command)}"`;
    const stdout = redact(result.stdout);
    const stderr = redact(result.stderr).trim();
    if (result.truncated)
      outcome.notices.push(
        `${name} printed ${result.totalChars.toLocaleString("en-US")} characters; only the first ${(this.#options.maxOutputChars ?? DEFAULT_HOOK_OUTPUT_CHARS).toLocaleString("en-US")} of each stream were kept`,
      );
    switch (result.ending) {
      case "timed-out":
        outcome.notices.push(`${name} timed out after ${timeoutMs / 1000} s and was stopped; going on without it`);
        return;
      case "aborted":
        return;
      case "failed-to-start":
        outcome.notices.push(`${name} could not start (${result.error ?? "unknown error"}); going on without it`);
        return;
      case "exited":
        break;
      default: {
        const unknown: never = result.ending;
        return unknown;
      }
    }
    if (result.exitCode === 2) {
      const reason = stderr !== "" ? stderr : `${name} blocked this without a message`;
      if (BLOCKING_EVENTS.has(event)) appendBlock(outcome, reason);
      else outcome.notices.push(`${name} exited 2: ${oneLine(reason)}`);
      return;
    }
    if (result.exitCode !== 0) {
      outcome.notices.push(
        `${name} failed with exit ${result.exitCode ?? "signal"}${stderr !== "" ? `: ${oneLine(stderr)}` : ""}; going on`,
      );
      return;
    }
    const { output, problem } = parseHookJson(stdout);
    if (problem !== undefined) outcome.notices.push(`${name}: ${problem}`);
    if (output === undefined) {
      if (problem === undefined && STDOUT_IS_CONTEXT.has(event) && stdout.trim() !== "")
        outcome.context.push(stdout.trim());
      return;
    }
    this.#honour(event, output, outcome, name);
  }

  #honour(event: HookEventName, output: HookJsonOutput, outcome: HookOutcome, name: string): void {
    if (output.systemMessage !== undefined) outcome.notices.push(`${name}: ${output.systemMessage}`);
    if (output.continue === false) outcome.stop = output.stopReason ?? `${name} stopped the session`;
    const specific = output.hookSpecificOutput;
    if (specific?.additionalContext !== undefined && specific.additionalContext.trim() !== "")
      outcome.context.push(specific.additionalContext.trim());
    if (event === "PreToolUse") {
      const decision =
        specific?.permissionDecision ??
        (output.decision === "approve" ? "allow" : output.decision === "block" ? "deny" : undefined);
      if (decision !== undefined) {
        const reason = specific?.permissionDecisionReason ?? output.reason;
        if (
          outcome.permissionDecision === undefined ||
          DECISION_RANK[decision] > DECISION_RANK[outcome.permissionDecision]
        ) {
          outcome.permissionDecision = decision;
          if (reason !== undefined) outcome.permissionReason = reason;
          else delete outcome.permissionReason;
        }
        if (decision === "deny") appendBlock(outcome, reason ?? `${name} denied this call`);
      }
      if (specific?.updatedInput !== undefined) outcome.updatedInput = specific.updatedInput;
      return;
    }
    if (output.decision === "block" && BLOCKING_EVENTS.has(event))
      appendBlock(outcome, output.reason ?? `${name} blocked this without a reason`);
  }
}

function appendBlock(outcome: HookOutcome, reason: string): void {
  outcome.block = outcome.block === undefined ? reason : `${outcome.block}\n${reason}`;
}

function shorten(command: string): string {
  const line = command.replace(/\s+/g, " ").trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}
