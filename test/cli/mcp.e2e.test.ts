/**
 * MCP end to end: the built CLI, the official filesystem server from npm named by `--mcp-config`, the
 * emulator playing the model over real HTTP. The model finds the tool with ToolSearch, calls it as
 * `mcp__fs__read_text_file`, and the tools block stays the same bytes on every request.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Emulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { trustFolder } from "../../src/trust/index.js";
import { officialServerScript } from "../mcp/servers.js";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli, startCli } from "./cli-process.js";

const harness = useCliHarness();

interface Body {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ name: string }>;
}

function mainRequests(server: Emulator): Body[] {
  return server.requests
    .filter((request) => request.path.startsWith("/v1/messages") && !request.path.includes("count_tokens"))
    .map((request) => request.body as Body)
    .filter((body) => Array.isArray(body.tools) && body.tools.length > 0);
}

async function fsSession(extraArgs: string[]) {
  const cwd = await harness.tempDir("threadline-mcp-cwd-");
  const home = await harness.tempDir("threadline-mcp-home-");
  await writeFile(join(cwd, "note.txt"), "the note says 42\n");
  const server = await harness.startEmulator({
    scenario: [
      { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__fs__read_text_file" } }] },
      { content: [{ type: "tool_use", name: "mcp__fs__read_text_file", input: { path: join(cwd, "note.txt") } }] },
      "The note says 42.",
    ],
  });
  const config = JSON.stringify({
    mcpServers: { fs: { command: process.execPath, args: [officialServerScript("filesystem"), cwd] } },
  });
  const result = await runCli(["-p", "read the note", "--mcp-config", config, ...extraArgs], {
    cwd,
    env: cliEnv(server.url, home),
  });
  return { cwd, home, server, result, requests: mainRequests(server) };
}

describe("threadline with MCP servers", () => {
  it("reads mcpServers and the allow rule from a Claude Code .claude/settings.json", async () => {
    const cwd = await harness.tempDir("threadline-mcp-settings-cwd-");
    const home = await harness.tempDir("threadline-mcp-settings-home-");
    await writeFile(join(cwd, "note.txt"), "the note says 42\n");
    await mkdir(join(cwd, ".claude"));
    await writeFile(
      join(cwd, ".claude", "settings.json"),
      JSON.stringify({
        permissions: { allow: ["mcp__fs"] },
        mcpServers: { fs: { command: process.execPath, args: [officialServerScript("filesystem"), cwd] } },
      }),
    );
    const server = await harness.startEmulator({
      scenario: [
        { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__fs__read_text_file" } }] },
        { content: [{ type: "tool_use", name: "mcp__fs__read_text_file", input: { path: join(cwd, "note.txt") } }] },
        "The note says 42.",
      ],
    });
    trustFolder(cwd, home); // about MCP, not trust (docs/TRUST.md)
    const result = await runCli(["-p", "read the note"], { cwd, env: cliEnv(server.url, home) });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    // Mutation caught: settings' mcpServers not handed to the MCP loader (the tool is then unknown to ToolSearch).
    const requests = mainRequests(server);
    expect(requests).toHaveLength(3);
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("the note says 42");
  });

  it("finds a deferred tool with ToolSearch, calls it, and never changes the tools block", async () => {
    const { home, result, requests } = await fsSession(["--allowedTools", "mcp__fs"]);
    // The server's own stderr ("running on stdio") goes to its log, never to the terminal.
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toBe("The note says 42.\n");
    expect(requests).toHaveLength(3);
    // Mutation caught: sending MCP tools in the tools block (or a ToolSearch description that changes per turn).
    const tools = requests.map((body) => JSON.stringify(body.tools));
    expect(new Set(tools).size).toBe(1);
    const names = (requests[0]?.tools ?? []).map((tool) => tool.name);
    expect(names).toContain("ToolSearch");
    expect(names.filter((name) => name.startsWith("mcp__"))).toEqual([]);
    expect(JSON.stringify(requests[1]?.messages.at(-1))).toContain('{\\"name\\":\\"mcp__fs__read_text_file\\"');
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("the note says 42");
    const log = await readFile(join(home, "mcp-logs", "fs.log"), "utf8");
    expect(log).toContain("Secure MCP Filesystem Server");
  });

  it("asks before an MCP call in the default mode (denied in print mode without an allow rule)", async () => {
    const { requests } = await fsSession([]);
    // Mutation caught: an MCP tool reporting itself read-only (it would run without asking).
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain("needs approval");
    expect(JSON.stringify(requests[2]?.messages.at(-1))).not.toContain("the note says 42");
  });

  it("a deny rule on the tool holds even in bypass mode", async () => {
    const { requests } = await fsSession([
      "--dangerously-skip-permissions",
      "--disallowedTools",
      "mcp__fs__read_text_file",
    ]);
    expect(JSON.stringify(requests[2]?.messages.at(-1))).toContain(
      'blocked by the deny rule \\"mcp__fs__read_text_file\\"',
    );
  });
});

describe("/mcp", () => {
  it("shows each server's state, tools and last error in the interactive mode", async () => {
    const cwd = await harness.tempDir("threadline-mcp-repl-");
    const home = await harness.tempDir("threadline-mcp-replhome-");
    const server = await harness.startEmulator({ scenario: ["unused"] });
    const config = JSON.stringify({
      mcpServers: {
        fs: { command: process.execPath, args: [officialServerScript("filesystem"), cwd] },
        ghost: { command: process.execPath, args: [join(cwd, "missing.mjs")] },
      },
    });
    const result = await startCli(["--mcp-config", config], { cwd, env: cliEnv(server.url, home), input: "/mcp\n" })
      .done;
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/fs \(stdio, from --mcp-config\): connected, \d+ tool\(s\)/);
    expect(result.stdout).toContain("read_text_file");
    expect(result.stdout).toMatch(
      /ghost \(stdio, from --mcp-config\): failed, 0 tool\(s\)\n {2}last error: could not connect/,
    );
  });
});

describe("threadline mcp", () => {
  it("adds, lists (connected, with tools) and removes a server in .mcp.json", async () => {
    const cwd = await harness.tempDir("threadline-mcp-cmd-");
    const home = await harness.tempDir("threadline-mcp-cmdhome-");
    // HOME too: Claude Code's ~/.claude.json is read (and written for scopes local and user) there.
    const env = { ...cliEnv("http://127.0.0.1:9", home), HOME: home };
    const added = await runCli(
      ["mcp", "add", "-s", "project", "memory", "--", process.execPath, officialServerScript("memory")],
      {
        cwd,
        env,
      },
    );
    expect(added.stderr).toBe("");
    expect(added.code).toBe(0);
    const file = JSON.parse(await readFile(join(cwd, ".mcp.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    expect(file.mcpServers.memory).toEqual({
      type: "stdio",
      command: process.execPath,
      args: [officialServerScript("memory")],
      env: {},
    });
    // Untrusted folder: listing would start the project's server; it is named, not started (docs/TRUST.md).
    const held = await runCli(["mcp", "list"], { cwd, env });
    expect(held.stderr).toContain("is not trusted: project MCP servers not started (memory)");
    expect(held.stdout).not.toContain("connected");
    trustFolder(cwd, home);
    const listed = await runCli(["mcp", "list"], { cwd, env });
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/^memory \(stdio, from .*\.mcp\.json\): connected, \d+ tool\(s\)/);
    expect(listed.stdout).toContain("create_entities");
    const removed = await runCli(["mcp", "remove", "memory"], { cwd, env });
    expect(removed.code).toBe(0);
    const after = JSON.parse(await readFile(join(cwd, ".mcp.json"), "utf8")) as { mcpServers: Record<string, unknown> };
    expect(after.mcpServers).toEqual({});
  });
});
