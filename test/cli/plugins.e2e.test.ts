/**
 * Claude Code plugins, custom subagents, full slash commands and skills named by folder, through the built CLI
 * against the emulator (docs/PLUGINS.md). The plugin is test/fixtures/plugins/market/plugins/dev-kit, written in
 * the shapes Claude Code's published plugins use. Oracles: what reached the model (the emulator's logged
 * requests) and the marker file the plugin's SessionStart hook wrote.
 */
import { existsSync } from "node:fs";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Emulator, EmulatorOptions } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { runCli } from "./cli-process.js";

const harness = useCliHarness();
const MARKET = resolve("test/fixtures/plugins/market");
const NOTES = "NOTES-FILE-CONTENTS: release on Friday.";

interface LoggedBody {
  model: string;
  system?: string | Array<{ text: string }>;
  messages: unknown;
  tools?: Array<{ name: string; description?: string }>;
}

function bodies(server: Emulator): LoggedBody[] {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => request.body as LoggedBody);
}

function systemText(body: LoggedBody): string {
  return typeof body.system === "string" ? body.system : (body.system ?? []).map((block) => block.text).join("\n");
}

/** A project with its own copy of the marketplace (so the plugin's folder is a temp path). */
async function project(options: EmulatorOptions) {
  const setup = await harness.setup(options, "threadline-plugins-");
  const userHome = await harness.tempDir("threadline-plugins-user-");
  await mkdir(join(setup.cwd, ".git"), { recursive: true });
  await writeFile(join(setup.cwd, "notes.txt"), `${NOTES}\n`);
  const market = join(setup.cwd, "vendor", "market");
  await cp(MARKET, market, { recursive: true });
  return { ...setup, market, plugin: join(market, "plugins", "dev-kit"), env: { ...setup.env, HOME: userHome } };
}

describe("plugins in the CLI", () => {
  it("--plugin-dir: /dev-kit:hello runs !`cmd` under allowed-tools, inlines @file, uses model:, runs the plugin's hook", async () => {
    const { cwd, env, emulator, plugin } = await project({ scenario: ["Hello Alice."] });
    const result = await runCli(["-p", "/dev-kit:hello Alice Bob", "--plugin-dir", plugin], { cwd, env });
    expect(result.code).toBe(0);
    const [first] = bodies(emulator);
    const sent = JSON.stringify(first!.messages);
    expect(sent).toContain("Greet Alice (everything: Alice Bob).");
    // Mutation caught: shellAllowed always true (the touch would run and its output replace the line).
    expect(sent).toContain("Shell said: plugin-shell-ok");
    expect(existsSync(join(cwd, "hello-side-effect.txt"))).toBe(false);
    expect(sent).toContain("(not run: `touch hello-side-effect.txt` is not allowed by this command's allowed-tools)");
    expect(sent).toContain(NOTES);
    // The front matter (argument-hint: [a] [b], hooks:) was understood, not sent as text.
    expect(sent).not.toContain("argument-hint");
    expect(first!.model).toBe("claude-haiku-4-5");
    // ${CLAUDE_PLUGIN_ROOT} expanded in the command and set in the hook's environment.
    expect(await readFile(join(cwd, "plugin-hook.txt"), "utf8")).toBe(`root=${plugin}\n`);
    expect(sent).toContain("dev-kit session context");
    // Named once: what the plugin declares and threadline does not act on.
    expect(result.stderr.match(/outputStyles not acted on/g)).toHaveLength(1);
    expect(result.stderr).toContain("color not acted on");
    // The plugin's agent and skill are offered, namespaced like Claude Code's.
    const tools = first!.tools ?? [];
    expect(tools.find((tool) => tool.name === "Agent")?.description).toContain("- dev-kit:reviewer: Reviews code");
    expect(tools.find((tool) => tool.name === "Skill")?.description).toContain("- dev-kit:hook-development:");
  });

  it("enabledPlugins through a local marketplace loads the plugin; a marketplace needing download is named as skipped", async () => {
    const { cwd, env, emulator, market } = await project({ scenario: ["Reviewed.", "Reviewed."] });
    await mkdir(join(cwd, ".claude"), { recursive: true });
    await writeFile(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        enabledPlugins: { "dev-kit@local-market": true, "remote-kit@local-market": true, "far-kit@far": true },
        extraKnownMarketplaces: {
          "local-market": { source: { source: "directory", path: "./vendor/market" } },
          far: { source: { source: "github", repo: "example/far" } },
        },
      }),
    );
    // Untrusted folder: the project-enabled plugin's hook is project code and does not run (docs/TRUST.md).
    const untrusted = await runCli(["-p", "/dev-kit:review:pr 42"], { cwd, env });
    expect(untrusted.code).toBe(0);
    await expect(readFile(join(cwd, "plugin-hook.txt"), "utf8")).rejects.toThrow(/ENOENT/);
    const result = await runCli(["-p", "--trust-folder", "/dev-kit:review:pr 42"], { cwd, env });
    expect(result.code).toBe(0);
    expect(JSON.stringify(bodies(emulator)[1]!.messages)).toContain("Review pull request 42 carefully.");
    expect(await readFile(join(cwd, "plugin-hook.txt"), "utf8")).toBe(`root=${join(market, "plugins", "dev-kit")}\n`);
    expect(result.stderr).toContain("plugin remote-kit@local-market skipped");
    expect(result.stderr).toContain(
      'plugin far-kit@far skipped: marketplace "far" (github example/far) needs a download',
    );
    // The settings loader accepts both keys: no "unknown key" line.
    expect(result.stderr).not.toContain("is not a setting");
  });
});

