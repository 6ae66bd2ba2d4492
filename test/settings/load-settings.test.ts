/**
 * Settings files (issue 30): where they are looked for and in which order, what a bad file or key costs (one
 * line naming the file and the key, the rest still applies), and fuzzed files that never throw.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { formatSettingsProblem, loadSettings, parseSettingsFile, SettingsError } from "../../src/settings/index.js";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

async function tree(files: Record<string, unknown>): Promise<{ home: string; cwd: string }> {
  const base = await mkdtemp(join(tmpdir(), "threadline-settings-"));
  directories.push(base);
  const home = join(base, "home");
  const cwd = join(base, "project");
  for (const [path, content] of Object.entries(files)) {
    const full = join(base, path);
    await mkdir(join(full, ".."), { recursive: true });
    await writeFile(full, typeof content === "string" ? content : JSON.stringify(content));
  }
  await mkdir(cwd, { recursive: true });
  return { home, cwd };
}

const context = { source: "/p/.claude/settings.json", root: "/p", home: "/h" };

describe("settings files", () => {
  it("merge in Claude Code's order, threadline's own file after Claude Code's at each level, --settings last", async () => {
    const { home, cwd } = await tree({
      "home/.claude/settings.json": {
        model: "user-model",
        permissions: { allow: ["Read"], defaultMode: "acceptEdits" },
        env: { A: "user", B: "user" },
      },
      "home/.threadline/settings.json": { env: { B: "threadline-user" } },
      "project/.claude/settings.json": { model: "project-model", permissions: { deny: ["Bash(rm:*)"] } },
      "project/.claude/settings.local.json": { permissions: { allow: ["Bash(npm test:*)"] }, env: { C: "local" } },
      "project/.threadline/settings.local.json": { model: "local-model" },
    });
    const { settings, problems } = loadSettings({
      cwd,
      env: { HOME: home },
      flagSettings: '{"permissions": {"deny": ["WebFetch"]}, "env": {"C": "flag"}}',
    });
    expect(problems).toEqual([]);
    expect(settings.model).toBe("local-model");
    expect(settings.permissions.defaultMode).toBe("acceptEdits");
    expect(settings.permissions.allow.map((rule) => rule.rule)).toEqual(["Read", "Bash(npm test:*)"]);
    expect(settings.permissions.deny.map((rule) => [rule.rule, rule.source])).toEqual([
      ["Bash(rm:*)", join(cwd, ".claude", "settings.json")],
      ["WebFetch", "--settings"],
    ]);
    expect(settings.env).toEqual({ A: "user", B: "threadline-user", C: "flag" });
  });

  it("a bad key is one line naming the file and the key; the rest of the file still applies", () => {
    const text = JSON.stringify({
      model: 42,
      effortLevel: "extreme",
      permissions: { allow: ["Read", 7, "Bash(ls"], deny: ["Bash(rm:*)"], defaultMode: "auto" },
      hooks: { PreToolUse: [{ matcher: "(", hooks: [] }], Bogus: [] },
      theme: "dark",
      modle: "typo",
      env: { GOOD: "1", NUM: 3, OBJ: {} },
    });
    const { settings, problems } = parseSettingsFile(text, context);
    const lines = problems.map(formatSettingsProblem);
    expect(lines).toEqual([
      "/p/.claude/settings.json: model: must be a model name, got number 42; ignored",
      '/p/.claude/settings.json: effortLevel: must be one of low, medium, high, xhigh, max, got "extreme"; ignored',
      '/p/.claude/settings.json: permissions.allow[1]: 7 is not a rule like "Bash(npm test:*)"; ignored',
      '/p/.claude/settings.json: permissions.allow[2]: "Bash(ls" is not a rule like "Bash(npm test:*)"; ignored',
      '/p/.claude/settings.json: permissions.defaultMode: "auto" is not a mode threadline has (default, acceptEdits, bypassPermissions, plan, dontAsk, manual); ignored',
      '/p/.claude/settings.json: hooks.PreToolUse[0].matcher: "(" is not a valid regular expression; this entry is ignored',
      "/p/.claude/settings.json: hooks.Bogus: is not an event threadline runs (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart, SessionEnd, Stop, SubagentStop, PreCompact, Notification, PostToolUseFailure, PermissionRequest, SubagentStart, PostCompact, StopFailure); ignored",
      "/p/.claude/settings.json: modle: is not a setting threadline or Claude Code knows; ignored (the rest of the file applies)",
      "/p/.claude/settings.json: env.OBJ: must be a string, got an object; ignored",
      "/p/.claude/settings.json: Claude Code settings threadline does not act on: theme; ignored",
    ]);
    // What was valid is kept: the deny rule, the good allow rule, env values (numbers as text).
    expect(settings.permissions.deny.map((rule) => rule.rule)).toEqual(["Bash(rm:*)"]);
    expect(settings.permissions.allow.map((rule) => rule.rule)).toEqual(["Read"]);
    expect(settings.env).toEqual({ GOOD: "1", NUM: "3" });
  });

  it("a file that is not JSON and names no deny rule is one line, and the other files still apply", async () => {
    const { home, cwd } = await tree({
      "project/.claude/settings.json": "{ permissions: allow }",
      "project/.claude/settings.local.json": { permissions: { deny: ["Bash(curl:*)"] } },
    });
    const { settings, problems } = loadSettings({ cwd, env: { HOME: home } });
    expect(problems).toHaveLength(1);
    expect(formatSettingsProblem(problems[0]!)).toMatch(
      new RegExp(
        `^${join(cwd, ".claude", "settings.json").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: not valid JSON \\(.+\\); nothing from this file applies, and its deny rules \\(if any\\) were NOT applied$`,
      ),
    );
    expect(settings.permissions.deny.map((rule) => rule.rule)).toEqual(["Bash(curl:*)"]);
  });

  it("a deny list that cannot be read, a bad deny rule or a duplicate key is a fatal problem at its line", async () => {
    const context = { source: "/p/s.json", root: "/p", home: "/h" };
    const cases: Array<[string, string]> = [
      ['{\n  "permissions": {\n    "deny": [Bash(rm:*)]\n  }\n}', "/p/s.json:3: not valid JSON ("],
      [
        '{\n  "permissions": {\n    "deny": ["Bash(rm"]\n  }\n}',
        '/p/s.json:3: permissions.deny[0]: "Bash(rm" is not a rule',
      ],
      [
        '{\n  "permissions": {\n    "deny": ["Read"],\n    "deny": []\n  }\n}',
        '/p/s.json:4: duplicate key "permissions.deny"',
      ],
      ['{"env": {"A": "1"},\n"hooks": {},\n"env": {}}', '/p/s.json:3: duplicate key "env"'],
    ];
    for (const [text, start] of cases) {
      const { problems } = parseSettingsFile(text, context);
      const fatal = problems.filter((problem) => problem.fatal === true).map(formatSettingsProblem);
      expect(fatal, text).toHaveLength(1);
      expect(fatal[0]?.startsWith(start), `${text} → ${fatal[0]}`).toBe(true);
    }
    // Equal keys in different objects, and keys inside strings, are no duplicates.
    const fine = parseSettingsFile(
      '{"permissions": {"allow": ["Read"]}, "hooks": {"Stop": [{"matcher": "allow"}]}, "x\\"": 1}',
      context,
    );
    expect(fine.problems.filter((problem) => problem.fatal === true)).toEqual([]);
  });

  it("--settings naming a missing file is an error before anything runs", async () => {
    const { home, cwd } = await tree({});
    expect(() => loadSettings({ cwd, env: { HOME: home }, flagSettings: "nope.json" })).toThrow(SettingsError);
  });

  it("fuzzed files never throw, and every problem is one line naming the file (fast-check)", () => {
    // Mutation caught: a reader that assumes a shape (e.g. `value.hooks.forEach`) throws on these.
    const keys = fc.constantFrom(
      "permissions",
      "env",
      "model",
      "hooks",
      "mcpServers",
      "compaction",
      "memoryFiles",
      "disableAllHooks",
      "theme",
      "x",
    );
    const anyValue = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.anything({ maxDepth: 3 }));
    const settingsObject = fc.dictionary(keys, anyValue, { maxKeys: 6 });
    const nested = fc.record({
      permissions: fc.dictionary(
        fc.constantFrom("allow", "ask", "deny", "defaultMode", "additionalDirectories", "y"),
        anyValue,
      ),
      hooks: fc.dictionary(
        fc.constantFrom("PreToolUse", "Stop", "SessionStart", "Nope"),
        fc.oneof(anyValue, fc.array(fc.record({ matcher: anyValue, hooks: fc.oneof(anyValue, fc.array(anyValue)) }))),
      ),
    });
    const text = fc.oneof(
      settingsObject.map((value) => JSON.stringify(value) ?? "null"),
      nested.map((value) => JSON.stringify(value)),
      fc.string(),
      fc.jsonValue().map((value) => JSON.stringify(value)),
    );
    fc.assert(
      fc.property(text, (body) => {
        const { problems } = parseSettingsFile(body, context);
        for (const problem of problems) {
          const line = formatSettingsProblem(problem);
          expect(line.startsWith("/p/.claude/settings.json")).toBe(true);
          expect(line.includes("\n")).toBe(false);
        }
      }),
      { numRuns: 500 },
    );
  });
});
