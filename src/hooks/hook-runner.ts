/**
 * The one runner for command hooks (docs/HOOKS.md). For an event it picks the hooks whose matcher fits, runs
 * them at once with the event as JSON on stdin, `CLAUDE_PROJECT_DIR` set and the environment tools get (secrets
 * removed), and folds what they said into one `HookOutcome`: exit 0 stdout is context (SessionStart,
 * UserPromptSubmit) or JSON to honour; exit 2 blocks with stderr; any other code, a timeout, cut output or a
 * bad JSON field is a notice and the session goes on.
 */
import { homedir } from "node:os";
import type { CommandHookSetting, HookEventName, HookMatcherSetting, HooksSettings } from "../settings/index.js";
import { hookConditionMatches } from "./hook-condition.js";
import {
  appendBlock,
  emptyOutcome,
  type HookOutcome,
  isHookNotice,
  matcherAccepts,
  oneLine,
  shorten,
} from "./hook-outcome.js";
import { type HookJsonOutput, parseHookJson } from "./hook-output.js";
import { type HookCommandResult, runHookCommand, withheldHookResult } from "./run-hook-command.js";

export { emptyOutcome, type HookOutcome, isHookNotice, matcherAccepts };

/** A hook's time limit when its settings give none: 60 seconds (Claude Code's default). */
export const DEFAULT_HOOK_TIMEOUT_MS = 60_000;

/** Most characters kept of one hook's stdout, and of its stderr: 20,000 (about 5,000 tokens of context). */
export const DEFAULT_HOOK_OUTPUT_CHARS = 20_000;

/**
 * How many times in a row Stop (or SubagentStop) hooks may block the end of a turn: 8, Claude Code's cap (its
 * CHANGELOG, 2.1.143: "the turn now ends with a warning after 8 consecutive blocks"), overridden as there by
 * `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP`. Past it the turn ends with a line saying so.
 */
export const DEFAULT_STOP_HOOK_BLOCK_CAP = 8;