describe("skills and custom subagents in the CLI", () => {
  it('Skill{"skill":"hook-development"} finds the skill by its folder, whatever its front matter name says', async () => {
    const { cwd, env, emulator } = await project({
      scenario: [{ content: [{ type: "tool_use", name: "Skill", input: { skill: "hook-development" } }] }, "Loaded."],
    });
    await mkdir(join(cwd, ".claude", "skills"), { recursive: true });
    await cp(
      join(MARKET, "plugins", "dev-kit", "skills", "hook-development"),
      join(cwd, ".claude", "skills", "hook-development"),
      {
        recursive: true,
      },
    );
    const result = await runCli(["-p", "load the hook skill"], { cwd, env });
    expect(result.code).toBe(0);
    const second = JSON.stringify(bodies(emulator)[1]!.messages);
    // Mutation caught: the skill keyed by its front matter name ("Hook Development") again.
    expect(second).toContain("HOOK-SKILL-BODY");
    expect(second).not.toContain("no skill named");
  });

  it("a skill runs as /name; /help-style listing is in the CLI's command list", async () => {
    const { cwd, env, emulator } = await project({ scenario: ["Done."] });
    await mkdir(join(cwd, ".claude", "skills", "tidy"), { recursive: true });
    await writeFile(
      join(cwd, ".claude", "skills", "tidy", "SKILL.md"),
      "---\nname: tidy-up\ndescription: Tidy the repository\n---\nTIDY-BODY for $ARGUMENTS\n",
    );
    const result = await runCli(["-p", "/tidy src"], { cwd, env });
    expect(result.code).toBe(0);
    expect(JSON.stringify(bodies(emulator)[0]!.messages)).toContain("TIDY-BODY for src");
  });

  it("a project agent in .claude/agents is a subagent type with its own system prompt, tools and model", async () => {
    const { cwd, env, emulator } = await project({
      scenario: [
        {
          content: [
            {
              type: "tool_use",
              name: "Agent",
              input: { description: "audit", prompt: "Audit the notes", subagent_type: "auditor" },
            },
          ],
        },
        "AUDIT-RESULT: fine.",
        "The auditor says fine.",
      ],
    });
    await mkdir(join(cwd, ".claude", "agents"), { recursive: true });
    await writeFile(
      join(cwd, ".claude", "agents", "auditor.md"),
      "---\nname: auditor\ndescription: Audits files read-only\ntools: Read, Grep\nmodel: haiku\n---\nYOU-ARE-THE-AUDITOR. Read and report.\n",
    );
    const result = await runCli(["-p", "audit please"], { cwd, env });
    expect(result.code).toBe(0);
    const [parent, sub] = bodies(emulator);
    expect(parent!.tools?.find((tool) => tool.name === "Agent")?.description).toContain(
      "- auditor: Audits files read-only",
    );
    expect(systemText(sub!)).toContain("YOU-ARE-THE-AUDITOR");
    expect((sub!.tools ?? []).map((tool) => tool.name).sort()).toEqual(["Grep", "Read"]);
    expect(sub!.model).toBe("claude-haiku-5-5");
  });
});
