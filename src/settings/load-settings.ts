/**
 * Finds, reads and merges the settings files, lowest precedence first (docs/SETTINGS.md):
 *   ~/.claude/settings.json, $THREADLINE_HOME/settings.json            (user)
 *   .claude/settings.json, .threadline/settings.json                  (project, in the working directory)
 *   .claude/settings.local.json, .threadline/settings.local.json      (local)
 *   --settings <file | inline JSON>                                    (flag)
 *   /etc/claude-code/managed-settings.json (THREADLINE_MANAGED_SETTINGS) (managed: an administrator's, above all)
 * Within a scope threadline's own file comes after Claude Code's, so it wins. Single values (model, defaultMode,
 * compaction switches, memoryFiles) come from the highest file that sets them; env merges per name; permission
 * rules, additional directories, hooks and mcpServers are kept from every file.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { threadlineHome, userHome } from "../home/index.js";
import { parseSettingsFile } from "./parse-settings-file.js";
import { type ProjectCodeGate, withholdProjectCode } from "./project-code.js";
import {
  emptySettings,
  HOOK_EVENTS,
  type Settings,
  type SettingsProblem,
  type SettingsScope,
} from "./settings-types.js";

/** Claude Code's settings folder name, in the home directory and in a project. */
export const CLAUDE_SETTINGS_DIR = ".claude";

/** threadline's own project settings folder name. */
export const THREADLINE_SETTINGS_DIR = ".threadline";

export interface LoadSettingsOptions {
  /** The project directory (`.claude/` and `.threadline/` are looked for here). */
  cwd: string;
  /** For HOME and THREADLINE_HOME. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** `--settings`: a path to a JSON file, or the JSON itself. Default none. */
  flagSettings?: string;
  /**
   * The trust gate's question for the project's and local files' hooks, env and mcpServers (trust/, docs/TRUST.md).
   * Default: everything runs (library callers that read settings decide for themselves).
   */
  mayRunProjectCode?: ProjectCodeGate;
  /**
   * `--setting-sources`: the scopes whose files are read (Claude Code's user, project, local); the managed file and
   * `--settings` are always read. Default every scope.
   */
  sources?: readonly ("user" | "project" | "local")[];
}

export interface SettingsLocation {
  path: string;
  scope: SettingsScope;
  /** The directory `/path` rules in this file are relative to. */
  root: string;
}

/**
 * Claude Code's managed settings file on Linux, an administrator's: it wins over every other file and alone may
 * set `allowManagedHooksOnly` / `allowManagedPermissionRulesOnly`. `THREADLINE_MANAGED_SETTINGS` names another.
 */
export const MANAGED_SETTINGS_PATH = "/etc/claude-code/managed-settings.json";

/** A `--settings` value that names no readable file: one line, before anything runs. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

/** The files looked for, lowest precedence first (those that do not exist are skipped). */
export function settingsLocations(cwd: string, env: NodeJS.ProcessEnv = process.env): SettingsLocation[] {
  const home = userHome(env);
  return [
    { path: join(home, CLAUDE_SETTINGS_DIR, "settings.json"), scope: "user", root: home },
    { path: join(threadlineHome(env), "settings.json"), scope: "user", root: home },
    { path: join(cwd, CLAUDE_SETTINGS_DIR, "settings.json"), scope: "project", root: cwd },
    { path: join(cwd, THREADLINE_SETTINGS_DIR, "settings.json"), scope: "project", root: cwd },
    { path: join(cwd, CLAUDE_SETTINGS_DIR, "settings.local.json"), scope: "local", root: cwd },
    { path: join(cwd, THREADLINE_SETTINGS_DIR, "settings.local.json"), scope: "local", root: cwd },
  ];
}

/** Loads and merges every settings file; problems are lines to show, never reasons to stop. */
export function loadSettings(options: LoadSettingsOptions): { settings: Settings; problems: SettingsProblem[] } {
  const env = options.env ?? process.env;
  const home = userHome(env);
  const problems: SettingsProblem[] = [];
  let merged = emptySettings();
  let managed: Settings | undefined;
  const apply = (text: string, source: string, root: string, scope: SettingsScope = "flag") => {
    const parsed = parseSettingsFile(text, { source, root, home });
    problems.push(...parsed.problems);
    if (scope === "managed") managed = parsed.settings;
    else if (parsed.settings.managedOnly !== undefined) {
      for (const key of Object.keys(parsed.settings.managedOnly))
        problems.push({
          source,
          key: key === "hooks" ? "allowManagedHooksOnly" : "allowManagedPermissionRulesOnly",
          message: `is honoured only in the managed settings file (${managedPath(env)}); ignored here`,
        });
      delete parsed.settings.managedOnly;
    }
    for (const raw of parsed.settings.mcpServers) raw.scope = scope;
    const gate = options.mayRunProjectCode;
    const gated = scope === "project" || scope === "local";
    merged = mergeSettings(
      merged,
      gated && gate !== undefined ? withholdProjectCode(parsed.settings, source, gate) : parsed.settings,
    );
  };
  for (const location of settingsLocations(options.cwd, env)) {
    if (options.sources !== undefined && !options.sources.some((scope) => scope === location.scope)) continue;
    if (!existsSync(location.path)) continue;
    let text: string;
    try {
      text = readFileSync(location.path, "utf8");
    } catch (error) {
      problems.push({
        source: location.path,
        key: "",
        message: `cannot be read (${(error as Error).message}); skipped`,
      });
      continue;
    }
    apply(text, location.path, location.root, location.scope);
  }
  if (options.flagSettings !== undefined) {
    const value = options.flagSettings.trim();
    if (value.startsWith("{")) apply(value, "--settings", options.cwd);
    else {
      const path = resolve(options.cwd, value);
      let text: string;
      try {
        text = readFileSync(path, "utf8");
      } catch {
        throw new SettingsError(`--settings: no readable settings file at ${path}`);
      }
      apply(text, path, dirname(path));
    }
  }
  const managedFile = managedPath(env);
  if (existsSync(managedFile)) {
    try {
      apply(readFileSync(managedFile, "utf8"), managedFile, dirname(managedFile), "managed");
    } catch (error) {
      problems.push({ source: managedFile, key: "", message: `cannot be read (${(error as Error).message}); skipped` });
    }
  }
  return { settings: managed === undefined ? merged : managedOnly(merged, managed, managedFile, problems), problems };
}

