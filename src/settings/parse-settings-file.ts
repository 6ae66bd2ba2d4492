/**
 * One settings file's text → the settings it holds and a problem line for everything wrong in it. Each key is
 * validated on its own (and each list element on its own), so one bad value costs that value, never the file.
 * Shapes follow Claude Code's settings files (docs/SETTINGS.md).
 */
import { isAbsolute, join, resolve } from "node:path";
import * as z from "zod";
import { EFFORT_LEVELS, isEffortLevel } from "../messages/index.js";
import { findDuplicateKey, lineAt, parseErrorLine } from "./duplicate-keys.js";
import { describeType, readHooks } from "./parse-hooks.js";
import { isPauseSettingKey, PAUSE_SETTING_KEYS, readPauseSetting } from "./pause-settings.js";
import { salvageDenyRules } from "./salvage-deny.js";
import {
  type CompactionSwitches,
  emptySettings,
  type ScopedRule,
  type Settings,
  type SettingsPermissionMode,
  type SettingsProblem,
} from "./settings-types.js";
import { readOutputStyle, readStatusLine } from "./status-line-setting.js";

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
  "plansDirectory",
  "respectGitignore",
  "sandbox",
  "spinnerTipsEnabled",
  "strictKnownMarketplaces",
  "blockedMarketplaces",
  "theme",
];

/**
 * Keys of that list threadline reads elsewhere or that are no setting at all: never named as not acted on
 * (`enabledPlugins` and `extraKnownMarketplaces` are the plugin loader's, docs/PLUGINS.md).
 */
const READ_ELSEWHERE: readonly string[] = ["$schema", "enabledPlugins", "extraKnownMarketplaces"];

/** Keys inside `permissions` that Claude Code has and threadline ignores. */
const IGNORED_PERMISSION_KEYS: readonly string[] = ["disableBypassPermissionsMode"];

/** Every key inside `permissions` the reader knows (docs/TRUST.md lists each, as `permissions.<key>`). */
export const PERMISSION_KEYS: readonly string[] = [
  "allow",
  "ask",
  "deny",
  "defaultMode",
  "additionalDirectories",
  ...IGNORED_PERMISSION_KEYS,
];

/** Keys honoured only from the managed settings file (load-settings.ts names them anywhere else). */
export const MANAGED_ONLY_KEYS: readonly string[] = ["allowManagedHooksOnly", "allowManagedPermissionRulesOnly"];

const SUPPORTED_MODES: readonly SettingsPermissionMode[] = [
  "default",
  "acceptEdits",
  "bypassPermissions",
  "plan",
  "dontAsk",
  "manual",
];

/** `Name` or `Name(specifier)`: the rule grammar of permission-rules.ts, checked here so a bad rule is named. */
const RULE_SYNTAX = /^[A-Za-z0-9_-]+(?:\(.*\))?$/s;

const stringList = z.array(z.unknown());
const envSchema = z.record(z.string(), z.unknown());

type Problems = SettingsProblem[];

