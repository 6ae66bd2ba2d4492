/** Slash commands a person mistypes or half-types: a suggestion, the list, the keys. */
import { describe, expect, it } from "vitest";
import { isSlashCommand, type ReplHost, runSlashCommand } from "../../src/cli/modes/slash/slash-commands.js";

/** A host that only prints (the commands tested here touch nothing else). */
function printingHost(): { host: ReplHost; printed: string[] } {
  const printed: string[] = [];
  const host = { print: (text: string) => void printed.push(text) } as unknown as ReplHost;
  return { host, printed };
}

describe("slash commands", () => {
  // Mutation caught: dropping the closestMatch call leaves "/cots" with only "Unknown command".
  it("a typo gets a did-you-mean naming the command", async () => {
    const { host, printed } = printingHost();
    expect(await runSlashCommand("/cots", host)).toBe("continue");
    expect(printed).toEqual(["Unknown command /cots. Did you mean /cost? (/help lists them all)"]);
  });

  it("a lone / lists the commands, and /help names Esc and the multi-line keys", async () => {
    expect(isSlashCommand("/")).toBe(true);
    const { host, printed } = printingHost();
    await runSlashCommand("/", host);
    expect(printed[0]).toContain("/compact");
    await runSlashCommand("/help", host);
    expect(printed[1]).toMatch(/Esc or Ctrl-C +interrupt the turn/);
    expect(printed[1]).toContain("Shift-Enter");
    expect(printed[1]).toContain("\\ then Enter");
  });
});

describe("/help with commands, skills and plugins (docs/PLUGINS.md)", () => {
  it("lists plugin commands and skills with their argument hints, and /plugin lists plugins", async () => {
    const printed: string[] = [];
    const host = {
      print: (text: string) => void printed.push(text),
      engine: { cwd: "/nowhere" },
      customCommands: [
        {
          name: "dev-kit:hello",
          description: "Greet someone",
          argumentHint: "[user prompt] [orchestration prompt]",
          allowedTools: [],
          body: "",
          path: "/p/hello.md",
          scope: "plugin",
        },
        {
          name: "tidy",
          description: "Tidy up",
          argumentHint: "<dir>",
          allowedTools: [],
          body: "",
          path: "/p",
          scope: "project",
        },
      ],
      plugins: {
        plugins: [
          {
            name: "dev-kit",
            id: "dev-kit@m",
            version: "1.2.0",
            root: "/plugins/dev-kit",
            origin: "project",
            enabled: true,
            commandFolders: [{ path: "/plugins/dev-kit/commands", namespace: "dev-kit" }],
            agentFolders: [],
            skillFolders: [],
            hooks: {},
          },
        ],
        commandFolders: [],
        agentFolders: [],
        skillFolders: [],
        hooks: {},
        mcpServers: [],
        notices: [],
      },
    } as unknown as ReplHost;
    await runSlashCommand("/help", host);
    expect(printed[0]).toContain("/dev-kit:hello [user prompt] [orchestration prompt] Greet someone (plugin)");
    expect(printed[0]).toContain("/tidy <dir>");
    await runSlashCommand("/plugin", host);
    expect(printed[1]).toContain("● dev-kit@m 1.2.0  (project; commands)  /plugins/dev-kit");
  });
});

describe("/plugin enable and disable", () => {
  it("writes enabledPlugins into the project's .claude/settings.local.json, keeping its other keys", async () => {
    const { makeTempDir } = await import("../../support/temp-dir.js");
    const { mkdir, readFile, rm, writeFile } = await import("node:fs/promises");
    const { join } = await import("node:path");
    const { pluginCommand } = await import("../../src/cli/modes/slash/plugin-command.js");
    const cwd = await makeTempDir("threadline-plugin-command-");
    try {
      await mkdir(join(cwd, ".claude"));
      await writeFile(join(cwd, ".claude", "settings.local.json"), '{"model": "m1"}');
      expect(await pluginCommand(undefined, cwd, "disable dev-kit@m")).toContain("applies from the next start");
      await pluginCommand(undefined, cwd, "enable other@m");
      const written = JSON.parse(await readFile(join(cwd, ".claude", "settings.local.json"), "utf8"));
      expect(written).toEqual({ model: "m1", enabledPlugins: { "dev-kit@m": false, "other@m": true } });
      expect(await pluginCommand(undefined, cwd, "enable bare")).toContain('"plugin@marketplace"');
    } finally {
      await rm(cwd, { recursive: true, force: true });
    }
  });
});
