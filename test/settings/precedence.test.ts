/**
 * Single values of settings files come from the highest file that sets them (docs/SETTINGS.md "Files and
 * precedence": user < project < local < --settings, threadline's own file after Claude Code's at each scope).
 * Every scope here sets its own value, so a merge that lets a lower file win shows. Oracle: the literal values
 * written into each file.
 *
 * Mutations caught (scripts/mutation-check.mjs): `settings-default-mode-lower-wins`,
 * `settings-compaction-lower-wins`, `settings-model-lower-wins`.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadSettings } from "../../src/settings/index.js";

const bases: string[] = [];
afterEach(async () => {
  for (const base of bases.splice(0)) await rm(base, { recursive: true, force: true });
});

async function layout(files: Record<string, unknown>): Promise<{ home: string; cwd: string }> {
  const base = await mkdtemp(join(tmpdir(), "threadline-precedence-"));
  bases.push(base);
  for (const [path, content] of Object.entries(files)) {
    await mkdir(join(base, path, ".."), { recursive: true });
    await writeFile(join(base, path), JSON.stringify(content));
  }
  await mkdir(join(base, "project"), { recursive: true });
  return { home: join(base, "home"), cwd: join(base, "project") };
}

describe("single-value settings: the highest file that sets one wins", () => {
  it("permissions.defaultMode: the project's beats the user's, the local file beats the project's", async () => {
    const { home, cwd } = await layout({
      "home/.claude/settings.json": { permissions: { defaultMode: "acceptEdits" } },
      "project/.claude/settings.json": { permissions: { defaultMode: "default" } },
    });
    const two = loadSettings({ cwd, env: { HOME: home } });
    expect(two.problems).toEqual([]);
    expect(two.settings.permissions.defaultMode).toBe("default");

    await writeFile(
      join(cwd, ".claude", "settings.local.json"),
      JSON.stringify({ permissions: { defaultMode: "acceptEdits" } }),
    );
    expect(loadSettings({ cwd, env: { HOME: home } }).settings.permissions.defaultMode).toBe("acceptEdits");
  });

  it("compaction switches: each switch from the highest file that names it, the others kept from below", async () => {
    const { home, cwd } = await layout({
      "home/.claude/settings.json": { compaction: { snip: false, autocompact: false, collapse: true } },
      "home/.threadline/settings.json": { compaction: { snip: true } },
      "project/.claude/settings.json": { compaction: { autocompact: true } },
    });
    const { settings, problems } = loadSettings({
      cwd,
      env: { HOME: home },
      flagSettings: '{"compaction": {"collapse": false}}',
    });
    expect(problems).toEqual([]);
    expect(settings.compaction).toEqual({ snip: true, autocompact: true, collapse: false });
  });

  it("model: the local file's beats the project's, threadline's own beats Claude Code's at one scope", async () => {
    const { home, cwd } = await layout({
      "home/.claude/settings.json": { model: "user-model" },
      "project/.claude/settings.json": { model: "project-model" },
      "project/.claude/settings.local.json": { model: "local-model" },
    });
    expect(loadSettings({ cwd, env: { HOME: home } }).settings.model).toBe("local-model");
    await mkdir(join(cwd, ".threadline"), { recursive: true });
    await writeFile(join(cwd, ".threadline", "settings.local.json"), JSON.stringify({ model: "threadline-local" }));
    expect(loadSettings({ cwd, env: { HOME: home } }).settings.model).toBe("threadline-local");
  });
});
