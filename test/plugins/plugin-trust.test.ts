/**
 * Plugins enabled by the PROJECT's settings are project code: with `projectCodeTrusted` false their hooks and
 * MCP servers are left out with one line, while their commands, agents and skills still load; a plugin given
 * with --plugin-dir (the person's own choice) is never held back (docs/PLUGINS.md "Trust").
 */
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadPlugins } from "../../src/plugins/index.js";
import { makeTempDir } from "../../support/temp-dir.js";

const made: string[] = [];
afterEach(async () => {
  for (const dir of made.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function projectWithMarket() {
  const cwd = await makeTempDir("threadline-plugin-trust-");
  made.push(cwd);
  await cp(resolve("test/fixtures/plugins/market"), join(cwd, "market"), { recursive: true });
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(
    join(cwd, ".claude", "settings.json"),
    JSON.stringify({
      enabledPlugins: { "dev-kit@m": true },
      extraKnownMarketplaces: { m: { source: { source: "directory", path: "./market" } } },
    }),
  );
  return { cwd, env: { HOME: join(cwd, "home") }, userHome: join(cwd, "home") };
}

describe("plugin trust", () => {
  it("projectCodeTrusted false: hooks of a project-enabled plugin are left out with one line", async () => {
    const base = await projectWithMarket();
    const trusted = loadPlugins(base);
    expect(trusted.hooks.SessionStart).toHaveLength(1);
    const held = loadPlugins({ ...base, projectCodeTrusted: false });
    // Mutation caught: the gate ignoring projectCodeTrusted (the hook would be kept).
    expect(held.hooks.SessionStart).toBeUndefined();
    expect(held.notices.filter((line) => line.includes("not trusted"))).toHaveLength(1);
    expect(held.commandFolders.map((folder) => folder.namespace)).toEqual(["dev-kit"]);
  });

  it("a --plugin-dir plugin keeps its hooks even when the project is not trusted", async () => {
    const base = await projectWithMarket();
    await rm(join(base.cwd, ".claude"), { recursive: true });
    const set = loadPlugins({
      ...base,
      projectCodeTrusted: false,
      pluginDirs: [join(base.cwd, "market", "plugins", "dev-kit")],
    });
    const command = set.hooks.SessionStart?.[0]?.hooks[0];
    expect(command?.command).toBe(join(base.cwd, "market", "plugins", "dev-kit", "hooks-handlers", "session-start.sh"));
    expect(command?.env?.CLAUDE_PLUGIN_ROOT).toBe(join(base.cwd, "market", "plugins", "dev-kit"));
  });

  it("a plugin's .mcp.json servers are named plugin:<plugin>:<server> with CLAUDE_PLUGIN_ROOT expanded and set", async () => {
    const base = await projectWithMarket();
    const root = join(base.cwd, "market", "plugins", "dev-kit");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code's placeholder, written literally in .mcp.json
    const args = ["${CLAUDE_PLUGIN_ROOT}/server.js"];
    await writeFile(join(root, ".mcp.json"), JSON.stringify({ mcpServers: { tools: { command: "node", args } } }));
    const trusted = loadPlugins(base);
    expect(trusted.mcpServers[0]?.mcpServers).toEqual({
      "plugin:dev-kit:tools": { command: "node", args: [`${root}/server.js`], env: { CLAUDE_PLUGIN_ROOT: root } },
    });
    expect(loadPlugins({ ...base, projectCodeTrusted: false }).mcpServers).toEqual([]);
  });
});
