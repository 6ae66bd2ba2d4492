/**
 * `threadline mcp list | get <name> | add <name> <command-or-url> [args…] | remove <name>`, like `claude mcp`:
 * `add` writes the project's `.mcp.json` (`--scope project`, the default) or the user's
 * `$THREADLINE_HOME/mcp.json` (`--scope user`); `list` and `get` connect to each server to show its state.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { threadlineHome } from "../../home/index.js";
import { loadMcpClient, loadMcpServers, PROJECT_MCP_FILE } from "../../mcp/index.js";
import { isFolderTrusted } from "../../trust/index.js";
import { UsageError } from "../args.js";
import type { CliIo } from "../io.js";
import { userMcpFile } from "../modes/mcp-session.js";

export const MCP_COMMAND_USAGE = `Usage: threadline mcp list
       threadline mcp get <name>
       threadline mcp add [--scope project|user] [--transport stdio|http|sse] [-e KEY=value…] [-H "Name: value"…] <name> <command-or-url> [args…]
       threadline mcp remove [--scope project|user] <name>

Servers live in the project's .mcp.json (scope project, the default) or in $THREADLINE_HOME/mcp.json (scope user);
--mcp-config adds more for one run. Put -- before a server's own flags: threadline mcp add fs -- npx server /tmp`;

type Scope = "project" | "user";

function scopeFile(scope: string | undefined, io: CliIo): string {
  const chosen: Scope =
    scope === undefined || scope === "project" ? "project" : scope === "user" ? "user" : fail(scope);
  return chosen === "project" ? join(io.cwd, PROJECT_MCP_FILE) : userMcpFile(io.env);
}

function fail(scope: string): never {
  throw new UsageError(`--scope must be project or user, got "${scope}"`);
}

function readDocument(path: string): { mcpServers: Record<string, unknown> } & Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { mcpServers: {} };
  }
  const document = JSON.parse(text) as Record<string, unknown>;
  const servers = document.mcpServers;
  return { ...document, mcpServers: typeof servers === "object" && servers !== null ? { ...servers } : {} };
}

function writeDocument(path: string, document: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(document, null, 2)}\n`);
}

function pairs(values: readonly string[], separator: string, flag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(separator);
    if (at <= 0) throw new UsageError(`${flag} wants NAME${separator}value, got "${value}"`);
    out[value.slice(0, at).trim()] = value.slice(at + separator.length).trim();
  }
  return out;
}

async function connectAndReport(io: CliIo, only?: string): Promise<number> {
  // Connecting starts a server's command: a project's own `.mcp.json` servers start only in a trusted folder
  // (docs/TRUST.md), here as in a session. They are named, not started, until then.
  const trusted = isFolderTrusted(io.cwd, threadlineHome(io.env));
  const { servers, problems } = loadMcpServers({
    cwd: io.cwd,
    userFile: userMcpFile(io.env),
    env: io.env,
    includeProject: trusted,
  });
  for (const problem of problems) io.stderr.write(`threadline: ${problem}\n`);
  if (!trusted) {
    const held = loadMcpServers({ cwd: io.cwd, env: io.env, strict: false }).servers.filter(
      (server) => !servers.some((kept) => kept.name === server.name),
    );
    if (held.length > 0)
      io.stderr.write(
        `threadline: folder ${io.cwd} is not trusted: project MCP servers not started (${held.map((server) => server.name).join(", ")}); start threadline here once and trust the folder\n`,
      );
  }
  const chosen = only === undefined ? servers : servers.filter((server) => server.name === only);
  if (only !== undefined && chosen.length === 0) {
    io.stderr.write(`threadline: no MCP server named "${only}" (see \`threadline mcp list\`)\n`);
    return 1;
  }
  const { formatServerStatus, McpManager } = await loadMcpClient();
  const manager = new McpManager(chosen, { cwd: io.cwd });
  try {
    await manager.start();
    const statuses = manager.status();
    io.stdout.write(`${formatServerStatus(statuses)}\n`);
    if (only !== undefined) {
      const config = chosen[0]?.config;
      io.stdout.write(`  config: ${JSON.stringify(config)}\n`);
    }
    return 0;
  } finally {
    await manager.close();
  }
}

/** Runs `threadline mcp …`; resolves to the exit code. */
export async function runMcpCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const [action, ...rest] = argv;
  switch (action) {
    case "list":
      return connectAndReport(io);
    case "get": {
      const name = rest[0];
      if (name === undefined) throw new UsageError("mcp get needs a server name");
      return connectAndReport(io, name);
    }
    case "add": {
      const parsed = parseArgs({
        args: [...rest],
        options: {
          scope: { type: "string", short: "s" },
          transport: { type: "string", short: "t" },
          env: { type: "string", short: "e", multiple: true },
          header: { type: "string", short: "H", multiple: true },
        },
        allowPositionals: true,
        strict: true,
      });
      const [name, target, ...args] = parsed.positionals;
      if (name === undefined || target === undefined) throw new UsageError("mcp add needs a name and a command or URL");
      const transport = parsed.values.transport ?? "stdio";
      let entry: Record<string, unknown>;
      if (transport === "stdio") {
        const env = pairs(parsed.values.env ?? [], "=", "-e");
        entry = { command: target, args, ...(Object.keys(env).length > 0 ? { env } : {}) };
      } else if (transport === "http" || transport === "sse") {
        const headers = pairs(parsed.values.header ?? [], ":", "-H");
        entry = { type: transport, url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
      } else {
        throw new UsageError(`--transport must be stdio, http or sse, got "${transport}"`);
      }
      const path = scopeFile(parsed.values.scope, io);
      const document = readDocument(path);
      const replaced = name in document.mcpServers;
      document.mcpServers[name] = entry;
      writeDocument(path, document);
      io.stdout.write(`${replaced ? "Replaced" : "Added"} MCP server "${name}" in ${path}\n`);
      return 0;
    }
    case "remove": {
      const parsed = parseArgs({
        args: [...rest],
        options: { scope: { type: "string", short: "s" } },
        allowPositionals: true,
        strict: true,
      });
      const name = parsed.positionals[0];
      if (name === undefined) throw new UsageError("mcp remove needs a server name");
      const path = scopeFile(parsed.values.scope, io);
      const document = readDocument(path);
      if (!(name in document.mcpServers)) {
        io.stderr.write(`threadline: no MCP server named "${name}" in ${path}\n`);
        return 1;
      }
      delete document.mcpServers[name];
      writeDocument(path, document);
      io.stdout.write(`Removed MCP server "${name}" from ${path}\n`);
      return 0;
    }
    default:
      throw new UsageError(
        action === undefined ? "mcp needs list, get, add or remove" : `unknown mcp command "${action}"`,
      );
  }
}
