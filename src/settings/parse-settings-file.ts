/**
 * One settings file's text → the settings it holds and a problem line for everything wrong in it. Each key is
 * validated on its own (and each list element on its own), so one bad value costs that value, never the file.
 * Shapes follow Claude Code's settings files (docs/SETTINGS.md).
 */
import { isAbsolute, join, resolve } from "node:path";
import { z } from "zod";
import {
  type CommandHookSetting,
  type CompactionSwitches,
  emptySettings,
  HOOK_EVENTS,
  type HookEventName,
  type HookMatcherSetting,
  type ScopedRule,
  type Settings,
  type SettingsPermissionMode,
  type SettingsProblem,
} from "./settings-types.js";

/** Where a file sits: its path (named in problems), the project root `/path` rules use, and the home for `~/`. */
export interface SettingsFileContext {
  source: string;
  root: string;
  home: string;
}

/**
 * Claude Code keys threadline accepts and does not act on (listed in docs/SETTINGS.md). Any other unknown key is
 * a problem line: it is most likely a typo of one that would have mattered.
 */
export const IGNORED_CLAUDE_CODE_KEYS: readonly string[] = [
  "$schema",
  "apiKeyHelper",
  "alwaysThinkingEnabled",
  "attribution",
  "autoUpdatesChannel",
  "awsAuthRefresh",
  "awsCredentialExport",
  "cleanupPeriodDays",
  "companyAnnouncements",
  "disabledMcpjsonServers",
  "enableAllProjectMcpServers",
  "enabledMcpjsonServers",
  "enabledPlugins",
  "extraKnownMarketplaces",
  "feedbackSurveyRate",
  "fileSuggestion",
  "forceLoginMethod",
  "forceLoginOrgUUID",
  "includeCoAuthoredBy",
  "language",
  "otelHeadersHelper",
  "outputStyle",
  "plansDirectory",
  "respectGitignore",
  "sandbox",
  "spinnerTipsEnabled",
  "statusLine",
  "theme",
];

/** Keys inside `permissions` that Claude Code has and threadline ignores. */
const IGNORED_PERMISSION_KEYS: readonly string[] = ["disableBypassPermissionsMode"];

const SUPPORTED_MODES: readonly SettingsPermissionMode[] = ["default", "acceptEdits", "bypassPermissions"];

/** `Name` or `Name(specifier)`: the rule grammar of permission-rules.ts, checked here so a bad rule is named. */
const RULE_SYNTAX = /^[A-Za-z0-9_-]+(?:\(.*\))?$/s;

const stringList = z.array(z.unknown());
const envSchema = z.record(z.string(), z.unknown());
const commandHookSchema = z.object({
  type: z.literal("command"),
  command: z.string().min(1),
  timeout: z.number().positive().optional(),
});

type Problems = SettingsProblem[];

