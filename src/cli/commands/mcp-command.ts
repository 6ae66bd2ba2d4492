/**
 * `threadline mcp list | get <name> | add <name> <command-or-url> [args…] | remove <name>`, like `claude mcp`:
 * `add` writes the project's `.mcp.json` (`--scope project`, the default) or the user's
 * `$THREADLINE_HOME/mcp.json` (`--scope user`); `list` and `get` connect to each server to show its state.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { type ParseArgsConfig, parseArgs } from "node:util";
import {
  claudeJsonPath,
  isTrustedByClaudeCode,
  projectEntry,
  projectKeys,
  readClaudeJson,
  threadlineHome,
  updateClaudeJson,
} from "../../home/index.js";
import { loadMcpClient, loadMcpServers, PROJECT_MCP_FILE, parseMcpServers } from "../../mcp/index.js";
import { isFolderTrusted } from "../../trust/index.js";
import { UsageError } from "../args.js";
import type { CliIo } from "../io.js";
import { userMcpFile } from "../modes/mcp-session.js";

export const MCP_COMMAND_USAGE = `Usage: threadline mcp list
       threadline mcp get <name>
       threadline mcp add [-s local|project|user] [-t stdio|http|sse] [-e KEY=value…] [-H "Name: value"…] <name> <command-or-url> [args…]
       threadline mcp add-json [-s local|project|user] <name> '<json>'
       threadline mcp remove [-s local|project|user] <name>

Where servers live, as Claude Code's \`claude mcp\` keeps them: scope local (the default: this folder only, in
~/.claude.json under projects[<folder>]), project (.mcp.json, shared with the repository) or user (every folder,
top-level mcpServers in ~/.claude.json; $CLAUDE_CONFIG_DIR moves it). Servers threadline added before to
$THREADLINE_HOME/mcp.json are still read. --mcp-config adds more for one run.
Put -- before a server's own flags: threadline mcp add fs -- npx server /tmp`;

type Scope = "local" | "project" | "user";

const SCOPES: readonly Scope[] = ["local", "project", "user"];

function scopeOf(value: string | undefined): Scope {
  if (value === undefined) return "local";
  const scope = SCOPES.find((candidate) => candidate === value);
  if (scope === undefined) throw new UsageError(`--scope must be local, project or user, got "${value}"`);
  return scope;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The server map a scope holds (a copy), read without changing anything. */
function serversIn(scope: Scope, io: CliIo): Record<string, unknown> {
  if (scope === "project") return readDocument(join(io.cwd, PROJECT_MCP_FILE)).mcpServers;
  const read = readClaudeJson(claudeJsonPath(io.env));
  if (read.kind !== "read") return {};
  const holder = scope === "user" ? read.document : projectEntry(read.document, io.cwd);
  const servers = holder?.mcpServers;
  return isRecord(servers) ? { ...servers } : {};
}

/** Where a scope's servers are, for the person's line. */
function scopePlace(scope: Scope, io: CliIo): string {
  const claudeJson = claudeJsonPath(io.env);
  if (scope === "project") return join(io.cwd, PROJECT_MCP_FILE);
  return scope === "user" ? `${claudeJson} (user scope)` : `${claudeJson} (local scope, ${io.cwd})`;
}

/**
 * Sets (`entry`) or removes (undefined) one server in a scope. `~/.claude.json` is changed through
 * home/claude-json.ts, which keeps every other byte of it or changes nothing; `.mcp.json` whole, by rename.
 */
function writeServer(scope: Scope, name: string, entry: unknown, io: CliIo): string | undefined {
  if (scope === "project") {
    const path = join(io.cwd, PROJECT_MCP_FILE);
    const document = readDocument(path);
    if (entry === undefined) delete document.mcpServers[name];
    else document.mcpServers[name] = entry;
    writeDocument(path, document);
    return undefined;
  }
  const folderKey = projectKeys(io.cwd)[0] ?? io.cwd;
  const written = updateClaudeJson(
    claudeJsonPath(io.env),
    (document) => {
      let holder: Record<string, unknown>;
      if (scope === "user") holder = document;
      else {
        const projects = isRecord(document.projects) ? document.projects : {};
        document.projects = projects;
        const found = projectEntry(document, io.cwd);
        holder = found ?? {};
        if (found === undefined) projects[folderKey] = holder;
      }
      const servers = isRecord(holder.mcpServers) ? holder.mcpServers : {};
      if (entry === undefined) delete servers[name];
      else servers[name] = entry;
      holder.mcpServers = servers;
      return true;
    },
    { create: entry !== undefined },
  );
  return written.kind === "refused" ? written.problem : undefined;
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
  return { ...document, mcpServers: isRecord(servers) ? { ...servers } : {} };
}

