/**
 * The rest of a Claude Code user's setup, loaded once per run before the session opens (docs/PLUGINS.md):
 * plugins (`--plugin-dir`, `enabledPlugins`), custom commands (the user's, the project's and the plugins'),
 * skills run as `/name`, and custom subagents (`.claude/agents/*.md`, plugins' `agents/`). What they add to
 * the engine (subagent types, plugin skills, plugin hooks) and to MCP (plugin servers) is handed on here; every
 * problem and every declared thing threadline does not act on is one line, said once.
 */

import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { QueryEngineOptions, SubmitOptions } from "../../engine/engine-options.js";
import { userPlaces } from "../../engine/memory-setup.js";
import type { QueryEngine } from "../../engine/query-engine.js";
import { DEFAULT_SUBAGENT_TYPES, type SubagentType } from "../../engine/subagent-types.js";
import type { SettingsServers } from "../../mcp/index.js";
import {
  type CommandContextOptions,
  type CustomCommand,
  customCommandPrompt,
  DEFAULT_OUTPUT_STYLE,
  expandCommandContext,
  findOutputStyle,
  loadCustomAgents,
  loadCustomCommands,
  loadOutputStyles,
  loadSkills,
  type OutputStyle,
  resolveModelAlias,
  type Skill,
  skillCommands,
} from "../../memory/index.js";
import { loadPlugins, mergeHooks, type PluginSet } from "../../plugins/index.js";
import { SecretEnvironment } from "../../tools/index.js";
import type { CliOptions } from "../args.js";
import { closestMatch } from "../did-you-mean.js";
import { PauseHabitsRecorder } from "../pause-habits.js";
import { engineOptions } from "../session-flags.js";
import { isBuiltinCommand } from "./slash/slash-commands.js";

export interface UserSetup {
  plugins: PluginSet;
  /** Custom commands and skills as `/name` (a skill wins over a command of its name, as in Claude Code). */
  commands: CustomCommand[];
  /** Added to the engine options: subagent types, plugin skill folders, hooks with the plugins' added. */
  engineOptions: Partial<QueryEngineOptions>;
  /** The plugins' MCP servers, after the settings files' ones. */
  mcpServers: SettingsServers[];
  /** One line each, to show once at start. */
  notices: string[];
  /** Every output style found (`/output-style`); the session's own is in `engineOptions.outputStyle`. */
  outputStyles: OutputStyle[];
  /** The person's gaps from earlier sessions of the project (the pause policy's start), saved at the end. */
  habits: PauseHabitsRecorder;
}

