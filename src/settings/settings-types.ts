/**
 * What threadline takes from settings files (Claude Code's `.claude/settings.json` family and threadline's own),
 * after validation and merging. docs/SETTINGS.md lists the files, their precedence and every key.
 */
import type { EffortLevel } from "../messages/index.js";
import type { PauseSettingValues } from "./pause-settings.js";

/** Which file a setting came from, lowest precedence first (see `SETTINGS_SCOPES`). */
export type SettingsScope = "user" | "project" | "local" | "flag" | "managed";

/** Lowest precedence first: a later scope's single values win; lists from every scope are kept. */
export const SETTINGS_SCOPES: readonly SettingsScope[] = ["user", "project", "local", "flag", "managed"];

/** The hook events threadline runs, named as Claude Code names them. */
export const HOOK_EVENTS = [
  "PreToolUse",
  "PostToolUse",
  "UserPromptSubmit",
  "SessionStart",
  "SessionEnd",
  "Stop",
  "SubagentStop",
  "PreCompact",
  "Notification",
  "PostToolUseFailure",
  "PermissionRequest",
  "SubagentStart",
  "PostCompact",
  "StopFailure",
] as const;

/**
 * Events Claude Code documents that threadline never fires (docs/HOOKS.md "Where threadline differs"): a hook
 * for one is named once at start as not run, apart from a misspelt event name.
 */
export const UNFIRED_HOOK_EVENTS: readonly string[] = [
  "Setup",
  "PermissionDenied",
  "ConfigChange",
  "InstructionsLoaded",
  "CwdChanged",
  "FileChanged",
  "WorktreeCreate",
  "WorktreeRemove",
  "TeammateIdle",
  "TaskCreated",
  "TaskCompleted",
];

export type HookEventName = (typeof HOOK_EVENTS)[number];

/** A permission rule with the file it came from and the directory its `/path` patterns are relative to. */
export interface ScopedRule {
  /** The rule as written: `Bash(npm test:*)`, `Read(./secrets/**)`, `mcp__github`. */
  rule: string;
  /** Directory a `/path` pattern is relative to: the project the settings file belongs to. */
  root: string;
  /** The settings file (or `--settings` / flag) it came from. */
  source: string;
}

/** One `{"type": "command", "command": …}` hook. */
export interface CommandHookSetting {
  command: string;
  /** Seconds before the hook is killed. Default: the runner's DEFAULT_HOOK_TIMEOUT_MS (60 s). */
  timeoutSeconds?: number;
  /** The settings file it came from (named in notices). */
  source: string;
  /** Variables this hook's process gets on top of the runner's (a plugin's `CLAUDE_PLUGIN_ROOT`). Default none. */
  env?: Readonly<Record<string, string>>;
  /**
   * `if`: a permission rule (`Bash(git commit:*)`, `Edit(src/**)`) the tool call must match for the hook to run;
   * only tool events have one. Default none (every call the matcher accepts).
   */
  if?: string;
  /** `async: true`: runs in the background, never blocks; what it says reaches the next prompt. Default false. */
  async?: boolean;
  /**
   * `asyncRewake: true` (with `async` implied): runs in the background, and when it exits 2 its stderr, after
   * `rewakeMessage`, goes to the model with the next prompt instead of being a line that it cannot block
   * (`rewakeSummary` is the person's line). Default none.
   */
  rewake?: { message?: string; summary?: string };
  /**
   * An untrusted folder's PreToolUse hook: never run, and the calls it would have checked are refused
   * (settings/project-code.ts; docs/TRUST.md "Fail closed"). Default false.
   */
  withheld?: true;
}

/** `statusLine`: the command the interactive terminal runs for its status line (docs/SETTINGS.md). */
export interface StatusLineSetting {
  command: string;
  /** Columns of space before the command's text. Default 0. */
  padding: number;
  /** The settings file it came from (named in notices). */
  source: string;
}

/** One entry of an event's list: a tool-name matcher and the hooks it runs. */
export interface HookMatcherSetting {
  /** Regular expression over the whole name, `|` lists, `*` or "" for all. Default "" (all). */
  matcher: string;
  hooks: CommandHookSetting[];
}

