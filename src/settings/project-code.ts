/**
 * A project's (or local) settings file's executable parts — `hooks`, `env`, `mcpServers`, `statusLine` — kept
 * out unless the folder is trusted (the trust gate decides: trust/trust-gate.ts, docs/TRUST.md). Permission rules,
 * model and the other plain values always apply: they only narrow or describe, they run nothing.
 */
import type { ProjectCodeKind } from "../trust/index.js";
import type { Settings } from "./settings-types.js";

/** The gate's question: may this project code run? (`false` remembers it as withheld.) */
export type ProjectCodeGate = (kind: ProjectCodeKind, what: string, source: string) => boolean;

/** `settings` (one file's) with its executable parts removed where `mayRun` says no. */
export function withholdProjectCode(settings: Settings, source: string, mayRun: ProjectCodeGate): Settings {
  let { hooks, env, mcpServers } = settings;
  const { statusLine, ...rest } = settings;
  const commands = Object.entries(hooks).flatMap(([event, groups]) =>
    (groups ?? []).flatMap((group) => group.hooks.map((hook) => `${event}: ${hook.command}`)),
  );
  // Each item is asked about (so the question lists all of them); the file's hooks go or stay together.
  if (commands.length > 0 && !commands.map((what) => mayRun("hooks", what, source)).every(Boolean)) hooks = {};
  const names = Object.keys(env);
  if (names.length > 0 && !names.map((name) => mayRun("env", name, source)).every(Boolean)) env = {};
  const servers = mcpServers.flatMap((raw) =>
    typeof raw.value === "object" && raw.value !== null ? Object.keys(raw.value) : ["mcpServers"],
  );
  if (servers.length > 0 && !servers.map((name) => mayRun("mcpServers", name, source)).every(Boolean)) mcpServers = [];
  // The status line command runs in a shell like a hook (Claude Code gates it by the same trust).
  const keepStatusLine = statusLine !== undefined && mayRun("statusLine", statusLine.command, source);
  return { ...rest, hooks, env, mcpServers, ...(keepStatusLine ? { statusLine } : {}) };
}
