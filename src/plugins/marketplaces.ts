/**
 * From `name@marketplace` to a plugin folder on disk, without the network (docs/PLUGINS.md "Marketplaces").
 * A marketplace is found in `extraKnownMarketplaces` (source `directory` or `file`: a local folder; any
 * other source: the checkout Claude Code keeps under `~/.claude/plugins/marketplaces/<name>`, or the
 * `installLocation` in `~/.claude/plugins/known_marketplaces.json`) or in that file alone. Its
 * `.claude-plugin/marketplace.json` lists plugins; an entry whose `source` is a relative path is a folder of
 * the marketplace, any other source is looked for in Claude Code's cache (`~/.claude/plugins/cache/<market>/
 * <plugin>/…`). Whatever is not on disk is skipped with one line saying it needs a download.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import type { MarketplaceEntry } from "./plugin-settings.js";

/** Where Claude Code keeps plugins under the user's home. */
export function claudePluginsDir(userHome: string): string {
  return join(userHome, ".claude", "plugins");
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function expandHome(path: string, userHome: string): string {
  return path === "~" || path.startsWith("~/") ? join(userHome, path.slice(1)) : path;
}

/** The marketplace's folder, or why it cannot be used here. */
export function marketplaceRoot(
  name: string,
  entry: MarketplaceEntry | undefined,
  userHome: string,
): { root: string } | { skipped: string } {
  const plugins = claudePluginsDir(userHome);
  const known = (readJson(join(plugins, "known_marketplaces.json")) ?? {}) as Record<
    string,
    { installLocation?: unknown }
  >;
  const installed = known[name]?.installLocation;
  if (entry !== undefined) {
    const kind = String(entry.source.source);
    const path = typeof entry.source.path === "string" ? entry.source.path : undefined;
    if ((kind === "directory" || kind === "file") && path !== undefined) {
      const full = resolve(entry.root, expandHome(path, userHome));
      if (kind === "file") {
        const folder = dirname(full);
        return { root: basename(folder) === ".claude-plugin" ? dirname(folder) : folder };
      }
      return isDirectory(full) ? { root: full } : { skipped: `marketplace "${name}": folder ${full} does not exist` };
    }
  }
  if (typeof installed === "string" && isDirectory(installed)) return { root: installed };
  const checkout = join(plugins, "marketplaces", name);
  if (isDirectory(checkout)) return { root: checkout };
  if (entry === undefined) return { skipped: `marketplace "${name}" is not known (no extraKnownMarketplaces entry)` };
  const kind = String(entry.source.source);
  const where = String(entry.source.repo ?? entry.source.url ?? entry.source.package ?? "");
  return {
    skipped: `marketplace "${name}" (${kind}${where !== "" ? ` ${where}` : ""}) needs a download; threadline does not fetch at run time (clone it to ${checkout})`,
  };
}

/** The folder of plugin `plugin` in the marketplace at `root`, or why not. */
export function pluginInMarketplace(
  plugin: string,
  market: string,
  root: string,
  userHome: string,
): { folder: string } | { skipped: string } {
  const manifest = readJson(join(root, ".claude-plugin", "marketplace.json")) as
    | { plugins?: unknown; metadata?: { pluginRoot?: unknown } }
    | undefined;
  if (manifest === undefined || !Array.isArray(manifest.plugins))
    return { skipped: `marketplace "${market}": no readable .claude-plugin/marketplace.json in ${root}` };
  const entry = (manifest.plugins as Array<Record<string, unknown>>).find((item) => item?.name === plugin);
  if (entry === undefined) return { skipped: `marketplace "${market}" lists no plugin "${plugin}"` };
  if (typeof entry.source === "string") {
    const base = typeof manifest.metadata?.pluginRoot === "string" ? resolve(root, manifest.metadata.pluginRoot) : root;
    const folder = isAbsolute(entry.source) ? entry.source : resolve(base, entry.source);
    return isDirectory(folder)
      ? { folder }
      : { skipped: `plugin "${plugin}@${market}": folder ${folder} does not exist` };
  }
  const cache = join(claudePluginsDir(userHome), "cache", market, plugin);
  if (existsSync(join(cache, ".claude-plugin", "plugin.json"))) return { folder: cache };
  const versions = isDirectory(cache)
    ? readdirSync(cache)
        .filter((name) => isDirectory(join(cache, name)))
        .sort()
    : [];
  const latest = versions.at(-1);
  if (latest !== undefined) return { folder: join(cache, latest) };
  return {
    skipped: `plugin "${plugin}@${market}" comes from ${JSON.stringify(entry.source)} and needs a download; threadline does not fetch at run time`,
  };
}
