/**
 * `/plugin`: the run's plugins (where each came from, on or off, what it holds); `/plugin enable <id>` and
 * `/plugin disable <id>` write `enabledPlugins` in the project's `.claude/settings.local.json` (the person's
 * own, uncommitted file), as Claude Code's /plugin does for its settings; the change applies from the next
 * start, since hooks and servers are set up once per run (docs/PLUGINS.md).
 */
import type { PluginSet } from "../../../plugins/index.js";
import { updateLocalSettings } from "./local-settings.js";

/** `/plugin`'s listing. */
export function formatPlugins(set: PluginSet | undefined): string {
  if (set === undefined || set.plugins.length === 0)
    return "No plugins. Load one with --plugin-dir <path>, or enable one in settings (enabledPlugins).";
  const lines = set.plugins.map((plugin) => {
    const parts = [
      plugin.commandFolders.length > 0 ? "commands" : "",
      plugin.agentFolders.length > 0 ? "agents" : "",
      plugin.skillFolders.length > 0 ? "skills" : "",
      Object.keys(plugin.hooks).length > 0 ? "hooks" : "",
      plugin.mcpServers !== undefined ? "MCP servers" : "",
    ].filter((part) => part !== "");
    const version = plugin.version !== undefined ? ` ${plugin.version}` : "";
    return `  ${plugin.enabled ? "●" : "○"} ${plugin.id}${version}  (${plugin.origin}; ${parts.join(", ") || "nothing to load"})  ${plugin.root}`;
  });
  return ["Plugins (● on, ○ off):", ...lines, "/plugin enable <id> · /plugin disable <id> (from the next start)"].join(
    "\n",
  );
}

/** Writes `enabledPlugins[id] = on` into `<cwd>/.claude/settings.local.json`; the line to print. */
export async function setPluginEnabled(cwd: string, id: string, on: boolean): Promise<string> {
  const written = await updateLocalSettings(cwd, (data) => {
    const current = data.enabledPlugins;
    const enabled =
      typeof current === "object" && current !== null && !Array.isArray(current) ? { ...current } : ({} as object);
    data.enabledPlugins = { ...enabled, [id]: on };
  });
  if ("problem" in written) return written.problem;
  return `${on ? "Enabled" : "Disabled"} ${id} in ${written.path}; it applies from the next start.`;
}

/** Runs `/plugin [list | enable <id> | disable <id>]`; the text to print. */
export async function pluginCommand(set: PluginSet | undefined, cwd: string, argument: string): Promise<string> {
  const [verb = "", id = ""] = argument.trim().split(/\s+/);
  if (verb === "" || verb === "list") return formatPlugins(set);
  if ((verb === "enable" || verb === "disable") && id !== "") {
    const plugin = set?.plugins.find((candidate) => candidate.id === id || candidate.name === id);
    if (plugin?.origin === "plugin-dir")
      return `${plugin.name} is on for this run by --plugin-dir; start without the flag to leave it out.`;
    const key = plugin?.id ?? id;
    if (!key.includes("@")) return `Name the plugin as "plugin@marketplace" (enabledPlugins' key), got "${id}".`;
    return setPluginEnabled(cwd, key, verb === "enable");
  }
  return "Usage: /plugin [list] | /plugin enable <plugin@marketplace> | /plugin disable <plugin@marketplace>";
}
