/**
 * Finds, reads and merges the settings files, lowest precedence first (docs/SETTINGS.md):
 *   ~/.claude/settings.json, $THREADLINE_HOME/settings.json            (user)
 *   .claude/settings.json, .threadline/settings.json                  (project, in the working directory)
 *   .claude/settings.local.json, .threadline/settings.local.json      (local)
 *   --settings <file | inline JSON>                                    (flag)
 * Within a scope threadline's own file comes after Claude Code's, so it wins. Single values (model, defaultMode,
 * compaction switches, memoryFiles) come from the highest file that sets them; env merges per name; permission
 * rules, additional directories, hooks and mcpServers are kept from every file.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseSettingsFile } from "./parse-settings-file.js";
import {
  emptySettings,
  HOOK_EVENTS,
  type Settings,
  type SettingsProblem,
  type SettingsScope,
} from "./settings-types.js";

/** Environment variable naming threadline's home (also where transcripts go). */
export const THREADLINE_HOME_VARIABLE = "THREADLINE_HOME";

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
}

export interface SettingsLocation {
  path: string;
  scope: SettingsScope;
  /** The directory `/path` rules in this file are relative to. */
  root: string;
}

/** A `--settings` value that names no readable file: one line, before anything runs. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

function homeOf(env: NodeJS.ProcessEnv): string {
  const home = env.HOME;
  return home !== undefined && home !== "" ? home : homedir();
}

function threadlineHomeOf(env: NodeJS.ProcessEnv, home: string): string {
  const override = env[THREADLINE_HOME_VARIABLE];
  return override !== undefined && override !== "" ? override : join(home, ".threadline");
}

/** The files looked for, lowest precedence first (those that do not exist are skipped). */
export function settingsLocations(cwd: string, env: NodeJS.ProcessEnv = process.env): SettingsLocation[] {
  const home = homeOf(env);
  return [
    { path: join(home, CLAUDE_SETTINGS_DIR, "settings.json"), scope: "user", root: home },
    { path: join(threadlineHomeOf(env, home), "settings.json"), scope: "user", root: home },
    { path: join(cwd, CLAUDE_SETTINGS_DIR, "settings.json"), scope: "project", root: cwd },
    { path: join(cwd, THREADLINE_SETTINGS_DIR, "settings.json"), scope: "project", root: cwd },
    { path: join(cwd, CLAUDE_SETTINGS_DIR, "settings.local.json"), scope: "local", root: cwd },
    { path: join(cwd, THREADLINE_SETTINGS_DIR, "settings.local.json"), scope: "local", root: cwd },
  ];
}

/** Loads and merges every settings file; problems are lines to show, never reasons to stop. */
export function loadSettings(options: LoadSettingsOptions): { settings: Settings; problems: SettingsProblem[] } {
  const env = options.env ?? process.env;
  const home = homeOf(env);
  const problems: SettingsProblem[] = [];
  let merged = emptySettings();
  const apply = (text: string, source: string, root: string) => {
    const parsed = parseSettingsFile(text, { source, root, home });
    problems.push(...parsed.problems);
    merged = mergeSettings(merged, parsed.settings);
  };
  for (const location of settingsLocations(options.cwd, env)) {
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
    apply(text, location.path, location.root);
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
  return { settings: merged, problems };
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
  const memoryFiles = higher.memoryFiles ?? lower.memoryFiles;
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
    files: [...lower.files, ...higher.files],
    ...(model !== undefined ? { model } : {}),
    ...(memoryFiles !== undefined ? { memoryFiles } : {}),
  };
}
