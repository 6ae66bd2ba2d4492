// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the literal ${VAR} forms are what is under test
/** MCP configuration as Claude Code reads it: `${VAR}` / `${VAR:-default}`, bad entries named and skipped. */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { expandEnvReferences, loadMcpServers, mcpToolName, parseMcpServers } from "../../src/mcp/index.js";

let directory: string | undefined;
afterEach(async () => {
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

describe("${VAR} expansion", () => {
  it("expands ${VAR} and ${VAR:-default}; leaves $VAR and an unset ${VAR} as written, naming it", () => {
    const env = { HOME_DIR: "/home/a", EMPTY: "" };
    // Mutation caught: expanding bare $VAR, or dropping an unset reference to "" silently.
    expect(expandEnvReferences("${HOME_DIR}/x $HOME_DIR ${NOPE:-fallback} ${EMPTY:-used} ${GONE}", env)).toEqual({
      text: "/home/a/x $HOME_DIR fallback used ${GONE}",
      missing: ["GONE"],
    });
  });

  it("expands command, args, env, url and headers; reports an unset variable in one line and keeps the server", () => {
    const parsed = parseMcpServers(
      {
        local: { command: "${BIN:-node}", args: ["--root", "${ROOT}"], env: { TOKEN: "${TOKEN}" } },
        remote: { type: "http", url: "https://${HOST}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
      },
      "/p/.mcp.json",
      { ROOT: "/r", HOST: "mcp.example", TOKEN: "t0k" },
    );
    expect(parsed.problems).toEqual([]);
    expect(parsed.servers.map((server) => server.config)).toEqual([
      { type: "stdio", command: "node", args: ["--root", "/r"], env: { TOKEN: "t0k" } },
      { type: "http", url: "https://mcp.example/mcp", headers: { Authorization: "Bearer t0k" } },
    ]);
    const missing = parseMcpServers({ s: { command: "x", args: ["${UNSET}"] } }, "cfg", {});
    expect(missing.problems).toEqual(['cfg: MCP server "s" uses unset ${UNSET}; kept as written']);
    expect(missing.servers).toHaveLength(1);
  });

  it("a bad entry is one line naming file and server; the good ones are kept", () => {
    const parsed = parseMcpServers({ good: { command: "node" }, bad: { args: ["x"] }, odd: 3 }, "/p/.mcp.json", {});
    expect(parsed.servers.map((server) => server.name)).toEqual(["good"]);
    expect(parsed.problems).toEqual([
      '/p/.mcp.json: MCP server "bad" command: Invalid input: expected string, received undefined; skipped (the others are kept)',
      '/p/.mcp.json: MCP server "odd" is not an object; skipped (the others are kept)',
    ]);
  });
});

describe("sources", () => {
  it("--mcp-config wins over .mcp.json by name; --strict-mcp-config reads only --mcp-config", async () => {
    directory = await mkdtemp(join(tmpdir(), "threadline-mcpcfg-"));
    await writeFile(
      join(directory, ".mcp.json"),
      JSON.stringify({ mcpServers: { a: { command: "from-project" }, b: { command: "project-only" } } }),
    );
    const flag = JSON.stringify({ mcpServers: { a: { command: "from-flag" } } });
    const merged = loadMcpServers({ cwd: directory, mcpConfigs: [flag], env: {} });
    expect(merged.servers.map((server) => [server.name, (server.config as { command: string }).command])).toEqual([
      ["a", "from-flag"],
      ["b", "project-only"],
    ]);
    const strict = loadMcpServers({ cwd: directory, mcpConfigs: [flag], strict: true, env: {} });
    expect(strict.servers.map((server) => server.name)).toEqual(["a"]);
    const broken = loadMcpServers({ cwd: directory, mcpConfigs: ["{not json"], env: {} });
    expect(broken.problems[0]).toMatch(/^--mcp-config: not valid JSON \(.*\); no servers read from it$/);
  });
});

describe("tool names", () => {
  it("every name fits the API's rule and 64 characters, and distinct pairs never collide", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        fc.string({ maxLength: 80 }),
        (server, a, b) => {
          const first = mcpToolName(server, a);
          // Literal rule, not the module's constant: ^[a-zA-Z0-9_-]{1,64}$.
          expect(first).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
          if (a !== b && first === mcpToolName(server, b)) {
            // Only sanitizing may merge names (e.g. "a.b" and "a_b"), never the length cut.
            expect(a.replace(/[^a-zA-Z0-9_-]/g, "_")).toBe(b.replace(/[^a-zA-Z0-9_-]/g, "_"));
          }
        },
      ),
    );
    expect(mcpToolName("my server", "read.file")).toBe("mcp__my_server__read_file");
  });
});
