/**
 * `statusLine` and `outputStyle` in settings files (docs/SETTINGS.md): read and checked key by key, the highest
 * file's winning, a project's status line command withheld in an untrusted folder (named in the trust gate's line)
 * while the user's runs, and `disableAllHooks` turning that file's command off as in Claude Code. Files on disk.
 * Mutations (scripts/mutation-check.mjs): status-line-untrusted-runs, status-line-disable-all-hooks-kept.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatSettingsProblem, loadSettings, parseSettingsFile } from "../../src/settings/index.js";
import { createTrustGate } from "../../src/trust/index.js";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function tree(files: Record<string, unknown>): Promise<{ home: string; cwd: string; env: NodeJS.ProcessEnv }> {
  const base = await mkdtemp(join(tmpdir(), "threadline-statusline-"));
  directories.push(base);
  for (const [path, content] of Object.entries(files)) {
    const full = join(base, path);
    await mkdir(join(full, ".."), { recursive: true });
    await writeFile(full, JSON.stringify(content));
  }
  await mkdir(join(base, "project"), { recursive: true });
  const home = join(base, "home");
  const env = { HOME: home, THREADLINE_HOME: join(base, "tl-home"), THREADLINE_MANAGED_SETTINGS: join(base, "none") };
  return { home, cwd: join(base, "project"), env };
}

const context = { source: "/p/.claude/settings.json", root: "/p", home: "/h" };

describe("statusLine and outputStyle settings", () => {
  it("reads the command, padding and style; names what is wrong or not acted on, key by key", () => {
    const good = parseSettingsFile(
      JSON.stringify({
        statusLine: { type: "command", command: "~/.claude/sl.sh", padding: 2, refreshInterval: 5 },
        outputStyle: "Explanatory",
      }),
      context,
    );
    expect(good.settings.statusLine).toEqual({ command: "~/.claude/sl.sh", padding: 2, source: context.source });
    expect(good.settings.outputStyle).toBe("Explanatory");
    expect(good.problems.map(formatSettingsProblem)).toEqual([
      "/p/.claude/settings.json: statusLine.refreshInterval: not acted on by threadline; ignored",
    ]);
    const bad = parseSettingsFile(
      JSON.stringify({ statusLine: { type: "command", padding: -1 }, outputStyle: 3 }),
      context,
    );
    expect(bad.settings.statusLine).toBeUndefined();
    expect(bad.settings.outputStyle).toBeUndefined();
    expect(bad.problems.map(formatSettingsProblem)).toEqual([
      "/p/.claude/settings.json: statusLine.command: must be a command, got nothing; no status line command",
      "/p/.claude/settings.json: outputStyle: must be the name of an output style, got number 3; ignored",
    ]);
  });

  it("the highest file's statusLine and outputStyle win", async () => {
    const { cwd, env } = await tree({
      "home/.claude/settings.json": { statusLine: { type: "command", command: "user.sh" }, outputStyle: "Learning" },
      "project/.claude/settings.json": { statusLine: { type: "command", command: "project.sh" } },
      "project/.claude/settings.local.json": { outputStyle: "Explanatory" },
    });
    const { settings } = loadSettings({ cwd, env });
    expect(settings.statusLine?.command).toBe("project.sh");
    expect(settings.outputStyle).toBe("Explanatory");
  });

  // Mutation caught: the project's command kept without asking the gate (status-line-untrusted-runs).
  it("an untrusted folder's statusLine is withheld and named; the user's own still runs", async () => {
    const { cwd, env } = await tree({
      "home/.claude/settings.json": { statusLine: { type: "command", command: "user.sh" } },
      "project/.claude/settings.json": { statusLine: { type: "command", command: "./evil.sh" } },
    });
    const gate = createTrustGate({ cwd, home: env.THREADLINE_HOME!, mode: "print" });
    const { settings } = loadSettings({
      cwd,
      env,
      mayRunProjectCode: (kind, what, source) => gate.mayRun(kind, what, source),
    });
    expect(settings.statusLine?.command).toBe("user.sh");
    expect(gate.withheldLine()).toContain("withheld project status line command (./evil.sh)");
    const trusted = createTrustGate({ cwd, home: env.THREADLINE_HOME!, mode: "print", trustFlag: true });
    const opened = loadSettings({
      cwd,
      env,
      mayRunProjectCode: (kind, what, source) => trusted.mayRun(kind, what, source),
    });
    expect(opened.settings.statusLine?.command).toBe("./evil.sh");
  });

  // Mutation caught: disableAllHooks leaving the file's status line command (status-line-disable-all-hooks-kept).
  it("disableAllHooks turns that file's status line command off, as in Claude Code", () => {
    const { settings } = parseSettingsFile(
      JSON.stringify({ disableAllHooks: true, statusLine: { type: "command", command: "sl.sh" } }),
      context,
    );
    expect(settings.statusLine).toBeUndefined();
  });
});
