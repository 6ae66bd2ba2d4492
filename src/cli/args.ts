/**
 * Command-line flags, spelled like Claude Code's so habits carry over. Parsing is `node:util` `parseArgs`
 * plus value checks; any problem is a `UsageError` (one line, then the usage, exit 2).
 */
import { parseArgs } from "node:util";
import { EFFORT_LEVELS, type EffortLevel } from "../messages/index.js";
import { deprecatedProfileSpellings, PROVIDER_NAMES, type ProviderName } from "../provider/index.js";
import type { Settings } from "../settings/index.js";
import { PROJECT_KEY_PATTERN } from "../transcript/index.js";
import type { TrustGate } from "../trust/index.js";
import {
  applyClaudeCodeOptions,
  CLAUDE_CODE_OPTIONS,
  type ClaudeCodeChoices,
  checkClaudeCodeCombinations,
  foldVariadicOptions,
} from "./claude-code-flags.js";
import { closestMatch } from "./did-you-mean.js";
import { UsageError } from "./usage-error.js";

export type OutputFormat = "text" | "json" | "stream-json";
export type CliPermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan";

export const OUTPUT_FORMATS: readonly OutputFormat[] = ["text", "json", "stream-json"];
export const PERMISSION_MODES: readonly CliPermissionMode[] = ["default", "acceptEdits", "bypassPermissions", "plan"];

/**
 * Claude Code's other mode names: `dontAsk` (never asks: what no rule allows is denied) and `manual` (its name
 * for the asking default) run as `default` with or without the question; `auto` (a model classifier approves
 * what it judges safe) is refused, as threadline has no such classifier and will not approve on a guess.
 */
export const CLAUDE_CODE_MODE_ALIASES = ["dontAsk", "manual"] as const;

/** Environment variable that overrides the model table's context window (like `--context-window`). */
export const CONTEXT_WINDOW_ENV = "THREADLINE_CONTEXT_WINDOW";

/** Environment switch for the Bash sandbox: "1" wants it, "0" turns it off (like `--sandbox` / `--no-sandbox`). */
export const SANDBOX_ENV = "THREADLINE_SANDBOX";

/** Exit code for bad flags or values. */
export const USAGE_EXIT_CODE = 2;

export { UsageError } from "./usage-error.js";

/** Everything the main command (print or interactive) needs, already validated. */
export interface CliOptions extends ClaudeCodeChoices {
  print: boolean;
  /** The prompt from positionals (may be empty: interactive, or stdin in print mode). */
  prompt: string;
  resume?: string;
  continue: boolean;
  /** `--fork-session`: with --resume/--continue, go on in a new session (new id) that starts as a copy. */
  forkSession: boolean;
  sessionId?: string;
  /** Project key sessions are filed under (`--continue` looks there). Default the cwd's slug. */
  project?: string;
  model?: string;
  /**
   * `--provider`: the protocol and platform; default from THREADLINE_USE_BEDROCK / THREADLINE_USE_VERTEX /
   * THREADLINE_USE_OPENAI_COMPATIBLE, else anthropic.
   */
  provider?: ProviderName;
  /** `--base-url`: the server; default the provider's variable (ANTHROPIC_BASE_URL, OPENAI_BASE_URL). */
  baseURL?: string;
  fallbackModel?: string;
  /** `--effort <level>`: the session's effort (output_config.effort where the server declares it). */
  effort?: EffortLevel;
  maxTurns?: number;
  outputFormat: OutputFormat;
  permissionMode: CliPermissionMode;
  /** `--permission-mode dontAsk`: never ask; what no rule allows is denied (also in the interactive mode). */
  dontAsk?: boolean;
  /** Whether the mode came from a flag (a settings file's `defaultMode` applies only when it did not). */
  permissionModeFromFlag?: boolean;
  /** `--settings <file | json>`: one more settings source, above every file. */
  settingsFlag?: string;
  /** The merged settings files (settings-options.ts), attached before the session opens. Default none. */
  settings?: Settings;
  /** The session's environment when settings add to it (`env` key); default the process's. */
  sessionEnv?: NodeJS.ProcessEnv;
  allowedTools: string[];
  disallowedTools: string[];
  systemPrompt?: string;
  appendSystemPrompt?: string;
  contextWindow?: number;
  /** `--sandbox` true, `--no-sandbox` false; undefined: on when bubblewrap works here. */
  sandbox?: boolean;
  /** `--sandbox-network`: sandboxed commands may use the network. Default false. */
  sandboxNetwork: boolean;
  /** `--mcp-config <file|json>`, repeatable: MCP server configurations, in order. Default none. */
  mcpConfigs: string[];
  /** `--strict-mcp-config`: only the `--mcp-config` servers (no `.mcp.json`, no settings). Default false. */
  strictMcpConfig: boolean;
  /** `--trust-folder`: run this folder's project hooks, MCP servers and env this once (docs/TRUST.md). Default false. */
  trustFolder?: boolean;
  /** `--without-project-code`: go on in an untrusted folder without its hooks, servers and env (print mode stops otherwise). */
  withoutProjectCode?: boolean;
  /** The folder's trust gate (settings-options.ts makes it); default none (everything runs, as for a library). */
  trustGate?: TrustGate;
  /** `--plugin-dir <path>`, repeatable: plugin folders on for this run (docs/PLUGINS.md). Default none. */
  pluginDirs: string[];
  /** `--no-memory`: read no CLAUDE.md / AGENTS.md memory files and offer no skills. Default false. */
  noMemory: boolean;
  /** `--rewind-to <n | prompt id>` (with --resume/--continue): go back to the end of that prompt's turn. */
  rewindTo?: string;
  /** `--rewind-mode`: what the rewind restores (docs/REWIND.md). Default both. */
  rewindMode: "both" | "conversation" | "code";
  verbose: boolean;
  includePartialMessages: boolean;
  help: boolean;
  version: boolean;
}