function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value)?.slice(0, 40)}`;
}

/** Parses one file's text. Never throws: invalid JSON is one problem and no settings. */
export function parseSettingsFile(
  text: string,
  context: SettingsFileContext,
): { settings: Settings; problems: SettingsProblem[] } {
  const settings = emptySettings();
  settings.files.push(context.source);
  const problems: Problems = [];
  const add = (key: string, message: string) => problems.push({ source: context.source, key, message });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    add("", `not valid JSON (${(error as Error).message.split("\n")[0]}); nothing from this file applies`);
    return { settings, problems };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    add("", `must be a JSON object, got ${describeType(data)}; nothing from this file applies`);
    return { settings, problems };
  }
  let hooksOff = false;
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    switch (key) {
      case "permissions":
        readPermissions(value, settings, context, add);
        break;
      case "env":
        readEnv(value, settings, add);
        break;
      case "model":
        if (typeof value === "string" && value.trim() !== "") settings.model = value.trim();
        else add("model", `must be a model name, got ${describeType(value)}; ignored`);
        break;
      case "hooks":
        readHooks(value, settings, context.source, add);
        break;
      case "disableAllHooks":
        if (typeof value === "boolean") hooksOff = value;
        else add("disableAllHooks", `must be true or false, got ${describeType(value)}; ignored`);
        break;
      case "mcpServers":
        settings.mcpServers.push({ source: context.source, root: context.root, value });
        break;
      case "compaction":
        readCompaction(value, settings, add);
        break;
      case "memoryFiles":
        if (typeof value === "boolean") settings.memoryFiles = value;
        else add("memoryFiles", `must be true or false, got ${describeType(value)}; ignored`);
        break;
      default:
        if (!IGNORED_CLAUDE_CODE_KEYS.includes(key))
          add(key, "is not a setting threadline or Claude Code knows; ignored (the rest of the file applies)");
    }
  }
  if (hooksOff) settings.hooks = {};
  return { settings, problems };
}

function readPermissions(
  value: unknown,
  settings: Settings,
  context: SettingsFileContext,
  add: (key: string, message: string) => void,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    add("permissions", `must be an object, got ${describeType(value)}; no permission rules from this file`);
    return;
  }
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    const path = `permissions.${key}`;
    switch (key) {
      case "allow":
      case "ask":
      case "deny":
        settings.permissions[key].push(...readRules(item, path, context, add));
        break;
      case "defaultMode": {
        const mode = SUPPORTED_MODES.find((candidate) => candidate === item);
        if (mode !== undefined) settings.permissions.defaultMode = mode;
        else add(path, `${JSON.stringify(item)} is not a mode threadline has (${SUPPORTED_MODES.join(", ")}); ignored`);
        break;
      }
      case "additionalDirectories":
        settings.permissions.additionalDirectories.push(...readDirectories(item, path, context, add));
        break;
      default:
        if (!IGNORED_PERMISSION_KEYS.includes(key))
          add(path, "is not a permissions key (allow, ask, deny, defaultMode, additionalDirectories); ignored");
    }
  }
}

function readRules(
  value: unknown,
  path: string,
  context: SettingsFileContext,
  add: (key: string, message: string) => void,
): ScopedRule[] {
  const list = stringList.safeParse(value);
  if (!list.success) {
    add(path, `must be a list of rules, got ${describeType(value)}; ignored`);
    return [];
  }
  const rules: ScopedRule[] = [];
  list.data.forEach((item, index) => {
    if (typeof item !== "string" || !RULE_SYNTAX.test(item.trim())) {
      add(`${path}[${index}]`, `${JSON.stringify(item)?.slice(0, 80)} is not a rule like "Bash(npm test:*)"; ignored`);
      return;
    }
    rules.push({ rule: item.trim(), root: context.root, source: context.source });
  });
  return rules;
}

function readDirectories(
  value: unknown,
  path: string,
  context: SettingsFileContext,
  add: (key: string, message: string) => void,
): string[] {
  const list = stringList.safeParse(value);
  if (!list.success) {
    add(path, `must be a list of directories, got ${describeType(value)}; ignored`);
    return [];
  }
  const directories: string[] = [];
  list.data.forEach((item, index) => {
    if (typeof item !== "string" || item.trim() === "") {
      add(`${path}[${index}]`, `must be a directory path, got ${describeType(item)}; ignored`);
      return;
    }
    const text = item.trim();
    if (text === "~" || text.startsWith("~/")) directories.push(join(context.home, text.slice(1)));
    else directories.push(isAbsolute(text) ? text : resolve(context.root, text));
  });
  return directories;
}

function readEnv(value: unknown, settings: Settings, add: (key: string, message: string) => void): void {
  const record = envSchema.safeParse(value);
  if (!record.success || Array.isArray(value)) {
    add("env", `must be an object of NAME: "value", got ${describeType(value)}; ignored`);
    return;
  }
  for (const [name, item] of Object.entries(record.data)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      add(`env.${name}`, "is not a variable name; ignored");
      continue;
    }
    // Claude Code accepts numbers and booleans here too and passes them as text.
    if (typeof item === "string") settings.env[name] = item;
    else if (typeof item === "number" || typeof item === "boolean") settings.env[name] = String(item);
    else add(`env.${name}`, `must be a string, got ${describeType(item)}; ignored`);
  }
}

function readCompaction(value: unknown, settings: Settings, add: (key: string, message: string) => void): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    add("compaction", `must be an object like {"autocompact": false}, got ${describeType(value)}; ignored`);
    return;
  }
  const switches: CompactionSwitches = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (key !== "snip" && key !== "microcompact" && key !== "collapse" && key !== "autocompact") {
      add(`compaction.${key}`, "is not a compaction switch (snip, microcompact, collapse, autocompact); ignored");
      continue;
    }
    if (typeof item !== "boolean") {
      add(`compaction.${key}`, `must be true or false, got ${describeType(item)}; ignored`);
      continue;
    }
    switches[key] = item;
  }
  settings.compaction = switches;
}

function readHooks(
  value: unknown,
  settings: Settings,
  source: string,
  add: (key: string, message: string) => void,
): void {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    add("hooks", `must be an object of event names, got ${describeType(value)}; no hooks from this file`);
    return;
  }
  for (const [event, groups] of Object.entries(value as Record<string, unknown>)) {
    const name = HOOK_EVENTS.find((candidate) => candidate === event);
    if (name === undefined) {
      add(`hooks.${event}`, `is not an event threadline runs (${HOOK_EVENTS.join(", ")}); ignored`);
      continue;
    }
    const kept = readMatcherGroups(groups, `hooks.${event}`, source, add);
    if (kept.length > 0) settings.hooks[name as HookEventName] = kept;
  }
}

function readMatcherGroups(
  value: unknown,
  path: string,
  source: string,
  add: (key: string, message: string) => void,
): HookMatcherSetting[] {
  if (!Array.isArray(value)) {
    add(path, `must be a list of {"matcher", "hooks"}, got ${describeType(value)}; ignored`);
    return [];
  }
  const groups: HookMatcherSetting[] = [];
  value.forEach((group, index) => {
    const at = `${path}[${index}]`;
    if (typeof group !== "object" || group === null || Array.isArray(group)) {
      add(at, `must be an object with "hooks", got ${describeType(group)}; ignored`);
      return;
    }
    const { matcher = "", hooks } = group as { matcher?: unknown; hooks?: unknown };
    if (typeof matcher !== "string") {
      add(`${at}.matcher`, `must be a string, got ${describeType(matcher)}; this entry is ignored`);
      return;
    }
    if (!validMatcher(matcher)) {
      add(`${at}.matcher`, `${JSON.stringify(matcher)} is not a valid regular expression; this entry is ignored`);
      return;
    }
    if (!Array.isArray(hooks)) {
      add(`${at}.hooks`, `must be a list of {"type": "command", "command": …}, got ${describeType(hooks)}; ignored`);
      return;
    }
    const commands: CommandHookSetting[] = [];
    hooks.forEach((hook, hookIndex) => {
      const parsed = commandHookSchema.safeParse(hook);
      if (!parsed.success) {
        const type = (hook as { type?: unknown } | null)?.type;
        const why =
          typeof type === "string" && type !== "command"
            ? `type "${type}" is not run by threadline (only "command")`
            : `must be {"type": "command", "command": "…", "timeout"?: seconds}`;
        add(`${at}.hooks[${hookIndex}]`, `${why}; ignored`);
        return;
      }
      commands.push({
        command: parsed.data.command,
        source,
        ...(parsed.data.timeout !== undefined ? { timeoutSeconds: parsed.data.timeout } : {}),
      });
    });
    if (commands.length > 0) groups.push({ matcher, hooks: commands });
  });
  return groups;
}

function validMatcher(matcher: string): boolean {
  if (matcher === "" || matcher === "*") return true;
  try {
    new RegExp(`^(?:${matcher})$`);
    return true;
  } catch {
    return false;
  }
}

/** For tests and the README: the keys threadline acts on. */
export const SUPPORTED_KEYS: readonly string[] = [
  "permissions",
  "env",
  "model",
  "hooks",
  "disableAllHooks",
  "mcpServers",
  "compaction",
  "memoryFiles",
];

export type { CompactionSwitches };