/** Events whose matcher is compared with something (the tool name, the source, the trigger). */
const MATCHED_EVENTS: ReadonlySet<HookEventName> = new Set([
  "PreToolUse",
  "PostToolUse",
  "PostToolUseFailure",
  "PermissionRequest",
  "SubagentStart",
  "SessionStart",
  "SessionEnd",
  "PreCompact",
  "PostCompact",
  "StopFailure",
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
  /** The id of the prompt being worked on, sent as `prompt_id` (none between prompts). Default none. */
  promptId?: () => string | undefined;
  /** Default DEFAULT_STOP_HOOK_BLOCK_CAP. */
  stopBlockCap?: number;
  /** Home directory for `~/` in `if` rules. Default `os.homedir()`. */
  home?: string;
}

/** What an `async: true` hook said once it finished, for the next prompt (docs/HOOKS.md "async"). */
export interface AsyncHookResult {
  event: HookEventName;
  context: string[];
  notices: string[];
}

/** State a runner shares with the runners `withFields` makes from it: background hooks and their results. */
interface AsyncState {
  results: AsyncHookResult[];
  running: Set<Promise<void>>;
  controller: AbortController;
}

const DECISION_RANK = { allow: 1, ask: 2, deny: 3 } as const;

/** Stdin fields a scoped runner adds: to every event, and to one event only (a subagent's SubagentStop). */
export interface HookFields {
  all?: Record<string, unknown>;
  byEvent?: Partial<Record<HookEventName, Record<string, unknown>>>;
}

export class HookRunner {
  readonly #options: HookRunnerOptions;
  readonly #fields: HookFields;
  readonly #async: AsyncState;

  constructor(options: HookRunnerOptions, fields: HookFields = {}, shared?: AsyncState) {
    this.#options = options;
    this.#fields = fields;
    this.#async = shared ?? { results: [], running: new Set(), controller: new AbortController() };
  }

  /** Whether any hook is configured for `event` (callers skip building the input otherwise). */
  has(event: HookEventName): boolean {
    return (this.#options.hooks[event]?.length ?? 0) > 0;
  }

  /** Consecutive Stop blocks honoured in one turn (DEFAULT_STOP_HOOK_BLOCK_CAP unless configured). */
  get stopBlockCap(): number {
    return this.#options.stopBlockCap ?? DEFAULT_STOP_HOOK_BLOCK_CAP;
  }

  /** The same hooks, with stdin fields added (a subagent's `agent_id`, `agent_type`); background state shared. */
  withFields(fields: HookFields): HookRunner {
    const byEvent = { ...this.#fields.byEvent };
    for (const [event, extra] of Object.entries(fields.byEvent ?? {}))
      byEvent[event as HookEventName] = { ...byEvent[event as HookEventName], ...extra };
    return new HookRunner(this.#options, { all: { ...this.#fields.all, ...fields.all }, byEvent }, this.#async);
  }

  /** What `async` hooks that have finished said, each once (the engine records it with the next prompt). */
  takeAsyncResults(): AsyncHookResult[] {
    return this.#async.results.splice(0);
  }

  /** Resolves when every background hook started so far has finished (tests; a clean shutdown). */
  async asyncIdle(): Promise<void> {
    while (this.#async.running.size > 0) await Promise.all([...this.#async.running]);
  }

  /** Stops background hooks still running (the session is ending; Claude Code cancels them too). */
  cancelAsync(): void {
    this.#async.controller.abort();
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
    const all = this.#matching(event, matchOn, fields);
    const outcome = emptyOutcome();
    if (all.length === 0) return outcome;
    const options = this.#options;
    const promptId = options.promptId?.();
    const stdin = JSON.stringify({
      session_id: options.sessionId,
      transcript_path: options.transcriptPath?.() ?? null,
      cwd: options.projectDir,
      ...(options.permissionMode ? { permission_mode: options.permissionMode() } : {}),
      hook_event_name: event,
      ...(promptId !== undefined ? { prompt_id: promptId } : {}),
      ...this.#fields.all,
      ...this.#fields.byEvent?.[event],
      ...fields,
    });
    for (const hook of all.filter((candidate) => candidate.async === true)) this.#startAsync(event, hook, stdin);
    const commands = all.filter((candidate) => candidate.async !== true);
    const results = await Promise.all(commands.map((hook) => this.#runUnlessBackgrounded(event, hook, stdin, signal)));
    for (const ran of results) {
      if (ran === undefined) continue;
      outcome.ran++;
      this.#fold(event, ran.hook.command, ran.result, ran.timeoutMs, outcome);
    }
    return outcome;
  }

  /**
   * A hook waited for, unless its first stdout line sends it to the background (`{"async": true}`, as the
   * security-guidance plugin's SessionStart hook does while it builds a virtualenv): then, as in Claude Code,
   * nothing waits for it and what it says later comes with the next prompt. Undefined when backgrounded.
   */
  async #runUnlessBackgrounded(event: HookEventName, hook: CommandHookSetting, stdin: string, signal?: AbortSignal) {
    let announce = () => {};
    const announced = new Promise<"backgrounded">((resolve) => {
      announce = () => resolve("backgrounded");
    });
    const running = this.#runOne(hook, stdin, signal, announce);
    const first = await Promise.race([running, announced]);
    if (first !== "backgrounded") return first;
    this.#background(event, hook, running);
    return undefined;
  }

  /**
   * An `async: true` hook: started, not waited for. It cannot block or decide anything (the action has gone on);
   * once it ends, its context and notices wait in `takeAsyncResults` for the next prompt (Claude Code delivers an
   * async hook's `systemMessage` / `additionalContext` on the next conversation turn).
   */
  #startAsync(event: HookEventName, hook: CommandHookSetting, stdin: string): void {
    this.#background(
      event,
      hook,
      this.#runOne(hook, stdin, undefined, () => {}),
    );
  }

  /** Folds a background hook's result, once it ends, into `takeAsyncResults`. */
  #background(
    event: HookEventName,
    hook: CommandHookSetting,
    run: Promise<{ result: HookCommandResult; timeoutMs: number }>,
  ): void {
    const state = this.#async;
    const running: Promise<void> = run.then(({ result, timeoutMs }) => {
      const folded = emptyOutcome();
      this.#fold(event, hook.command, result, timeoutMs, folded);
      // asyncRewake: what it would have blocked with is for the model, after the hook's own message.
      if (folded.block !== undefined && hook.rewake !== undefined) {
        folded.context.push([hook.rewake.message, folded.block].filter((text) => text !== undefined).join("\n"));
        folded.notices.push(`${event} hook "${shorten(hook.command)}": ${hook.rewake.summary ?? "found something"}`);
      } else if (folded.block !== undefined)
        folded.notices.push(`${event} hook "${shorten(hook.command)}" (async) cannot block: ${oneLine(folded.block)}`);
      if (folded.context.length > 0 || folded.notices.length > 0)
        state.results.push({ event, context: folded.context, notices: folded.notices });
      state.running.delete(running);
    });
    state.running.add(running);
  }

  async #runOne(hook: CommandHookSetting, stdin: string, signal: AbortSignal | undefined, onAsync?: () => void) {
    const options = this.#options;
    // An untrusted folder's guard: not run, and what it would have checked is refused (fail closed).
    if (hook.withheld === true) return { hook, result: withheldHookResult(shorten(hook.command)), timeoutMs: 0 };
    // A plugin's hook also gets CLAUDE_PLUGIN_ROOT (docs/PLUGINS.md); the project directory stays the runner's.
    const env = { ...options.env, ...hook.env, CLAUDE_PROJECT_DIR: options.projectDir };
    const timeoutMs =
      hook.timeoutSeconds !== undefined ? hook.timeoutSeconds * 1000 : (options.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS);
    const result = await runHookCommand({
      command: hook.command,
      cwd: options.projectDir,
      env,
      stdin,
      timeoutMs,
      maxOutputChars: options.maxOutputChars ?? DEFAULT_HOOK_OUTPUT_CHARS,
      // A hook that may go to the background is stopped with the session too (cancelAsync).
      signal:
        signal !== undefined ? AbortSignal.any([signal, this.#async.controller.signal]) : this.#async.controller.signal,
      ...(onAsync !== undefined ? { onAsync } : {}),
    });
    return { hook, result, timeoutMs };
  }

  /**
   * The distinct commands of the groups whose matcher fits and whose `if` the call satisfies (the same command
   * from two files runs once).
   */
  #matching(event: HookEventName, matchOn: string | undefined, fields: Record<string, unknown>): CommandHookSetting[] {
    const groups: readonly HookMatcherSetting[] = this.#options.hooks[event] ?? [];
    const seen = new Set<string>();
    const commands: CommandHookSetting[] = [];
    for (const group of groups) {
      if (MATCHED_EVENTS.has(event) && !matcherAccepts(group.matcher, matchOn)) continue;
      for (const hook of group.hooks) {
        if (seen.has(hook.command)) continue;
        const scope = { cwd: this.#options.projectDir, home: this.#options.home ?? homedir() };
        if (hook.if !== undefined && !hookConditionMatches(hook.if, fields, scope)) continue;
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
    // bash's 127 (not found) and 126 (not executable): the hook never ran, which for a guard means the call
    // went ahead unchecked. Said plainly, on screen (docs/TRUST.md, "Fail closed").
    if (result.exitCode === 126 || result.exitCode === 127) {
      const why = result.exitCode === 127 ? "command or script not found" : "script is not executable";
      const meant =
        event === "PreToolUse" ? "the tool call went ahead WITHOUT this hook's check" : "going on without it";
      outcome.notices.push(
        `${name} could not run (exit ${result.exitCode}: ${why}${stderr !== "" ? `: ${oneLine(stderr)}` : ""}); ${meant}`,
      );
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
    if (event === "PermissionRequest") {
      // Deny beats allow across hooks, as PreToolUse's decisions do.
      const decision = specific?.decision;
      if (decision !== undefined && outcome.permissionRequest?.behavior !== "deny")
        outcome.permissionRequest = {
          behavior: decision.behavior,
          ...(decision.message !== undefined ? { message: decision.message } : {}),
        };
      return;
    }
    if (output.decision === "block" && BLOCKING_EVENTS.has(event))
      appendBlock(outcome, output.reason ?? `${name} blocked this without a reason`);
  }
}