const OPTIONS = {
  print: { type: "boolean", short: "p" },
  resume: { type: "string", short: "r" },
  continue: { type: "boolean", short: "c" },
  "fork-session": { type: "boolean" },
  "session-id": { type: "string" },
  project: { type: "string" },
  model: { type: "string" },
  provider: { type: "string" },
  "base-url": { type: "string" },
  "fallback-model": { type: "string" },
  effort: { type: "string" },
  "max-turns": { type: "string" },
  "output-format": { type: "string" },
  "permission-mode": { type: "string" },
  settings: { type: "string" },
  "dangerously-skip-permissions": { type: "boolean" },
  allowedTools: { type: "string", multiple: true },
  "allowed-tools": { type: "string", multiple: true },
  disallowedTools: { type: "string", multiple: true },
  "disallowed-tools": { type: "string", multiple: true },
  "system-prompt": { type: "string" },
  "append-system-prompt": { type: "string" },
  "context-window": { type: "string" },
  sandbox: { type: "boolean" },
  "no-sandbox": { type: "boolean" },
  "sandbox-network": { type: "boolean" },
  "mcp-config": { type: "string", multiple: true },
  "strict-mcp-config": { type: "boolean" },
  "plugin-dir": { type: "string", multiple: true },
  "no-memory": { type: "boolean" },
  "trust-folder": { type: "boolean" },
  "without-project-code": { type: "boolean" },
  "rewind-to": { type: "string" },
  "rewind-mode": { type: "string" },
  verbose: { type: "boolean" },
  "include-partial-messages": { type: "boolean" },
  help: { type: "boolean", short: "h" },
  version: { type: "boolean", short: "v" },
  ...CLAUDE_CODE_OPTIONS,
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Parses the main command's argv (without node and script); throws `UsageError`. */
export function parseCliArgs(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = {},
  cwd: string = process.cwd(),
): CliOptions {
  const parsed = parseStrict(foldVariadicOptions(argv));
  const values = parsed.values;
  const outputFormat = oneOf(values["output-format"] ?? "text", OUTPUT_FORMATS, "--output-format");
  const mode = cliPermissionMode(values["permission-mode"]);
  let permissionMode = mode.mode;
  if (values["dangerously-skip-permissions"]) permissionMode = "bypassPermissions";
  const sessionId = values["session-id"];
  if (sessionId !== undefined && !UUID_PATTERN.test(sessionId)) {
    throw new UsageError(`--session-id must be a UUID, got "${sessionId}"`);
  }
  const options: CliOptions = {
    print: values.print ?? false,
    prompt: parsed.positionals.join(" "),
    continue: values.continue ?? false,
    forkSession: values["fork-session"] ?? false,
    outputFormat,
    permissionMode,
    allowedTools: splitToolLists([...(values.allowedTools ?? []), ...(values["allowed-tools"] ?? [])]),
    disallowedTools: splitToolLists([...(values.disallowedTools ?? []), ...(values["disallowed-tools"] ?? [])]),
    sandboxNetwork: values["sandbox-network"] ?? false,
    mcpConfigs: values["mcp-config"] ?? [],
    strictMcpConfig: values["strict-mcp-config"] ?? false,
    pluginDirs: values["plugin-dir"] ?? [],
    noMemory: values["no-memory"] ?? false,
    ...(values["trust-folder"] === true ? { trustFolder: true } : {}),
    ...(values["without-project-code"] === true ? { withoutProjectCode: true } : {}),
    rewindMode: oneOf(values["rewind-mode"] ?? "both", ["both", "conversation", "code"] as const, "--rewind-mode"),
    verbose: values.verbose ?? false,
    includePartialMessages: values["include-partial-messages"] ?? false,
    help: values.help ?? false,
    version: values.version ?? false,
    notices: [],
    ...(mode.dontAsk ? { dontAsk: true } : {}),
  };
  applyClaudeCodeOptions(options, values, cwd);
  options.notices.push(...deprecatedProfileSpellings(env));
  if (values["permission-mode"] !== undefined || values["dangerously-skip-permissions"] === true)
    options.permissionModeFromFlag = true;
  if (values.settings !== undefined) options.settingsFlag = nonEmpty(values.settings, "--settings");
  if (values.resume !== undefined) options.resume = nonEmpty(values.resume, "--resume");
  if (values["rewind-to"] !== undefined) options.rewindTo = nonEmpty(values["rewind-to"], "--rewind-to");
  if (sessionId !== undefined) options.sessionId = sessionId.toLowerCase();
  if (values.project !== undefined) options.project = projectKey(values.project);
  if (values.model !== undefined) options.model = nonEmpty(values.model, "--model");
  if (values.provider !== undefined) options.provider = oneOf(values.provider, PROVIDER_NAMES, "--provider");
  if (values["base-url"] !== undefined) options.baseURL = httpUrl(values["base-url"], "--base-url");
  if (values["fallback-model"] !== undefined)
    options.fallbackModel = nonEmpty(values["fallback-model"], "--fallback-model");
  if (values.effort !== undefined) options.effort = oneOf(values.effort, EFFORT_LEVELS, "--effort");
  if (values["max-turns"] !== undefined) options.maxTurns = positiveInteger(values["max-turns"], "--max-turns");
  if (values["system-prompt"] !== undefined) options.systemPrompt = values["system-prompt"];
  if (values["append-system-prompt"] !== undefined) options.appendSystemPrompt = values["append-system-prompt"];
  const window = values["context-window"] ?? emptyToUndefined(env[CONTEXT_WINDOW_ENV]);
  if (window !== undefined) {
    const source = values["context-window"] !== undefined ? "--context-window" : CONTEXT_WINDOW_ENV;
    options.contextWindow = positiveInteger(window, source);
  }
  const sandbox = sandboxChoice(values.sandbox, values["no-sandbox"], env[SANDBOX_ENV]);
  if (sandbox !== undefined) options.sandbox = sandbox;
  checkCombinations(options);
  checkClaudeCodeCombinations(options);
  return options;
}

/** `--permission-mode`: threadline's modes, Claude Code's aliases for them, and `auto` refused (above). */
function cliPermissionMode(value: string | undefined): { mode: CliPermissionMode; dontAsk: boolean } {
  if (value === "auto")
    throw new UsageError(
      "--permission-mode auto is not supported: threadline has no classifier to approve actions on its own; use default, acceptEdits or allow rules",
    );
  if (value === "dontAsk") return { mode: "default", dontAsk: true };
  if (value === "manual") return { mode: "default", dontAsk: false };
  const allowed = [...PERMISSION_MODES, ...CLAUDE_CODE_MODE_ALIASES];
  if (value !== undefined && !PERMISSION_MODES.some((candidate) => candidate === value))
    throw new UsageError(`--permission-mode must be one of ${allowed.join(", ")}; got "${value}"`);
  return { mode: (value as CliPermissionMode | undefined) ?? "default", dontAsk: false };
}

function sandboxChoice(on: boolean | undefined, off: boolean | undefined, setting: string | undefined) {
  if (on === true && off === true) throw new UsageError("--sandbox and --no-sandbox cannot be combined");
  if (on === true) return true;
  if (off === true) return false;
  const value = emptyToUndefined(setting?.trim());
  if (value === undefined) return undefined;
  if (value === "1" || value === "true") return true;
  if (value === "0" || value === "false") return false;
  throw new UsageError(`${SANDBOX_ENV} must be 1 or 0, got "${value}"`);
}

function parseStrict(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error));
  }
}