/** Loads plugins, commands, skills and agents for the run. */
export async function loadUserSetup(cli: CliOptions, io: { cwd: string; env: NodeJS.ProcessEnv }): Promise<UserSetup> {
  const places = userPlaces(io.cwd, undefined, io.env);
  const plugins = loadPlugins({
    cwd: io.cwd,
    env: io.env,
    userHome: places.userHome,
    pluginDirs: (cli.pluginDirs ?? []).map((dir) => resolve(io.cwd, dir)),
    ...(cli.settingsFlag !== undefined ? { flagSettings: cli.settingsFlag } : {}),
    // Hooks and servers of plugins the project enables are project code: the folder's trust gate decides.
    ...(cli.trustGate !== undefined ? { projectCodeTrusted: cli.trustGate.trusted } : {}),
  });
  const notices = [...plugins.notices];
  const commands = await loadCustomCommands(places, plugins.commandFolders);
  const skills = cli.noMemory ? { skills: [], notices: [] } : await loadSkills(places, plugins.skillFolders);
  const agents = await loadCustomAgents(places, plugins.agentFolders);
  notices.push(...commands.notices, ...agents.notices);
  const bySkill = new Map((await skillCommands(skills.skills)).map((command) => [command.name, command]));
  const merged = [...commands.commands.filter((command) => !bySkill.has(command.name)), ...bySkill.values()].sort(
    (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
  // `--agents` (Claude Code's JSON) come last: of two agents with one name, the flag's is used.
  const flagAgents = (cli.agents ?? []).map((agent) => ({
    name: agent.name,
    description: agent.description,
    systemPrompt: agent.prompt,
    ...(agent.tools !== undefined ? { tools: agent.tools } : {}),
    ...(agent.model !== undefined ? { model: agent.model } : {}),
  }));
  const types = subagentTypes([
    ...agents.agents.filter((agent) => !flagAgents.some((flag) => flag.name === agent.name)),
    ...flagAgents,
  ]);
  const styles = await loadOutputStyles(places);
  notices.push(...styles.notices);
  const style = chosenStyle(styles.styles, cli.settings?.outputStyle, notices);
  // The managed file's allowManagedHooksOnly keeps plugins' hooks out too (its line names them; docs/SETTINGS.md).
  const managedOnly = cli.settings?.managedOnly?.hooks === true;
  const hooks = mergeHooks(cli.settings?.hooks ?? {}, managedOnly ? {} : plugins.hooks);
  // The project's own commands (and those of plugins it enabled) run shell only in a trusted folder: each asks
  // the gate when it runs, so a yes at the trust question counts from then on (docs/TRUST.md).
  const gate = cli.trustGate;
  const gated =
    gate === undefined
      ? merged
      : merged.map((command) =>
          command.projectCode === true
            ? { ...command, mayRunShell: (line: string) => gate.mayRun("commandShell", line, command.path) }
            : command,
        );
  const commandSkills = pluginCommandSkills(
    gated,
    io,
    commandPermission(engineOptions(cli, io.cwd).permission ?? {}, cli, io.cwd),
  );
  return {
    plugins,
    commands: gated,
    engineOptions: {
      ...(types !== undefined ? { agents: types } : {}),
      ...(plugins.skillFolders.length > 0 ? { pluginSkillFolders: plugins.skillFolders } : {}),
      ...(commandSkills.length > 0 ? { commandSkills } : {}),
      ...(Object.keys(hooks).length > 0 ? { hooks } : {}),
      ...(style !== undefined ? { outputStyle: style } : {}),
    },
    outputStyles: styles.styles,
    mcpServers: plugins.mcpServers,
    notices,
    habits: await PauseHabitsRecorder.open(io.cwd, cli.resume !== undefined || cli.continue),
  };
}

/**
 * The `outputStyle` setting's style; undefined for the default (the system prompt unchanged) and for a name no
 * style has (one line says so, as Claude Code falls back to the default).
 */
export function chosenStyle(
  styles: readonly OutputStyle[],
  name: string | undefined,
  notices: string[],
): OutputStyle | undefined {
  if (name === undefined) return undefined;
  const style = findOutputStyle(styles, name);
  if (style === undefined)
    notices.push(
      `outputStyle "${name}" is not a style threadline found (${styles.map((known) => known.name).join(", ")}); the default style is used`,
    );
  return style === undefined || style.name === DEFAULT_OUTPUT_STYLE ? undefined : style;
}

/** The built-in subagent types with the custom ones (a custom type of a built-in's name replaces it); undefined without custom ones. */
function subagentTypes(custom: readonly SubagentType[]): SubagentType[] | undefined {
  if (custom.length === 0) return undefined;
  const names = new Set(custom.map((type) => type.name));
  return [
    ...DEFAULT_SUBAGENT_TYPES.filter((type) => !names.has(type.name)),
    ...custom.map((type) => ({
      name: type.name,
      description: type.description,
      systemPrompt: type.systemPrompt !== "" ? type.systemPrompt : type.description,
      ...(type.tools !== undefined ? { tools: type.tools } : {}),
      ...(type.model !== undefined ? { model: type.model } : {}),
    })),
  ];
}

/**
 * What a command's `` !`cmd` `` is checked against: the session's permission policy (its mode as it is now) and
 * workspace, the folders of `--add-dir` and the settings' `additionalDirectories` included.
 */
export function commandPermission(
  policy: Partial<CommandPermission["policy"]>,
  cli: Pick<CliOptions, "settings" | "addDirs" | "permissionMode">,
  cwd: string,
): CommandPermission {
  const directories = [...(cli.settings?.permissions.additionalDirectories ?? []), ...(cli.addDirs ?? [])];
  const { mode = cli.permissionMode, allow = [], deny = [] } = policy;
  return { policy: { mode, allow, deny }, scope: { cwd, additionalDirectories: directories } };
}

type CommandPermission = NonNullable<CommandContextOptions["permission"]>;

/**
 * Plugins' commands as skills the model may call, as Claude Code offers them (not one that sets
 * `disable-model-invocation` or `hide-from-slash-command-tool`, nor one a skill's name shadows): called, a command
 * renders its prompt as `/name` would, its `` !`cmd` `` checked the same way.
 */
function pluginCommandSkills(
  commands: readonly CustomCommand[],
  io: { cwd: string; env: NodeJS.ProcessEnv },
  permission: CommandPermission,
): Skill[] {
  return commands
    .filter((command) => command.scope === "plugin" && command.skillDirectory === undefined && command.modelInvocable)
    .map((command) => ({
      name: command.name,
      description: command.description,
      allowedTools: command.allowedTools,
      modelInvocable: true,
      directory: dirname(command.path),
      path: command.path,
      scope: command.scope,
      render: async () => (await commandTurn(`/${command.name}`, [command], io, permission))?.prompt ?? command.body,
    }));
}

/** A `/name args` line naming a custom command or skill: the prompt to send and the turn's options. */
export async function commandTurn(
  line: string,
  commands: readonly CustomCommand[],
  io: { cwd: string; env: NodeJS.ProcessEnv },
  permission?: CommandContextOptions["permission"],
): Promise<{ prompt: string; options: SubmitOptions; notices: string[] } | undefined> {
  const custom = customCommandPrompt(line, commands);
  if (custom === undefined) return undefined;
  const { allowedTools, pluginRoot } = custom.command;
  // `` !`cmd` `` runs with the tools' environment: never a secret (tools/secret-env.ts). A plugin's command
  // also gets CLAUDE_PLUGIN_ROOT, as its hooks do.
  const toolEnv = new SecretEnvironment(io.env).toolEnv;
  const context = await expandCommandContext(custom.prompt, {
    cwd: io.cwd,
    env: pluginRoot !== undefined ? { ...toolEnv, CLAUDE_PLUGIN_ROOT: pluginRoot } : toolEnv,
    allowedTools,
    ...(custom.command.mayRunShell !== undefined ? { mayRunShell: custom.command.mayRunShell } : {}),
    ...(permission !== undefined ? { permission } : {}),
  });
  const model = resolveModelAlias(custom.command.model);
  return {
    prompt: context.prompt,
    // Its `@file`s are inlined above, so the engine does not attach them a second time.
    options: {
      fileMentions: false,
      ...(allowedTools.length > 0 ? { allowedTools } : {}),
      ...(model !== undefined ? { model } : {}),
    },
    notices: context.notices,
  };
}

/** In the terminal: a line naming a custom command or skill (a built-in's name is the built-in) as a turn. */
export function terminalCommandTurn(
  text: string,
  commands: readonly CustomCommand[],
  engine: Pick<QueryEngine, "cwd" | "permissions">,
  cli: Pick<CliOptions, "settings" | "addDirs" | "permissionMode">,
  env: NodeJS.ProcessEnv,
): ReturnType<typeof commandTurn> {
  if (isBuiltinCommand(/^\/(\S*)/.exec(text)?.[1] ?? "")) return Promise.resolve(undefined);
  return commandTurn(text, commands, { cwd: engine.cwd, env }, commandPermission(engine.permissions, cli, engine.cwd));
}

/**
 * For `-p "/name …"` naming no command: one line saying so (nothing is sent, as Claude Code answers an unknown
 * command instead of sending it); undefined when the line names a command, a built-in, or a path on disk
 * (`/tmp/x is slow` is a prompt). A bare name two plugins share is named with both.
 */
export function unknownCommandLine(prompt: string, commands: readonly CustomCommand[]): string | undefined {
  const name = /^\/([A-Za-z0-9][\w.:-]*)(?:\s|$)/.exec(prompt.trim())?.[1];
  if (name === undefined || isBuiltinCommand(name) || existsSync(`/${name}`)) return undefined;
  if (commands.some((command) => command.name === name)) return undefined;
  const shared = commands.filter((command) => command.scope === "plugin" && command.name.endsWith(`:${name}`));
  if (shared.length === 1) return undefined;
  if (shared.length > 1)
    return `/${name} is ambiguous: ${shared.map((command) => `/${command.name}`).join(", ")}; nothing was sent`;
  // A typo of a plugin command's bare name (`/comit`) is matched against that bare name.
  const byKey = new Map(
    commands.flatMap((command) => [
      [command.name.split(":").at(-1) ?? "", command.name],
      [command.name, command.name],
    ]),
  );
  const near = byKey.get(closestMatch(name, [...byKey.keys()]) ?? "");
  return `unknown command /${name}${near !== undefined ? ` (did you mean /${near}?)` : ""}; nothing was sent`;
}
