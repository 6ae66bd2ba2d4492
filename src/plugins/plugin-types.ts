/**
 * The vocabulary of Claude Code plugins as threadline loads them (docs/PLUGINS.md): where a plugin came from,
 * what it holds, and what a whole run's plugins add to the session.
 */
import type { SettingsServers } from "../mcp/index.js";
import type { PluginFolder } from "../memory/index.js";
import type { HooksSettings } from "../settings/index.js";

/**
 * Who turned a plugin on: `--plugin-dir` (the person, for this run), the user's settings, or the project's
 * settings (`.claude/settings.json`, `.claude/settings.local.json`, `.threadline/…`). A plugin turned on by
 * the project runs the project's code: its hooks and MCP servers wait for the project to be trusted.
 */
export type PluginOrigin = "plugin-dir" | "user" | "project";

export interface LoadedPlugin {
  /** The manifest's `name` (the namespace of its commands, agents and skills). */
  name: string;
  /** `name@marketplace` as `enabledPlugins` spells it; the name alone for `--plugin-dir`. */
  id: string;
  version?: string;
  description?: string;
  /** The plugin's folder: `${CLAUDE_PLUGIN_ROOT}`. */
  root: string;
  origin: PluginOrigin;
  /** Whether it is on (a plugin `enabledPlugins` names with false is listed but off). */
  enabled: boolean;
  commandFolders: PluginFolder[];
  agentFolders: PluginFolder[];
  skillFolders: PluginFolder[];
  /** Its hooks, commands with `${CLAUDE_PLUGIN_ROOT}` expanded and the variable in their environment. */
  hooks: HooksSettings;
  /** Its MCP servers (`.mcp.json` or the manifest's `mcpServers`), names prefixed `plugin:<name>:`. */
  mcpServers?: SettingsServers;
}

/** Everything the enabled plugins of a run add, and what was said about them. */
export interface PluginSet {
  /** Every plugin found, enabled or not (for `/plugin`). */
  plugins: LoadedPlugin[];
  commandFolders: PluginFolder[];
  agentFolders: PluginFolder[];
  skillFolders: PluginFolder[];
  hooks: HooksSettings;
  mcpServers: SettingsServers[];
  /** One line each: a plugin skipped (and why), a key not acted on, hooks held back for trust. */
  notices: string[];
}