/** Every flag as typed on the command line (`--model`, `-p`). */
export const FLAG_NAMES: readonly string[] = Object.entries(OPTIONS).flatMap(([name, option]) => [
  `--${name}`,
  ...("short" in option ? [`-${option.short}`] : []),
]);

/** Our own one line for `parseArgs`'s errors (its text explains `--` quoting at length). */
function describeParseError(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const flag = /'(-[^',\s]+)/.exec(message)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && flag !== undefined) {
    const name = flag.split("=")[0] ?? flag;
    const suggestion = name.startsWith("--") ? closestMatch(name, FLAG_NAMES) : undefined;
    return `unknown option ${name}${suggestion !== undefined ? `; did you mean ${suggestion}?` : ""}`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const long = /(--[a-zA-Z-]+)/.exec(message)?.[1] ?? flag ?? "an option";
    if (message.includes("argument missing")) return `${long} needs a value`;
    if (message.includes("does not take an argument")) return `${long} takes no value`;
  }
  return firstLine(message);
}

function checkCombinations(options: CliOptions): void {
  if (options.resume !== undefined && options.continue)
    throw new UsageError("--resume and --continue cannot be combined");
  if (options.forkSession && options.resume === undefined && !options.continue)
    throw new UsageError("--fork-session branches a saved session: use it with --resume or --continue");
  if (options.sessionId !== undefined && (options.resume !== undefined || options.continue)) {
    throw new UsageError("--session-id starts a new session; it cannot be combined with --resume or --continue");
  }
  if (options.rewindTo !== undefined && options.resume === undefined && !options.continue)
    throw new UsageError("--rewind-to goes back in a saved session: add --resume <id> or --continue");
  if (options.outputFormat !== "text" && !options.print) {
    throw new UsageError(`--output-format ${options.outputFormat} only works with --print`);
  }
}

