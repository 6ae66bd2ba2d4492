/**
 * One plugin folder as Claude Code reads it (docs/PLUGINS.md): `.claude-plugin/plugin.json` (its `name` is the
 * namespace; without a manifest the folder's name), the default folders `commands/`, `agents/`, `skills/`,
 * `hooks/hooks.json` and `.mcp.json`, plus the manifest's own paths for each (which add to the defaults). In
 * hook commands and MCP server definitions `${CLAUDE_PLUGIN_ROOT}` becomes the plugin's folder, and the hook
 * or server process gets the variable too. Manifest keys threadline does not act on are named once.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { SettingsServers } from "../mcp/index.js";
import type { PluginFolder } from "../memory/index.js";
import { type HookEventName, type HooksSettings, parseSettingsFile } from "../settings/index.js";
import type { LoadedPlugin, PluginOrigin } from "./plugin-types.js";

/** The variable a plugin's hooks and servers find their own folder in. */
export const PLUGIN_ROOT_VARIABLE = "CLAUDE_PLUGIN_ROOT";

/** Manifest keys that only describe the plugin (nothing to act on). */
const METADATA_KEYS = new Set([
  "$schema",
  "name",
  "version",
  "description",
  "author",
  "homepage",
  "repository",
  "license",
  "keywords",
  "category",
  "tags",
]);

/** Manifest keys threadline acts on. */
const COMPONENT_KEYS = new Set(["commands", "agents", "skills", "hooks", "mcpServers"]);

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function paths(value: unknown): string[] {
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

/** Every string in `value` with `${CLAUDE_PLUGIN_ROOT}` replaced by `root`. */
export function expandPluginRoot<T>(value: T, root: string): T {
  if (typeof value === "string") return value.replaceAll(`\${${PLUGIN_ROOT_VARIABLE}}`, root) as T;
  if (Array.isArray(value)) return value.map((item) => expandPluginRoot(item, root)) as T;
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expandPluginRoot(item, root)])) as T;
  return value;
}

/** Reads the plugin at `root`; undefined (with a notice) when its manifest is unreadable. */
export function loadPluginFolder(
  root: string,
  origin: PluginOrigin,
  id: string | undefined,
  enabled: boolean,
  notices: string[],
): LoadedPlugin | undefined {
  const manifestPath = join(root, ".claude-plugin", "plugin.json");
  let manifest: Record<string, unknown> = {};
  if (existsSync(manifestPath)) {
    try {
      const data = JSON.parse(readFileSync(manifestPath, "utf8")) as unknown;
      if (typeof data !== "object" || data === null || Array.isArray(data)) throw new Error("not an object");
      manifest = data as Record<string, unknown>;
    } catch (error) {
      notices.push(
        `plugin ${root}: ${manifestPath} is not a JSON object (${(error as Error).message}); plugin skipped`,
      );
      return undefined;
    }
  } else if (!isDirectory(root)) {
    notices.push(`plugin ${root}: no such folder; skipped`);
    return undefined;
  }
  const name = typeof manifest.name === "string" && manifest.name.trim() !== "" ? manifest.name.trim() : basename(root);
  const ignored = Object.keys(manifest).filter((key) => !METADATA_KEYS.has(key) && !COMPONENT_KEYS.has(key));
  if (ignored.length > 0) notices.push(`plugin ${name}: ${ignored.join(", ")} not acted on by threadline`);
  const folders = (key: string, fallback: string): PluginFolder[] =>
    [join(root, fallback), ...paths(manifest[key]).map((path) => resolve(root, path))]
      .filter((path, index, all) => all.indexOf(path) === index && isDirectory(path))
      .map((path) => ({ path, namespace: name, root }));
  const hooks = pluginHooks(root, name, manifest.hooks, notices);
  const mcpServers = pluginServers(root, name, manifest.mcpServers, notices);
  return {
    name,
    id: id ?? name,
    ...(typeof manifest.version === "string" ? { version: manifest.version } : {}),
    ...(typeof manifest.description === "string" ? { description: manifest.description } : {}),
    root,
    origin,
    enabled,
    commandFolders: folders("commands", "commands"),
    agentFolders: folders("agents", "agents"),
    skillFolders: folders("skills", "skills"),
    hooks,
    ...(mcpServers !== undefined ? { mcpServers } : {}),
  };
}

