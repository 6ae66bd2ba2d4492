/**
 * `enabledPlugins` and `extraKnownMarketplaces` of the settings files (the settings loader accepts both keys and
 * leaves them to this folder), merged as Claude Code merges them: per plugin id and per marketplace name, the
 * higher-precedence file wins. Each enabled plugin keeps the scope of the file that turned it on, which decides
 * whether it is project code (docs/PLUGINS.md "Trust").
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { type SettingsScope, settingsLocations } from "../settings/index.js";

export interface PluginSwitch {
  enabled: boolean;
  scope: SettingsScope;
}

export interface MarketplaceEntry {
  /** The raw `source` object (`{"source": "directory", "path": …}`, `{"source": "github", "repo": …}`). */
  source: Record<string, unknown>;
  /** The directory a relative `path` is resolved against (the settings file's project or home). */
  root: string;
  /** The settings file it came from. */
  file: string;
}

export interface PluginSettings {
  enabled: Map<string, PluginSwitch>;
  marketplaces: Map<string, MarketplaceEntry>;
  problems: string[];
}

function objectOf(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Reads the two keys from every settings file (and `--settings`), lowest precedence first. */
export function readPluginSettings(cwd: string, env: NodeJS.ProcessEnv, flagSettings?: string): PluginSettings {
  const out: PluginSettings = { enabled: new Map(), marketplaces: new Map(), problems: [] };
  const files: Array<{ text: string; source: string; root: string; scope: SettingsScope }> = [];
  for (const location of settingsLocations(cwd, env)) {
    try {
      files.push({
        text: readFileSync(location.path, "utf8"),
        source: location.path,
        root: location.root,
        scope: location.scope,
      });
    } catch {
      // absent or unreadable: the settings loader already said so
    }
  }
  if (flagSettings !== undefined) {
    const value = flagSettings.trim();
    if (value.startsWith("{")) files.push({ text: value, source: "--settings", root: cwd, scope: "flag" });
    else {
      const path = resolve(cwd, value);
      try {
        files.push({ text: readFileSync(path, "utf8"), source: path, root: dirname(path), scope: "flag" });
      } catch {
        // the settings loader reports a --settings it cannot read
      }
    }
  }
  for (const file of files) {
    let data: Record<string, unknown> | undefined;
    try {
      data = objectOf(JSON.parse(file.text));
    } catch {
      continue; // not JSON: the settings loader reported it
    }
    if (data === undefined) continue;
    readEnabled(data.enabledPlugins, file, out);
    readMarketplaces(data.extraKnownMarketplaces, file, out);
  }
  return out;
}

function readEnabled(value: unknown, file: { source: string; scope: SettingsScope }, out: PluginSettings): void {
  if (value === undefined) return;
  const record = objectOf(value);
  if (record === undefined) {
    out.problems.push(`${file.source}: enabledPlugins must be an object of "plugin@marketplace": true; ignored`);
    return;
  }
  for (const [id, on] of Object.entries(record)) {
    // Claude Code also accepts a list of versions: on.
    if (typeof on === "boolean" || Array.isArray(on)) out.enabled.set(id, { enabled: on !== false, scope: file.scope });
    else out.problems.push(`${file.source}: enabledPlugins.${id} must be true or false; ignored`);
  }
}

function readMarketplaces(value: unknown, file: { source: string; root: string }, out: PluginSettings): void {
  if (value === undefined) return;
  const record = objectOf(value);
  if (record === undefined) {
    out.problems.push(`${file.source}: extraKnownMarketplaces must be an object of names; ignored`);
    return;
  }
  for (const [name, entry] of Object.entries(record)) {
    const source = objectOf(objectOf(entry)?.source);
    if (source === undefined || typeof source.source !== "string") {
      out.problems.push(`${file.source}: extraKnownMarketplaces.${name} has no {"source": {"source": …}}; ignored`);
      continue;
    }
    out.marketplaces.set(name, { source, root: file.root, file: file.source });
  }
}
