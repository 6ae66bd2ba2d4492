/**
 * Fail closed where a guard lives (issue 39 item 5). A settings file that is not JSON keeps its deny rules when
 * they can be read leniently, and says which file's rules were not applied when they cannot; a PreToolUse hook
 * that cannot run says so on screen, with what it meant for the call. Oracles: a file the denied command would
 * delete, the emulator's logged tool results, literal stderr lines.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { formatSettingsProblem, loadSettings } from "../../src/settings/index.js";
import { useCliHarness } from "../cli/cli-harness.js";
import { cliEnv, runCli } from "../cli/cli-process.js";

const harness = useCliHarness();

async function project(steps: unknown[], settingsText: string) {
  const emulator = await harness.startEmulator({ scenario: steps as never });
  const home = await harness.tempDir("threadline-failclosed-home-");
  const cwd = await harness.tempDir("threadline-failclosed-cwd-");
  await mkdir(join(cwd, ".claude"), { recursive: true });
  await writeFile(join(cwd, ".claude", "settings.json"), settingsText);
  return { emulator, home, cwd, env: cliEnv(emulator.url, home, { HOME: home }) };
}

function lastToolResults(emulator: Emulator): Array<{ content: unknown; is_error?: boolean }> {
  const bodies = emulator.requests.filter((record) => record.path === "/v1/messages");
  const body = bodies.at(-1)?.body as { messages?: Array<{ role: string; content: unknown }> } | undefined;
  const messages = body?.messages ?? [];
  const last = messages.filter((message) => message.role === "user").at(-1);
  return (Array.isArray(last?.content) ? last.content : []).filter(
    (block: { type: string }) => block.type === "tool_result",
  ) as never;
}

/** A project settings file with a trailing comma and a comment: not JSON, its deny list readable. */
const BROKEN_WITH_DENY = `{
  // keep the build folder
  "permissions": { "deny": ["Bash(rm:*)"], },
  "model": "x",
}`;

describe("a settings file that does not parse", () => {
  it("keeps its deny rules when they can be read leniently, and says only they apply", async () => {
    const home = await harness.tempDir("threadline-failclosed-unit-");
    const cwd = join(home, "p");
    await mkdir(join(cwd, ".claude"), { recursive: true });
    await writeFile(join(cwd, ".claude", "settings.json"), BROKEN_WITH_DENY);
    await writeFile(
      join(cwd, ".claude", "settings.local.json"),
      JSON.stringify({ permissions: { deny: ["Read(./x)"] } }),
    );
    const { settings, problems } = loadSettings({ cwd, env: { HOME: home, THREADLINE_HOME: join(home, "tl") } });
    expect(settings.permissions.deny.map((rule) => rule.rule)).toEqual(["Bash(rm:*)", "Read(./x)"]);
    expect(settings.model).toBeUndefined();
    expect(problems.map(formatSettingsProblem)).toEqual([
      expect.stringMatching(
        /settings\.json: not valid JSON \(.+\); only its 1 deny rule\(s\) apply \(read leniently\), nothing else from this file$/,
      ),
    ]);
  });

  it("the CLI under --dangerously-skip-permissions still denies by the broken file's rule", async () => {
    const p = await project(
      [{ content: [{ type: "tool_use", name: "Bash", input: { command: "rm -rf victim" } }] }, "Fine."],
      BROKEN_WITH_DENY,
    );
    await mkdir(join(p.cwd, "victim"));
    await writeFile(join(p.cwd, "victim", "keep.txt"), "precious\n");
    const result = await runCli(["-p", "clean", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).toBe(0);
    // Mutation caught: dropping the broken file's deny rules with the rest runs rm.
    expect(existsSync(join(p.cwd, "victim", "keep.txt"))).toBe(true);
    expect(String(lastToolResults(p.emulator)[0]?.content)).toContain('deny rule "Bash(rm:*)"');
    expect(result.stderr).toContain("only its 1 deny rule(s) apply");
  });

  it("a file whose deny rules cannot be read stops the session before any request, naming the file and line", async () => {
    // Issue 53: single quotes (line 3) and a missing comma in the deny list (line 4), each in bypass mode.
    const texts = [
      `{\n  "permissions": {\n    'deny': ['Bash(rm:*)']\n  }\n}\n`,
      `{\n  "permissions": {\n    "defaultMode": "default",\n    "deny": ["Bash(rm:*)" "Read(./.env)"]\n  }\n}\n`,
    ];
    for (const [index, text] of texts.entries()) {
      const p = await project(
        [{ content: [{ type: "tool_use", name: "Bash", input: { command: "rm -rf victim" } }] }, "Fine."],
        text,
      );
      await mkdir(join(p.cwd, "victim"));
      await writeFile(join(p.cwd, "victim", "keep.txt"), "precious\n");
      const result = await runCli(["-p", "clean", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
      expect(result.code).not.toBe(0);
      // Mutation caught (settings-unreadable-deny-goes-on): carrying on runs rm in bypass mode.
      expect(existsSync(join(p.cwd, "victim", "keep.txt"))).toBe(true);
      expect(p.emulator.requests.filter((record) => record.path === "/v1/messages")).toHaveLength(0);
      const lines = result.stderr.split("\n").filter((line) => line !== "");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(
          `^threadline: settings: ${join(p.cwd, ".claude", "settings.json").replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}:${index === 0 ? 3 : 4}: not valid JSON \\(.+\\), and its deny rules cannot be read; threadline stops rather than run without them \\(fix the file\\)$`,
        ),
      );
      await p.emulator.close();
    }
  });

  it('a duplicate "permissions" key stops the session, naming the file and the second key\'s line', async () => {
    const text = `{\n  "permissions": { "deny": ["Bash(rm:*)"] },\n  "model": "x",\n  "permissions": { "allow": ["Read"] }\n}\n`;
    const p = await project(
      [{ content: [{ type: "tool_use", name: "Bash", input: { command: "rm -rf victim" } }] }, "Fine."],
      text,
    );
    await mkdir(join(p.cwd, "victim"));
    await writeFile(join(p.cwd, "victim", "keep.txt"), "precious\n");
    const result = await runCli(["-p", "clean", "--dangerously-skip-permissions"], { cwd: p.cwd, env: p.env });
    expect(result.code).not.toBe(0);
    // Mutation caught (settings-duplicate-key-last-wins): last-wins drops the deny rule and rm runs.
    expect(existsSync(join(p.cwd, "victim", "keep.txt"))).toBe(true);
    expect(result.stderr.trim()).toBe(
      `threadline: settings: ${join(p.cwd, ".claude", "settings.json")}:4: duplicate key "permissions" (JSON would keep only the last, dropping what the first holds); threadline stops rather than guess (merge or remove one)`,
    );
  });
});

describe("a PreToolUse hook that cannot run", () => {
  it("says so on screen, and that the call went ahead without its check", async () => {
    const p = await project(
      [{ content: [{ type: "tool_use", name: "Bash", input: { command: "echo ran > ran.txt" } }] }, "Done."],
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "./.claude/hooks/missing-guard.sh" }] }],
        },
      }),
    );
    const result = await runCli(["-p", "go", "--dangerously-skip-permissions", "--trust-folder"], {
      cwd: p.cwd,
      env: p.env,
    });
    expect(result.code).toBe(0);
    expect(existsSync(join(p.cwd, "ran.txt"))).toBe(true);
    expect(result.stderr).toMatch(
      /PreToolUse hook "\.\/\.claude\/hooks\/missing-guard\.sh" could not run \(exit 127: command or script not found.*\); the tool call went ahead WITHOUT this hook's check/,
    );
  });
});