function managedPath(env: NodeJS.ProcessEnv): string {
  return env.THREADLINE_MANAGED_SETTINGS ?? MANAGED_SETTINGS_PATH;
}

/**
 * The managed file's `allowManagedHooksOnly` keeps only its own hooks; `allowManagedPermissionRulesOnly` only its
 * own allow and ask rules. Deny rules from every file still hold (docs/INVARIANTS.md "Deny wins"): a rule that
 * only takes permissions away is never what an administrator meant to lift. Each is named in one line.
 */
function managedOnly(merged: Settings, managed: Settings, source: string, problems: SettingsProblem[]): Settings {
  const result = { ...merged, managedOnly: { ...managed.managedOnly } };
  if (managed.managedOnly?.hooks === true) {
    const dropped = HOOK_EVENTS.reduce(
      (count, event) => count + (merged.hooks[event]?.length ?? 0) - (managed.hooks[event]?.length ?? 0),
      0,
    );
    result.hooks = managed.hooks;
    if (dropped > 0)
      problems.push({
        source,
        key: "allowManagedHooksOnly",
        message: `only managed hooks run; ${dropped} hook entr${dropped === 1 ? "y" : "ies"} from other settings files (and every plugin's hooks) will not`,
      });
  }
  if (managed.managedOnly?.permissionRules === true) {
    const dropped =
      merged.permissions.allow.length +
      merged.permissions.ask.length -
      managed.permissions.allow.length -
      managed.permissions.ask.length;
    result.permissions = { ...merged.permissions, allow: managed.permissions.allow, ask: managed.permissions.ask };
    if (dropped > 0)
      problems.push({
        source,
        key: "allowManagedPermissionRulesOnly",
        message: `only managed allow and ask rules apply; ${dropped} from other settings files do not (their deny rules still do)`,
      });
  }
  return result;
}

/** `higher` over `lower`: single values from `higher` when it sets them, lists and hooks from both. */
export function mergeSettings(lower: Settings, higher: Settings): Settings {
  const hooks: Settings["hooks"] = {};
  for (const event of HOOK_EVENTS) {
    const groups = [...(lower.hooks[event] ?? []), ...(higher.hooks[event] ?? [])];
    if (groups.length > 0) hooks[event] = groups;
  }
  const defaultMode = higher.permissions.defaultMode ?? lower.permissions.defaultMode;
  const model = higher.model ?? lower.model;
  const effortLevel = higher.effortLevel ?? lower.effortLevel;
  const memoryFiles = higher.memoryFiles ?? lower.memoryFiles;
  const statusLine = higher.statusLine ?? lower.statusLine;
  const outputStyle = higher.outputStyle ?? lower.outputStyle;
  return {
    permissions: {
      allow: [...lower.permissions.allow, ...higher.permissions.allow],
      ask: [...lower.permissions.ask, ...higher.permissions.ask],
      deny: [...lower.permissions.deny, ...higher.permissions.deny],
      additionalDirectories: [
        ...new Set([...lower.permissions.additionalDirectories, ...higher.permissions.additionalDirectories]),
      ],
      ...(defaultMode !== undefined ? { defaultMode } : {}),
    },
    env: { ...lower.env, ...higher.env },
    hooks,
    mcpServers: [...lower.mcpServers, ...higher.mcpServers],
    compaction: { ...lower.compaction, ...higher.compaction },
    pause: { ...lower.pause, ...higher.pause },
    files: [...lower.files, ...higher.files],
    ...(model !== undefined ? { model } : {}),
    ...(effortLevel !== undefined ? { effortLevel } : {}),
    ...(memoryFiles !== undefined ? { memoryFiles } : {}),
    ...(statusLine !== undefined ? { statusLine } : {}),
    ...(outputStyle !== undefined ? { outputStyle } : {}),
    ...((higher.managedOnly ?? lower.managedOnly)
      ? { managedOnly: { ...(higher.managedOnly ?? lower.managedOnly) } }
      : {}),
  };
}
