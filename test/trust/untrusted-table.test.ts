/**
 * docs/TRUST.md "What an untrusted folder gets" walked row by row (issue 53, item 1): every settings key the reader
 * knows has a row, and each row's promise holds for a real `.claude/settings.json` in a temporary folder, loaded
 * once untrusted and once trusted. The oracle is the table's own first word and a sample value per key written
 * here; the code under test only loads. Mutations: untrusted-allow-kept, untrusted-bypass-mode-kept.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  IGNORED_CLAUDE_CODE_KEYS,
  loadSettings,
  MANAGED_ONLY_KEYS,
  PERMISSION_KEYS,
  SUPPORTED_KEYS,
} from "../../src/settings/index.js";
import { createTrustGate } from "../../src/trust/index.js";

const directories: string[] = [];
afterEach(async () => {
  for (const directory of directories.splice(0)) await rm(directory, { recursive: true, force: true });
});

/** A value for each key that does something when trusted (or would, for keys threadline reads). */
const SAMPLES: Record<string, unknown> = {
  "permissions.deny": ["Bash(rm:*)"],
  "permissions.ask": ["Bash(git push:*)"],
  "permissions.allow": ["Bash", "Read(/**)"],
  "permissions.defaultMode": "bypassPermissions",
  "permissions.additionalDirectories": ["/"],
  "permissions.disableBypassPermissionsMode": "disable",
  env: { PROJECT_FLAG: "1" },
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./guard.sh" }] }] },
  mcpServers: { dumper: { command: "node" } },
  statusLine: { type: "command", command: "./status.sh" },
  disableAllHooks: true,
  model: "claude-opus-4-1",
  effortLevel: "high",
  outputStyle: "Explanatory",
  compaction: { autocompact: false },
  memoryFiles: false,
  cacheTtl: "1h",
  keepWarm: "off",
  keepWarmLimitMinutes: 30,
  allowManagedHooksOnly: true,
  allowManagedPermissionRulesOnly: true,
  enabledPlugins: { "x@y": true },
  extraKnownMarketplaces: {},
};

/** What else the file holds for a key that acts on other keys (the baseline is that alone, trusted). */
const BASES: Record<string, Record<string, unknown>> = {
  disableAllHooks: { hooks: { Stop: [{ hooks: [{ type: "command", command: "./on-stop.sh" }] }] } },
};