/**
 * Splits `--allowedTools "Read,Grep" "Bash(git log:*)"` into rules: commas and spaces separate, except
 * inside parentheses (a rule's argument pattern may contain spaces).
 */
export function splitToolLists(lists: readonly string[]): string[] {
  const rules: string[] = [];
  for (const list of lists) {
    let depth = 0;
    let current = "";
    for (const character of list) {
      if (character === "(") depth++;
      if (character === ")") depth = Math.max(0, depth - 1);
      if (depth === 0 && (character === "," || character === " ")) {
        if (current.trim() !== "") rules.push(current.trim());
        current = "";
        continue;
      }
      current += character;
    }
    if (current.trim() !== "") rules.push(current.trim());
  }
  return rules;
}

/** Checks a `--project` key: it names a folder in the file store, so no separators. */
export function projectKey(value: string): string {
  if (!PROJECT_KEY_PATTERN.test(value)) {
    throw new UsageError(`--project must be letters, digits, ".", "_" or "-" (a folder name), got "${value}"`);
  }
  return value;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], flag: string): T {
  const match = allowed.find((candidate) => candidate === value);
  if (match === undefined) throw new UsageError(`${flag} must be one of ${allowed.join(", ")}; got "${value}"`);
  return match;
}

function positiveInteger(value: string, flag: string): number {
  if (!/^\d+$/.test(value.trim()) || Number(value) <= 0 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}

function nonEmpty(value: string, flag: string): string {
  if (value.trim() === "") throw new UsageError(`${flag} needs a value`);
  return value;
}

function emptyToUndefined(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}

function firstLine(text: string): string {
  return text.split("\n")[0] ?? text;
}

/** An http(s) URL, or a `UsageError` naming the flag. */
function httpUrl(value: string, flag: string): string {
  try {
    const url = new URL(value);
    if (url.protocol === "http:" || url.protocol === "https:") return value;
  } catch {
    // reported below
  }
  throw new UsageError(`${flag} must be an http(s) URL, got ${JSON.stringify(value)}`);
}