function readJsonFile(path: string, what: string, plugin: string, notices: string[]): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    notices.push(
      `plugin ${plugin}: ${what} ${path} is not valid JSON (${(error as Error).message.split("\n")[0]}); ignored`,
    );
    return undefined;
  }
}

/** `hooks/hooks.json` and the manifest's `hooks` (a path or the object itself), validated as settings hooks are. */
function pluginHooks(root: string, name: string, declared: unknown, notices: string[]): HooksSettings {
  const documents: Array<{ source: string; value: unknown }> = [];
  const file = join(root, "hooks", "hooks.json");
  if (existsSync(file)) documents.push({ source: file, value: readJsonFile(file, "hooks file", name, notices) });
  for (const path of paths(declared)) {
    const full = resolve(root, path);
    if (full !== file) documents.push({ source: full, value: readJsonFile(full, "hooks file", name, notices) });
  }
  if (typeof declared === "object" && declared !== null && !Array.isArray(declared))
    documents.push({ source: `${join(root, ".claude-plugin", "plugin.json")} hooks`, value: declared });
  const merged: HooksSettings = {};
  for (const document of documents) {
    if (typeof document.value !== "object" || document.value === null) continue;
    const value = document.value as Record<string, unknown>;
    // hooks.json is {"description"?, "hooks": {…}}; an inline manifest value may be the events themselves.
    const events = "hooks" in value ? value.hooks : value;
    const parsed = parseSettingsFile(JSON.stringify({ hooks: events }), { source: document.source, root, home: root });
    for (const problem of parsed.problems)
      notices.push(`plugin ${name}: ${problem.source}: ${problem.key}: ${problem.message}`);
    for (const [event, groups] of Object.entries(parsed.settings.hooks)) {
      const expanded = (groups ?? []).map((group) => ({
        ...group,
        hooks: group.hooks.map((hook) => ({
          ...hook,
          command: expandPluginRoot(hook.command, root),
          env: { [PLUGIN_ROOT_VARIABLE]: root },
        })),
      }));
      const key = event as HookEventName;
      merged[key] = [...(merged[key] ?? []), ...expanded];
    }
  }
  return merged;
}

/** `.mcp.json` and the manifest's `mcpServers`, each server named `plugin:<plugin>:<server>` as Claude Code does. */
function pluginServers(root: string, name: string, declared: unknown, notices: string[]): SettingsServers | undefined {
  const servers: Record<string, unknown> = {};
  const add = (document: unknown) => {
    if (typeof document !== "object" || document === null) return;
    const map = ("mcpServers" in document ? (document as { mcpServers: unknown }).mcpServers : document) as unknown;
    if (typeof map !== "object" || map === null || Array.isArray(map)) return;
    for (const [server, config] of Object.entries(map as Record<string, unknown>)) {
      const expanded = expandPluginRoot(config, root);
      const withRoot =
        typeof expanded === "object" && expanded !== null && "command" in expanded
          ? {
              ...expanded,
              env: { [PLUGIN_ROOT_VARIABLE]: root, ...((expanded as { env?: Record<string, unknown> }).env ?? {}) },
            }
          : expanded;
      servers[`plugin:${name}:${server}`] = withRoot;
    }
  };
  const file = join(root, ".mcp.json");
  if (existsSync(file)) add(readJsonFile(file, "MCP file", name, notices));
  for (const path of paths(declared)) {
    const full = resolve(root, path);
    if (full !== file) add(readJsonFile(full, "MCP file", name, notices));
  }
  if (typeof declared === "object" && declared !== null && !Array.isArray(declared)) add(declared);
  if (Object.keys(servers).length === 0) return undefined;
  return { path: join(root, ".mcp.json"), mcpServers: servers };
}
