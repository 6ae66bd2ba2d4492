/**
 * Settings files into the command line's options: loaded once before the session opens, each problem printed as
 * one line, then folded under the flags (a flag always beats a setting). `env` from settings joins the
 * environment of the whole session (so `ANTHROPIC_BASE_URL` there works) and of tool processes, where secrets
 * are still removed (tools/secret-env.ts).
 */
import { formatSettingsProblem, loadSettings, SettingsError } from "../settings/index.js";
import type { CliOptions } from "./args.js";
import type { CliIo } from "./io.js";
import { CliError } from "./session.js";

/** The options and io a session runs with once settings files are applied; problems are written to stderr. */
export function applySettings(cli: CliOptions, io: CliIo): { cli: CliOptions; io: CliIo } {
  let loaded: ReturnType<typeof loadSettings>;
  try {
    loaded = loadSettings({
      cwd: io.cwd,
      env: io.env,
      ...(cli.settingsFlag !== undefined ? { flagSettings: cli.settingsFlag } : {}),
    });
  } catch (error) {
    if (error instanceof SettingsError) throw new CliError(error.message);
    throw error;
  }
  const { settings, problems } = loaded;
  for (const problem of problems) io.stderr.write(`threadline: settings: ${formatSettingsProblem(problem)}\n`);
  const env = Object.keys(settings.env).length > 0 ? { ...io.env, ...settings.env } : io.env;
  const effective: CliOptions = { ...cli, settings, ...(env !== io.env ? { sessionEnv: env } : {}) };
  if (cli.permissionModeFromFlag !== true && settings.permissions.defaultMode !== undefined)
    effective.permissionMode = settings.permissions.defaultMode;
  // Claude Code's order: --model, then ANTHROPIC_MODEL, then the settings' model.
  if (cli.model === undefined && (env.ANTHROPIC_MODEL ?? "") === "" && settings.model !== undefined)
    effective.model = settings.model;
  return { cli: effective, io: env === io.env ? io : { ...io, env } };
}
