/**
 * A Claude Code user's `~/.claude.json`, end to end with the built CLI and a private HOME: `threadline mcp
 * add|add-json|remove` write what `claude mcp add` writes (local scope by default, under projects[<folder>];
 * user scope at the top), sessions and `mcp list` read it, its trust record opens a folder, and a run that
 * means to change nothing leaves every byte of `~/.claude.json` and `~/.claude/` as it was (hashed).
 * Oracles: literal entries in Claude Code's layout, the official memory server answering, a hook's marker file.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { officialServerScript } from "../mcp/servers.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const harness = useCliHarness();

/** Claude Code's record as it leaves it (2-space JSON), with keys threadline has no business touching. */
function claudeJson(project: string, extra: Record<string, unknown> = {}): string {
  return `${JSON.stringify(
    {
      numStartups: 12,
      oauthAccount: { emailAddress: "dev@example.com" },
      projects: { [project]: { allowedTools: [], history: [{ display: "hi ✓", pastedContents: {} }], ...extra } },
    },
    null,
    2,
  )}\n`;
}

/** sha256 of every file under `~/.claude` and of `~/.claude.json`, by path. */
async function claudeFiles(home: string): Promise<Record<string, string>> {
  const hashes: Record<string, string> = {};
  const walk = async (directory: string): Promise<void> => {
    for (const entry of await readdir(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      if (entry.isDirectory()) await walk(path);
      else
        hashes[path] = createHash("sha256")
          .update(await readFile(path))
          .digest("hex");
    }
  };
  await walk(join(home, ".claude")).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "ENOENT") throw error; // no ~/.claude folder: nothing in it to hash
  });
  hashes[".claude.json"] = createHash("sha256")
    .update(await readFile(join(home, ".claude.json")))
    .digest("hex");
  return hashes;
}

describe("~/.claude.json with threadline mcp", () => {
  it("adds to local scope by default and to user scope with -s user, as claude mcp add; list reads both; remove finds it", async () => {
    const cwd = await harness.tempDir("ccjson-cwd");
    const home = await harness.tempDir("ccjson-home");
    const env = { ...cliEnv("http://127.0.0.1:9", join(home, ".threadline")), HOME: home };
    const before = claudeJson(cwd);
    await writeFile(join(home, ".claude.json"), before);
    const memory = officialServerScript("memory");
    const added = await runCli(["mcp", "add", "mem", "-e", "LEVEL=3", "--", process.execPath, memory], { cwd, env });
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const json = await runCli(
      ["mcp", "add-json", "-s", "user", "web", '{"type":"http","url":"http://127.0.0.1:9/mcp"}'],
      {
        cwd,
        env,
      },
    );
    expect(json.code).toBe(0);
    // Exactly Claude Code's entries, and every other key (and its bytes) as it was.
    const expected = JSON.parse(before) as {
      projects: Record<string, Record<string, unknown>>;
      mcpServers?: unknown;
    };
    const project = expected.projects[cwd] ?? {};
    project.mcpServers = { mem: { type: "stdio", command: process.execPath, args: [memory], env: { LEVEL: "3" } } };
    expected.mcpServers = { web: { type: "http", url: "http://127.0.0.1:9/mcp" } };
    expect(await readFile(join(home, ".claude.json"), "utf8")).toBe(`${JSON.stringify(expected, null, 2)}\n`);

    const afterAdds = await claudeFiles(home);
    const listed = await runCli(["mcp", "list"], { cwd, env });
    expect(listed.stdout).toMatch(/mem \(stdio, from .*\.claude\.json \(local scope, .*\)\): connected, \d+ tool\(s\)/);
    expect(listed.stdout).toMatch(/web \(http, from .*\.claude\.json \(user scope\)\): failed/);
    expect(await claudeFiles(home)).toEqual(afterAdds); // listing writes nothing

    const removed = await runCli(["mcp", "remove", "mem"], { cwd, env });
    expect(removed.stdout).toContain('Removed MCP server "mem"');
    const after = JSON.parse(await readFile(join(home, ".claude.json"), "utf8")) as typeof expected;
    expect(after.projects[cwd]?.mcpServers).toEqual({});
    expect(after.mcpServers).toEqual({ web: { type: "http", url: "http://127.0.0.1:9/mcp" } });
  });

  it("refuses an add-json that is no server, and a scope Claude Code does not have, writing nothing", async () => {
    const cwd = await harness.tempDir("ccjson-bad-cwd");
    const home = await harness.tempDir("ccjson-bad-home");
    const env = { ...cliEnv("http://127.0.0.1:9", join(home, ".threadline")), HOME: home };
    const before = claudeJson(cwd);
    await writeFile(join(home, ".claude.json"), before);
    const bad = await runCli(["mcp", "add-json", "x", '{"args":["no command"]}'], { cwd, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^threadline: .*x.*; nothing written\n$/);
    const scope = await runCli(["mcp", "add", "-s", "global", "x", "node"], { cwd, env });
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain('--scope must be local, project or user, got "global"');
    expect(await readFile(join(home, ".claude.json"), "utf8")).toBe(before);
  });
});

describe("a print-mode run and Claude Code's files", () => {
  // Guards: Claude Code's trust record opens the folder (its project hook runs in -p without --trust-folder), and
  // the run leaves ~/.claude.json and ~/.claude/ byte for byte. Mutation caught: `claude-json-trust-unwired`.
  it("runs a folder Claude Code trusted and changes no byte of ~/.claude.json or ~/.claude", async () => {
    const server = await harness.startEmulator({ scenario: ["Done."] });
    const cwd = await harness.tempDir("ccjson-run-cwd");
    const home = await harness.tempDir("ccjson-run-home");
    const env = { ...cliEnv(server.url, join(home, ".threadline")), HOME: home };
    await writeFile(join(home, ".claude.json"), claudeJson(cwd, { hasTrustDialogAccepted: true }));
    await mkdir(join(home, ".claude", "projects", "-some-project"), { recursive: true });
    await writeFile(join(home, ".claude", "settings.json"), '{ "permissions": { "allow": ["Read"] } }\n');
    await writeFile(
      join(home, ".claude", "projects", "-some-project", "0b9d1c8e-0000-4000-8000-000000000001.jsonl"),
      '{"type":"user","message":{"role":"user","content":"hi"}}\n',
    );
    await mkdir(join(cwd, ".claude"));
    const marker = join(cwd, "session-started");
    await writeFile(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        hooks: { SessionStart: [{ hooks: [{ type: "command", command: `touch ${JSON.stringify(marker)}` }] }] },
      }),
    );
    const before = await claudeFiles(home);
    const result = await runCli(["-p", "hello"], { cwd, env });
    expect(result.stderr).not.toContain("not trusted");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("Done.\n");
    await readFile(marker); // the project's hook ran: the folder is trusted by Claude Code's record
    expect(await claudeFiles(home)).toEqual(before);
  });
});
