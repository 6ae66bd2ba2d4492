/**
 * Settings keys issue 40 found dropped without a word: a hook's `if` and `async` are kept (an `if` on an event
 * without a tool call is named, never silently inert), a Claude Code event threadline does not fire and hook keys
 * it does not run are named, every accepted-but-ignored key is named in one line per file, and the managed
 * settings file's `allowManagedHooksOnly` / `allowManagedPermissionRulesOnly` are obeyed (deny rules from every
 * file still hold). Files on disk; the managed file found through THREADLINE_MANAGED_SETTINGS.
 * Mutations (scripts/mutation-check.mjs): hook-if-on-stop-kept, settings-not-acted-on-silent,
 * managed-hooks-only-ignored, managed-rules-only-drops-deny.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatSettingsProblem, loadSettings, parseSettingsFile } from "../../src/settings/index.js";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function tree(files: Record<string, unknown>): Promise<{ base: string; home: string; cwd: string }> {
  const base = await mkdtemp(join(tmpdir(), "threadline-managed-"));
  directories.push(base);
  for (const [path, content] of Object.entries(files)) {
    const full = join(base, path);
    await mkdir(join(full, ".."), { recursive: true });
    await writeFile(full, JSON.stringify(content));
  }
  await mkdir(join(base, "project"), { recursive: true });
  return { base, home: join(base, "home"), cwd: join(base, "project") };
}

const context = { source: "/p/.claude/settings.json", root: "/p", home: "/h" };
const command = (text: string, extra: Record<string, unknown> = {}) => ({ type: "command", command: text, ...extra });

describe("hook keys and unacted settings are named", () => {
  it("keeps `if` and `async`, and names an `if` on Stop, an unfired event, unknown hook keys and ignored settings", () => {
    const text = JSON.stringify({
      apiKeyHelper: "/bin/key",
      theme: "dark",
      enabledPlugins: {},
      hooks: {
        PreToolUse: [
          {
            matcher: "Bash",
            hooks: [
              command("guard.sh", { if: "Bash(git commit:*)", async: true, asyncRewake: true, rewakeMessage: "M" }),
              command("other.sh", { asyncTimeout: 5 }),
            ],
          },
        ],
        Stop: [{ hooks: [command("stop.sh", { if: "Bash(ls)" })] }],
        Setup: [{ hooks: [command("after.sh")] }],
      },
    });
    const { settings, problems } = parseSettingsFile(text, context);
    expect(problems.map(formatSettingsProblem)).toEqual([
      '/p/.claude/settings.json: hooks.PreToolUse[0].hooks[1]: "asyncTimeout" not acted on by threadline; the hook runs without them',
      "/p/.claude/settings.json: hooks.Stop[0].hooks[0].if: only tool events (PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest) have one; this hook never runs",
      "/p/.claude/settings.json: hooks.Setup: is a Claude Code event threadline does not fire; its hooks never run",
      // Mutation caught (settings-not-acted-on-silent): without it the two keys vanish without a word.
      "/p/.claude/settings.json: Claude Code settings threadline does not act on: apiKeyHelper, theme; ignored",
    ]);
    expect(settings.hooks.PreToolUse?.[0]?.hooks).toEqual([
      {
        command: "guard.sh",
        source: "/p/.claude/settings.json",
        if: "Bash(git commit:*)",
        async: true,
        rewake: { message: "M" },
      },
      { command: "other.sh", source: "/p/.claude/settings.json" },
    ]);
    // Mutation caught (hook-if-on-stop-kept): the Stop hook is kept, to run on every stop.
    expect(settings.hooks.Stop).toBeUndefined();
  });
});

describe("managed settings", () => {
  it("allowManagedHooksOnly keeps only the managed file's hooks; the same key elsewhere is named and ignored", async () => {
    const { base, home, cwd } = await tree({
      "managed/managed-settings.json": {
        allowManagedHooksOnly: true,
        hooks: { PreToolUse: [{ hooks: [command("managed-guard.sh")] }] },
      },
      "home/.claude/settings.json": {
        allowManagedHooksOnly: false,
        hooks: { Stop: [{ hooks: [command("user.sh")] }] },
      },
      "project/.claude/settings.json": { hooks: { PreToolUse: [{ hooks: [command("project.sh")] }] } },
    });
    const managedFile = join(base, "managed", "managed-settings.json");
    const { settings, problems } = loadSettings({ cwd, env: { HOME: home, THREADLINE_MANAGED_SETTINGS: managedFile } });
    // Mutation caught (managed-hooks-only-ignored): user.sh and project.sh would run too.
    expect(settings.hooks).toEqual({
      PreToolUse: [{ matcher: "", hooks: [{ command: "managed-guard.sh", source: managedFile }] }],
    });
    expect(problems.map(formatSettingsProblem)).toEqual([
      `${join(home, ".claude", "settings.json")}: allowManagedHooksOnly: is honoured only in the managed settings file (${managedFile}); ignored here`,
      `${managedFile}: allowManagedHooksOnly: only managed hooks run; 2 hook entries from other settings files (and every plugin's hooks) will not`,
    ]);
  });

  it("allowManagedPermissionRulesOnly drops other files' allow rules but never their deny rules", async () => {
    const { base, home, cwd } = await tree({
      "managed/managed-settings.json": {
        allowManagedPermissionRulesOnly: true,
        permissions: { allow: ["Read"], deny: ["WebFetch"] },
      },
      "project/.claude/settings.json": { permissions: { allow: ["Bash"], deny: ["Bash(rm:*)"] } },
    });
    const managedFile = join(base, "managed", "managed-settings.json");
    const { settings } = loadSettings({ cwd, env: { HOME: home, THREADLINE_MANAGED_SETTINGS: managedFile } });
    expect(settings.permissions.allow.map((rule) => rule.rule)).toEqual(["Read"]);
    // Mutation caught (managed-rules-only-drops-deny): the project's deny rule would be lost.
    expect(settings.permissions.deny.map((rule) => rule.rule)).toEqual(["Bash(rm:*)", "WebFetch"]);
  });
});