/** Parses one file's text. Never throws: invalid JSON is one problem and no settings. */
export function parseSettingsFile(
  text: string,
  context: SettingsFileContext,
): { settings: Settings; problems: SettingsProblem[] } {
  const settings = emptySettings();
  settings.files.push(context.source);
  const problems: Problems = [];
  const add = (key: string, message: string) => problems.push({ source: context.source, key, message });
  // Fail closed: a guard that cannot be read stops the session (docs/TRUST.md), with the file and the line.
  const stop = (key: string, message: string, line: number | undefined) => {
    problems.push({ source: context.source, key, message, ...(line !== undefined ? { line } : {}), fatal: true });
    return { settings, problems };
  };
  // A deny rule that cannot be read is a lost guard: it stops the session, at the deny list's line.
  const denyAt = text.indexOf("deny");
  const denyProblem = (key: string, message: string) => {
    stop(
      key,
      `${message.replace(/; ignored$/, "")}; threadline stops rather than run without this deny rule (fix the file)`,
      denyAt < 0 ? undefined : lineAt(text, denyAt),
    );
  };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    const why = `not valid JSON (${(error as Error).message.split("\n")[0]})`;
    // Fail closed: the file's deny rules still apply when they can be read (salvage-deny.ts); when a file that
    // names deny rules cannot give them up, nothing runs.
    const deny = salvageDenyRules(text);
    if (deny === undefined && text.includes("deny"))
      return stop(
        "",
        `${why}, and its deny rules cannot be read; threadline stops rather than run without them (fix the file)`,
        parseErrorLine(text, error),
      );
    const rules = deny === undefined ? [] : readRules(deny, "permissions.deny", context, denyProblem);
    settings.permissions.deny.push(...rules);
    add(
      "",
      rules.length > 0
        ? `${why}; only its ${rules.length} deny rule(s) apply (read leniently), nothing else from this file`
        : `${why}; nothing from this file applies, and its deny rules (if any) were NOT applied`,
    );
    return { settings, problems };
  }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    add("", `must be a JSON object, got ${describeType(data)}; nothing from this file applies`);
    return { settings, problems };
  }
  // JSON.parse keeps the last of two equal keys: a second "permissions" block would drop the first one's rules.
  const duplicate = findDuplicateKey(text);
  if (duplicate !== undefined)
    return stop(
      "",
      `duplicate key "${duplicate.path === "" ? "" : `${duplicate.path}.`}${duplicate.key}" (JSON would keep only the last, dropping what the first holds); threadline stops rather than guess (merge or remove one)`,
      duplicate.line,
    );
  let hooksOff = false;
  const notActedOn: string[] = [];
  for (const [key, value] of Object.entries(data as Record<string, unknown>)) {
    switch (key) {
      case "permissions":
        readPermissions(value, settings, context, add, denyProblem);
        break;
      case "env":
        readEnv(value, settings, add);
        break;
      case "model":
        if (typeof value === "string" && value.trim() !== "") settings.model = value.trim();
        else add("model", `must be a model name, got ${describeType(value)}; ignored`);
        break;
      case "effortLevel":
        // Claude Code's key for the session's effort; `--effort` wins over it.
        if (isEffortLevel(value)) settings.effortLevel = value;
        else
          add(
            "effortLevel",
            `must be one of ${EFFORT_LEVELS.join(", ")}, got ${typeof value === "string" ? JSON.stringify(value) : describeType(value)}; ignored`,
          );
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
      case "statusLine":
        readStatusLine(value, settings, context.source, add);
        break;
      case "outputStyle":
        readOutputStyle(value, settings, add);
        break;
      case "compaction":
        readCompaction(value, settings, add);
        break;
      case "memoryFiles":
        if (typeof value === "boolean") settings.memoryFiles = value;
        else add("memoryFiles", `must be true or false, got ${describeType(value)}; ignored`);
        break;
      case "allowManagedHooksOnly":
      case "allowManagedPermissionRulesOnly":
        // Honoured only from the managed settings file; load-settings.ts says so for any other file.
        if (typeof value !== "boolean") add(key, `must be true or false, got ${describeType(value)}; ignored`);
        else
          settings.managedOnly = {
            ...settings.managedOnly,
            [key === "allowManagedHooksOnly" ? "hooks" : "permissionRules"]: value,
          };
        break;
      default:
        if (isPauseSettingKey(key)) readPauseSetting(key, value, settings.pause, add);
        else if (!IGNORED_CLAUDE_CODE_KEYS.includes(key))
          add(key, "is not a setting threadline or Claude Code knows; ignored (the rest of the file applies)");
        else if (!READ_ELSEWHERE.includes(key)) notActedOn.push(key);
    }
  }
  // Every key threadline does not act on is named once at start, never dropped without a word (issue 40).
  if (notActedOn.length > 0)
    add("", `Claude Code settings threadline does not act on: ${notActedOn.join(", ")}; ignored`);
  // Claude Code's disableAllHooks turns the status line command off too (docs/SETTINGS.md).
  if (hooksOff) {
    settings.hooks = {};
    delete settings.statusLine;
  }
  return { settings, problems };
}

function readPermissions(
  value: unknown,
  settings: Settings,
  context: SettingsFileContext,
  add: (key: string, message: string) => void,
  denyProblem: (key: string, message: string) => void,
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
        settings.permissions[key].push(...readRules(item, path, context, add));
        break;
      case "deny":
        settings.permissions.deny.push(...readRules(item, path, context, denyProblem));
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

/** For tests and the README: the keys threadline acts on. */
export const SUPPORTED_KEYS: readonly string[] = [
  "permissions",
  "env",
  "model",
  "effortLevel",
  "hooks",
  "disableAllHooks",
  "mcpServers",
  "compaction",
  "memoryFiles",
  "statusLine",
  "outputStyle",
  ...PAUSE_SETTING_KEYS,
];

export type { CompactionSwitches };