function writeDocument(path: string, document: Record<string, unknown>): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.threadline-${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(document, null, 2)}\n`);
  renameSync(temporary, path);
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
  const trusted =
    isFolderTrusted(io.cwd, threadlineHome(io.env)) || isTrustedByClaudeCode(io.cwd, claudeJsonPath(io.env));
  const { servers, problems } = loadMcpServers({
    cwd: io.cwd,
    userFile: userMcpFile(io.env),
    claudeJsonFile: claudeJsonPath(io.env),
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
    case "add":
      return addServer(rest, io);
    case "add-json":
      return addJsonServer(rest, io);
    case "remove":
      return removeServer(rest, io);
    default:
      throw new UsageError(
        action === undefined ? "mcp needs list, get, add, add-json or remove" : `unknown mcp command "${action}"`,
      );
  }
}

function parseScoped(argv: readonly string[], extra: NonNullable<ParseArgsConfig["options"]> = {}) {
  try {
    return parseArgs({
      args: [...argv],
      options: { scope: { type: "string", short: "s" }, ...extra },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0] ?? "bad mcp arguments");
  }
}

function saveServer(scope: Scope, name: string, entry: Record<string, unknown>, io: CliIo): number {
  // Checked as a session would read it: a bad entry is refused here, not found broken at the next start.
  const checked = parseMcpServers({ [name]: entry }, "the new server", {});
  if (checked.servers.length === 0) {
    io.stderr.write(
      `threadline: ${checked.problems[0] ?? `server "${name}" is not a valid MCP server`}; nothing written\n`,
    );
    return 1;
  }
  const replaced = name in serversIn(scope, io);
  const problem = writeServer(scope, name, entry, io);
  if (problem !== undefined) {
    io.stderr.write(`threadline: ${problem}\n`);
    return 1;
  }
  io.stdout.write(`${replaced ? "Replaced" : "Added"} MCP server "${name}" in ${scopePlace(scope, io)}\n`);
  return 0;
}

/** `mcp add`: the entry Claude Code's \`claude mcp add\` writes (`type` always; `env` always for stdio). */
function addServer(argv: readonly string[], io: CliIo): number {
  const parsed = parseScoped(argv, {
    transport: { type: "string", short: "t" },
    env: { type: "string", short: "e", multiple: true },
    header: { type: "string", short: "H", multiple: true },
  });
  const [name, target, ...args] = parsed.positionals;
  if (name === undefined || target === undefined) throw new UsageError("mcp add needs a name and a command or URL");
  const values = parsed.values as { scope?: string; transport?: string; env?: string[]; header?: string[] };
  const transport = values.transport ?? "stdio";
  let entry: Record<string, unknown>;
  if (transport === "stdio") {
    entry = { type: "stdio", command: target, args, env: pairs(values.env ?? [], "=", "-e") };
  } else if (transport === "http" || transport === "sse") {
    const headers = pairs(values.header ?? [], ":", "-H");
    entry = { type: transport, url: target, ...(Object.keys(headers).length > 0 ? { headers } : {}) };
  } else {
    throw new UsageError(`--transport must be stdio, http or sse, got "${transport}"`);
  }
  return saveServer(scopeOf(values.scope), name, entry, io);
}

/** `mcp add-json <name> '<json>'`: the object as given, checked first. */
function addJsonServer(argv: readonly string[], io: CliIo): number {
  const parsed = parseScoped(argv);
  const [name, json] = parsed.positionals;
  if (name === undefined || json === undefined) throw new UsageError("mcp add-json needs a name and a JSON object");
  let entry: unknown;
  try {
    entry = JSON.parse(json);
  } catch (error) {
    io.stderr.write(`threadline: mcp add-json: not valid JSON (${(error as Error).message}); nothing written\n`);
    return 1;
  }
  if (!isRecord(entry)) {
    io.stderr.write("threadline: mcp add-json: the server must be a JSON object; nothing written\n");
    return 1;
  }
  return saveServer(scopeOf((parsed.values as { scope?: string }).scope), name, entry, io);
}

/** `mcp remove <name>`: from the scope named, or from the one scope that has it (several: say which to name). */
function removeServer(argv: readonly string[], io: CliIo): number {
  const parsed = parseScoped(argv);
  const name = parsed.positionals[0];
  if (name === undefined) throw new UsageError("mcp remove needs a server name");
  const named = (parsed.values as { scope?: string }).scope;
  const holding = named !== undefined ? [scopeOf(named)] : SCOPES.filter((scope) => name in serversIn(scope, io));
  if (holding.length > 1) {
    io.stderr.write(
      `threadline: MCP server "${name}" is in several scopes (${holding.join(", ")}); name one with -s\n`,
    );
    return 1;
  }
  const scope = holding[0];
  if (scope === undefined || !(name in serversIn(scope, io))) {
    io.stderr.write(
      `threadline: no MCP server named "${name}"${scope !== undefined ? ` in ${scopePlace(scope, io)}` : ""}\n`,
    );
    return 1;
  }
  const problem = writeServer(scope, name, undefined, io);
  if (problem !== undefined) {
    io.stderr.write(`threadline: ${problem}\n`);
    return 1;
  }
  io.stdout.write(`Removed MCP server "${name}" from ${scopePlace(scope, io)}\n`);
  return 0;
}
