/**
 * Settings files into the command line's options: loaded once before the session opens, each problem printed as
 * one line, then folded under the flags (a flag always beats a setting). `env` from settings joins the
 * environment of the whole session (so `ANTHROPIC_BASE_URL` there works) and of tool processes, where secrets
 * are still removed (tools/secret-env.ts). The folder's trust gate (trust/, docs/TRUST.md) decides whether the
 * project's own hooks, env and MCP servers come along; what it withholds is named in one line.
 */
import { claudeJsonPath, threadlineHome } from "../home/index.js";
import { readProjectServers } from "../mcp/index.js";
import { formatSettingsProblem, loadSettings, SettingsError } from "../settings/index.js";
import { createTrustGate, type ProjectCodeKind, type TrustGate } from "../trust/index.js";
import type { CliOptions } from "./args.js";
import type { CliIo } from "./io.js";
import { CliError } from "./session-flags.js";

/** What print mode will not go on without (a status line never runs there; permissions only narrow). */
const STOPPING_KINDS: readonly ProjectCodeKind[] = ["hooks", "mcpServers", "env"];

/** The folder's trust gate for this run: print mode never asks, interactive mode may. */
export function cliTrustGate(cli: CliOptions, io: CliIo): TrustGate {
  return createTrustGate({
    cwd: io.cwd,
    home: threadlineHome(io.env),
    mode: cli.print ? "print" : "interactive",
    trustFlag: cli.trustFolder === true,
    claudeJsonPath: claudeJsonPath(io.env),
  });
}

/**
 * The options and io a session runs with once settings files are applied; problems are written to stderr.
 * `gate` is made here unless given (interactive mode passes the same gate again after a yes, to reload).
 */
export function applySettings(
  cli: CliOptions,
  io: CliIo,
  gate: TrustGate = cliTrustGate(cli, io),
): { cli: CliOptions; io: CliIo } {
  let loaded: ReturnType<typeof loadSettings>;
  try {
    loaded = loadSettings({
      cwd: io.cwd,
      env: io.env,
      ...(cli.settingsFlag !== undefined ? { flagSettings: cli.settingsFlag } : {}),
      ...(cli.settingSources !== undefined ? { sources: cli.settingSources } : {}),
      mayRunProjectCode: (kind, what, source) => gate.mayRun(kind, what, source),
    });
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(error.message);
    throw error;
  }
  const { settings, problems } = loaded;
  // Fail closed: a guard that cannot be read (deny rules lost to a typo, a duplicate key) stops the session in
  // every mode, with one line naming the file and the line (docs/TRUST.md).
  const fatal = problems.find((problem) => problem.fatal === true);
  if (fatal !== undefined) throw new CliError(`settings: ${formatSettingsProblem(fatal)}`);
  for (const problem of problems) io.stderr.write(`threadline: settings: ${formatSettingsProblem(problem)}\n`);
  // The project's `.mcp.json` servers, named (not started) so an untrusted folder's line and question list them.
  if (!cli.strictMcpConfig && !gate.trusted) {
    const project = readProjectServers(io.cwd, {});
    for (const server of project.servers) gate.mayRun("mcpServers", server.name, server.source);
  }
  // Interactive mode asks first (interactive.ts) and prints the line only after a no.
  const line = gate.shouldAsk() ? undefined : gate.withheldLine();
  // Print mode fails closed: code the project would run (hooks, servers, env) is withheld, and going on without
  // the guards it defines is the person's choice, by a flag (docs/TRUST.md, "Fail closed").
  const runs = gate.withheld().filter((item) => STOPPING_KINDS.includes(item.kind));
  if (cli.print && line !== undefined && runs.length > 0 && cli.withoutProjectCode !== true)
    throw new CliError(
      `${line.replace(/\. Trust it by .*$/, "")}. Stopped before the first request: run with --trust-folder to run them, or --without-project-code to go on without them`,
    );
  if (line !== undefined) io.stderr.write(`threadline: ${line}\n`);
  const env = Object.keys(settings.env).length > 0 ? { ...io.env, ...settings.env } : io.env;
  const effective: CliOptions = {
    ...cli,
    settings,
    trustGate: gate,
    ...(env !== io.env ? { sessionEnv: env } : {}),
  };
  const settingsMode = settings.permissions.defaultMode;
  if (cli.permissionModeFromFlag !== true && settingsMode !== undefined) {
    // Claude Code's `dontAsk` and `manual` are threadline's default, without and with the question.
    effective.permissionMode = settingsMode === "dontAsk" || settingsMode === "manual" ? "default" : settingsMode;
    if (settingsMode === "dontAsk") effective.dontAsk = true;
  }
  // Claude Code's order: --model, then ANTHROPIC_MODEL, then the settings' model.
  if (cli.model === undefined && (env.ANTHROPIC_MODEL ?? "") === "" && settings.model !== undefined)
    effective.model = settings.model;
  // Claude Code's order for effort: --effort, then the settings' effortLevel.
  if (cli.effort === undefined && settings.effortLevel !== undefined) effective.effort = settings.effortLevel;
  return { cli: effective, io: env === io.env ? io : { ...io, env } };
}