export type HooksSettings = Partial<Record<HookEventName, HookMatcherSetting[]>>;

/** The permission modes a settings file may ask for (Claude Code's names threadline has). */
/** Claude Code's `defaultMode` values threadline runs (`dontAsk` and `manual` as the CLI's flag: cli/args.ts). */
export type SettingsPermissionMode = "default" | "acceptEdits" | "bypassPermissions" | "plan" | "dontAsk" | "manual";

/** Threadline's own compaction switches (`"compaction": {"snip": true}`); unset keeps the engine's default. */
export interface CompactionSwitches {
  snip?: boolean;
  microcompact?: boolean;
  collapse?: boolean;
  autocompact?: boolean;
}

/** The raw `mcpServers` object of one file, for the MCP loader to parse (it knows the server shapes). */
export interface RawMcpServers {
  source: string;
  /** The directory relative paths in it are resolved against. */
  root: string;
  value: unknown;
  /** The file's scope (set by loadSettings): project and local servers never expand secret variables. */
  scope?: SettingsScope;
}

export interface Settings {
  permissions: {
    allow: ScopedRule[];
    ask: ScopedRule[];
    deny: ScopedRule[];
    /** Highest-precedence `defaultMode`. Default undefined (the CLI's own default). */
    defaultMode?: SettingsPermissionMode;
    /** Absolute paths, from every file. */
    additionalDirectories: string[];
  };
  /** Environment for the session and its tool processes (higher precedence wins per name). */
  env: Record<string, string>;
  /** Highest-precedence `model`. Default undefined. */
  model?: string;
  /** Highest-precedence `effortLevel` (Claude Code's key): the session's effort unless `--effort` names one. */
  effortLevel?: EffortLevel;
  hooks: HooksSettings;
  /** `mcpServers` of every file that has one, lowest precedence first. */
  mcpServers: RawMcpServers[];
  compaction: CompactionSwitches;
  /** `cacheTtl`, `keepWarm`, `keepWarmLimitMinutes`: how pauses are paid for, each from the highest file. */
  pause: PauseSettingValues;
  /**
   * `memoryFiles`: whether CLAUDE.md / AGENTS.md memory files load. Default undefined (the engine's default).
   * Wiring point for the memory loader's engine option.
   */
  memoryFiles?: boolean;
  /** Highest-precedence `statusLine` (a project's only in a trusted folder). Default none. */
  statusLine?: StatusLineSetting;
  /** Highest-precedence `outputStyle` (a style's name). Default none: the default style. */
  outputStyle?: string;
  /** Files that were read, lowest precedence first. */
  files: string[];
  /**
   * `allowManagedHooksOnly` / `allowManagedPermissionRulesOnly`, honoured only from the managed settings file
   * (docs/SETTINGS.md "Managed settings"). Default none.
   */
  managedOnly?: { hooks?: boolean; permissionRules?: boolean };
}

/** One thing wrong in a settings file: which file, which key, and what was kept. */
export interface SettingsProblem {
  source: string;
  /** The key path, e.g. `permissions.allow[2]`; "" for the file as a whole. */
  key: string;
  message: string;
  /** The line of the file it is on, when known (named as `file:line`). Default none. */
  line?: number;
  /**
   * A guard that cannot be read (deny rules lost to a typo, a duplicate key): the session must not start
   * (docs/TRUST.md, "Fail closed"). Default false: one line, and the rest applies.
   */
  fatal?: true;
}

/** `source: key: message` — the one line a person sees for a problem. */
export function formatSettingsProblem(problem: SettingsProblem): string {
  const where = problem.line !== undefined ? `${problem.source}:${problem.line}` : problem.source;
  const line = problem.key === "" ? `${where}: ${problem.message}` : `${where}: ${problem.key}: ${problem.message}`;
  // A key (or value quoted in the message) may hold line breaks: the problem stays one line.
  return line.replace(/[\r\n\u2028\u2029]+/g, " ");
}

export function emptySettings(): Settings {
  return {
    permissions: { allow: [], ask: [], deny: [], additionalDirectories: [] },
    env: {},
    hooks: {},
    mcpServers: [],
    compaction: {},
    pause: {},
    files: [],
  };
}
