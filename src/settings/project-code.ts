/**
 * What an untrusted folder's own settings file (project or local scope) may do: only narrow (docs/TRUST.md, "What
 * an untrusted folder gets"). Its executable parts — `hooks`, `env`, `mcpServers`, `statusLine` — and what would
 * widen permissions — allow rules, a `defaultMode` that asks less than `default`, `additionalDirectories` — are
 * kept out unless the trust gate says yes (trust/trust-gate.ts), and each is named to the gate so one line says
 * what was withheld. Deny and ask rules, a narrowing mode and the plain values always apply.
 */
import type { ProjectCodeKind } from "../trust/index.js";
import type { HooksSettings, Settings } from "./settings-types.js";

/** The gate's question: may this project code run? (`false` remembers it as withheld.) */
export type ProjectCodeGate = (kind: ProjectCodeKind, what: string, source: string) => boolean;

/** Modes a project may set without trust: they ask as much as `default` or more. */
const NARROWING_MODES: readonly string[] = ["default", "plan"];

/** Whether every item is allowed (each is asked about, so the question and the line list all of them). */
function allMayRun(kind: ProjectCodeKind, items: readonly string[], source: string, mayRun: ProjectCodeGate): boolean {
  return items.map((what) => mayRun(kind, what, source)).every(Boolean);
}

/** `settings` (one file's) with its executable and widening parts removed where `mayRun` says no. */
export function withholdProjectCode(settings: Settings, source: string, mayRun: ProjectCodeGate): Settings {
  let { hooks, env, mcpServers } = settings;
  const { statusLine, permissions, ...rest } = settings;
  const commands = Object.entries(hooks).flatMap(([event, groups]) =>
    (groups ?? []).flatMap((group) => group.hooks.map((hook) => `${event}: ${hook.command}`)),
  );
  // The file's hooks go or stay together; a withheld PreToolUse hook still refuses what it guarded.
  if (commands.length > 0 && !allMayRun("hooks", commands, source, mayRun)) hooks = withheldGuards(hooks);
  const names = Object.keys(env);
  if (names.length > 0 && !allMayRun("env", names, source, mayRun)) env = {};
  const servers = mcpServers.flatMap((raw) =>
    typeof raw.value === "object" && raw.value !== null ? Object.keys(raw.value) : ["mcpServers"],
  );
  if (servers.length > 0 && !allMayRun("mcpServers", servers, source, mayRun)) mcpServers = [];
  // The status line command runs in a shell like a hook (Claude Code gates it by the same trust).
  const keepStatusLine = statusLine !== undefined && mayRun("statusLine", statusLine.command, source);
  const { allow, defaultMode, additionalDirectories, ...narrowing } = permissions;
  const rules = allow.map((rule) => rule.rule);
  const keepAllow = allMayRun("allowRules", rules, source, mayRun);
  const keepMode =
    defaultMode !== undefined &&
    (NARROWING_MODES.includes(defaultMode) || mayRun("permissionMode", defaultMode, source));
  const keepDirectories = allMayRun("additionalDirectories", additionalDirectories, source, mayRun);
  return {
    ...rest,
    permissions: {
      ...narrowing,
      allow: keepAllow ? allow : [],
      additionalDirectories: keepDirectories ? additionalDirectories : [],
      ...(keepMode ? { defaultMode } : {}),
    },
    hooks,
    env,
    mcpServers,
    ...(keepStatusLine ? { statusLine } : {}),
  };
}

/**
 * A withheld file's PreToolUse hooks, each marked `withheld`: the runner never starts one, and refuses the calls
 * it would have checked (docs/TRUST.md "Fail closed": "a guard that is withheld refuses what it guarded"). The file's
 * other hooks are dropped.
 */
function withheldGuards(hooks: HooksSettings): HooksSettings {
  const guards = (hooks.PreToolUse ?? []).map((group) => ({
    ...group,
    hooks: group.hooks.map((hook) => ({ ...hook, withheld: true as const })),
  }));
  return guards.length > 0 ? { PreToolUse: guards } : {};
}