/** Rows of the table: the keys named in the first column and the first word of the second. */
async function tableRows(): Promise<Array<{ keys: string[]; verdict: string }>> {
  const text = await readFile(join(import.meta.dirname, "../../docs/TRUST.md"), "utf8");
  const section = text.slice(
    text.indexOf("## What an untrusted folder gets"),
    text.indexOf("Other things a project holds"),
  );
  return section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const [, first = "", second = ""] = line.split(/(?<!\\)\|/);
      return {
        keys: [...first.matchAll(/`([^`]+)`/g)].map((match) => match[1] ?? ""),
        verdict: second.trim().split(/[\s:(]/)[0] ?? "",
      };
    });
}

/**
 * One project file holding `{key: value}` (and its BASES entry), loaded untrusted and trusted; `empty` is the
 * baseline alone, trusted. `files` (paths) left out.
 */
async function load(key: string, value: unknown) {
  const base = await mkdtemp(join(tmpdir(), "threadline-untrusted-table-"));
  directories.push(base);
  const cwd = join(base, "project");
  await mkdir(join(cwd, ".claude"), { recursive: true });
  const [top, inner] = key.split(".");
  const baseline = BASES[key] ?? {};
  const document = { ...baseline, ...(inner === undefined ? { [key]: value } : { [top ?? ""]: { [inner]: value } }) };
  await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify(document));
  const env = {
    HOME: join(base, "home"),
    THREADLINE_HOME: join(base, "tl"),
    THREADLINE_MANAGED_SETTINGS: join(base, "none"),
  };
  const run = (trustFlag: boolean) => {
    const gate = createTrustGate({ cwd, home: env.THREADLINE_HOME, mode: "print", trustFlag });
    const { settings } = loadSettings({
      cwd,
      env,
      mayRunProjectCode: (kind, what, source) => gate.mayRun(kind, what, source),
    });
    const { files: _files, ...rest } = settings;
    // A withheld hook stays in the settings, marked, so that what it guarded is refused (fail closed): it runs
    // nothing, so it is no setting the folder was granted.
    const hooks = Object.fromEntries(
      Object.entries(rest.hooks)
        .map(([event, matchers]) => [
          event,
          (matchers ?? [])
            .map((matcher) => ({ ...matcher, hooks: matcher.hooks.filter((hook) => hook.withheld !== true) }))
            .filter((matcher) => matcher.hooks.length > 0),
        ])
        .filter(([, matchers]) => (matchers?.length ?? 0) > 0),
    );
    return { settings: JSON.stringify({ ...rest, hooks }), withheld: gate.withheld() };
  };
  const empty = await (async () => {
    await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify(baseline));
    const result = run(true).settings;
    await writeFile(join(cwd, ".claude", "settings.json"), JSON.stringify(document));
    return result;
  })();
  return { untrusted: run(false), trusted: run(true), empty };
}

function knownKeys(): string[] {
  return [
    ...SUPPORTED_KEYS.filter((key) => key !== "permissions"),
    ...PERMISSION_KEYS.map((key) => `permissions.${key}`),
    ...MANAGED_ONLY_KEYS,
    ...IGNORED_CLAUDE_CODE_KEYS,
  ];
}

describe("docs/TRUST.md: what an untrusted folder gets, key by key", () => {
  it("has one row for every key the settings reader knows, and no row for a key it does not", async () => {
    const documented = (await tableRows()).flatMap((row) => row.keys);
    expect([...documented].sort()).toEqual([...new Set(knownKeys())].sort());
  });

  it("each row's promise holds for a project file in an untrusted folder", async () => {
    const rows = await tableRows();
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      for (const key of row.keys) {
        const { untrusted, trusted, empty } = await load(key, SAMPLES[key] ?? true);
        const where = `${key} (${row.verdict})`;
        switch (row.verdict) {
          case "applies":
            expect(trusted.settings, where).not.toBe(empty);
            expect(untrusted.settings, where).toBe(trusted.settings);
            expect(untrusted.withheld, where).toEqual([]);
            break;
          case "withheld":
          case "narrows":
            expect(trusted.settings, where).not.toBe(empty);
            expect(untrusted.settings, where).toBe(empty);
            expect(untrusted.withheld.length, where).toBeGreaterThan(0);
            break;
          case "unused":
          case "managed":
          case "plugins":
            expect(untrusted.settings, where).toBe(empty);
            expect(trusted.settings, where).toBe(empty);
            break;
          default:
            throw new Error(
              `docs/TRUST.md: row for ${key} starts with "${row.verdict}", a verdict this test does not know`,
            );
        }
      }
    }
  });

  it("a narrowing mode from an untrusted project applies; one that asks less is named and ignored", async () => {
    for (const [mode, applies] of [
      ["plan", true],
      ["default", true],
      ["acceptEdits", false],
      ["bypassPermissions", false],
    ] as const) {
      const { untrusted } = await load("permissions.defaultMode", mode);
      expect(JSON.parse(untrusted.settings).permissions.defaultMode, mode).toBe(applies ? mode : undefined);
      expect(
        untrusted.withheld.map((item) => `${item.kind} ${item.what}`),
        mode,
      ).toEqual(applies ? [] : [`permissionMode ${mode}`]);
    }
  });

  it("an untrusted project's allow rules are each named; its deny and ask rules stay", async () => {
    const { untrusted } = await load("permissions", {
      allow: ["Bash", "Read(/**)"],
      deny: ["Read(./secrets/**)"],
      ask: ["Bash(git push:*)"],
    });
    const permissions = JSON.parse(untrusted.settings).permissions;
    expect(permissions.allow).toEqual([]);
    expect(permissions.deny.map((rule: { rule: string }) => rule.rule)).toEqual(["Read(./secrets/**)"]);
    expect(permissions.ask.map((rule: { rule: string }) => rule.rule)).toEqual(["Bash(git push:*)"]);
    expect(untrusted.withheld.map((item) => item.what)).toEqual(["Bash", "Read(/**)"]);
  });
});
