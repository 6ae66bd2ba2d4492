/**
 * The plugins of one run (docs/PLUGINS.md): every `--plugin-dir` folder, then every `enabledPlugins` entry of
 * the settings files found through its marketplace, each loaded once. What the enabled ones hold is gathered
 * for the session: command, agent and skill folders (namespaced by plugin), hooks and MCP servers. Hooks and
 * servers of a plugin the PROJECT's settings turned on are the project's code: with `projectCodeTrusted`
 * false they are left out, with one line naming them.
 */
import type { HooksSettings } from "../settings/index.js";
import { loadPluginFolder } from "./load-plugin.js";
import { marketplaceRoot, pluginInMarketplace } from "./marketplaces.js";
import { readPluginSettings } from "./plugin-settings.js";
import type { LoadedPlugin, PluginOrigin, PluginSet } from "./plugin-types.js";

export interface LoadPluginsOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The user's home (`~/.claude/plugins` is Claude Code's plugin store). */
  userHome: string;
  /** `--plugin-dir` folders, in order; each is on for this run. Default none. */
  pluginDirs?: readonly string[];
  /** `--settings` (its `enabledPlugins` count too). */
  flagSettings?: string;
  /**
   * Whether the project's own code may run: hooks and MCP servers of plugins enabled by project settings.
   * Default true (the folder-trust gate decides it: docs/PLUGINS.md "Trust").
   */
  projectCodeTrusted?: boolean;
}

/** Loads every plugin of the run; never throws (each problem is a notice). */
export function loadPlugins(options: LoadPluginsOptions): PluginSet {
  const notices: string[] = [];
  const plugins: LoadedPlugin[] = [];
  const seenRoots = new Set<string>();
  const add = (root: string, origin: PluginOrigin, id: string | undefined, enabled: boolean) => {
    if (seenRoots.has(root)) return;
    seenRoots.add(root);
    const plugin = loadPluginFolder(root, origin, id, enabled, notices);
    if (plugin === undefined) return;
    if (plugins.some((other) => other.name === plugin.name && other.enabled && enabled)) {
      notices.push(`plugin ${plugin.name}: a plugin of that name is already loaded; ${root} skipped`);
      return;
    }
    plugins.push(plugin);
  };
  for (const dir of options.pluginDirs ?? []) add(dir, "plugin-dir", undefined, true);
  const settings = readPluginSettings(options.cwd, options.env, options.flagSettings);
  notices.push(...settings.problems);
  for (const [id, choice] of settings.enabled) {
    const at = id.lastIndexOf("@");
    if (at <= 0) {
      notices.push(`enabledPlugins: "${id}" is not "plugin@marketplace"; skipped`);
      continue;
    }
    const name = id.slice(0, at);
    const market = id.slice(at + 1);
    const found = marketplaceRoot(market, settings.marketplaces.get(market), options.userHome);
    if ("skipped" in found) {
      if (choice.enabled) notices.push(`plugin ${id} skipped: ${found.skipped}`);
      continue;
    }
    const folder = pluginInMarketplace(name, market, found.root, options.userHome);
    if ("skipped" in folder) {
      if (choice.enabled) notices.push(`plugin ${id} skipped: ${folder.skipped}`);
      continue;
    }
    const origin: PluginOrigin = choice.scope === "user" ? "user" : "project";
    add(folder.folder, origin, id, choice.enabled);
  }
  return gather(plugins, options.projectCodeTrusted ?? true, notices);
}

function gather(plugins: LoadedPlugin[], projectCodeTrusted: boolean, notices: string[]): PluginSet {
  const set: PluginSet = {
    plugins,
    commandFolders: [],
    agentFolders: [],
    skillFolders: [],
    hooks: {},
    mcpServers: [],
    notices,
  };
  for (const plugin of plugins) {
    if (!plugin.enabled) continue;
    // A plugin the project's settings enabled is project code: its commands' and skills' shell waits for trust.
    const mark = (folders: typeof plugin.commandFolders) =>
      plugin.origin === "project" ? folders.map((folder) => ({ ...folder, projectCode: true })) : folders;
    set.commandFolders.push(...mark(plugin.commandFolders));
    set.agentFolders.push(...plugin.agentFolders);
    set.skillFolders.push(...mark(plugin.skillFolders));
    const hookCount = Object.values(plugin.hooks).reduce((sum, groups) => sum + (groups?.length ?? 0), 0);
    const held = plugin.origin === "project" && !projectCodeTrusted;
    if (held && (hookCount > 0 || plugin.mcpServers !== undefined)) {
      notices.push(
        `plugin ${plugin.name}: its hooks and MCP servers are not run: the project's settings enabled it and this folder is not trusted`,
      );
      continue;
    }
    set.hooks = mergeHooks(set.hooks, plugin.hooks);
    if (plugin.mcpServers !== undefined) set.mcpServers.push(plugin.mcpServers);
  }
  return set;
}

/** Both hook sets, `lower`'s groups first for each event. */
export function mergeHooks(lower: HooksSettings, higher: HooksSettings): HooksSettings {
  const out: HooksSettings = { ...lower };
  for (const [event, groups] of Object.entries(higher) as Array<
    [keyof HooksSettings, HooksSettings[keyof HooksSettings]]
  >)
    out[event] = [...(out[event] ?? []), ...(groups ?? [])];
  return out;
}
