/**
 * The MCP servers of one CLI run: read from settings, `.mcp.json` and `--mcp-config`, connected before the
 * first prompt, their tools (and ToolSearch) handed to the engine, closed when the run ends. Without a
 * configured server nothing is added, so the requests are the same bytes as before MCP existed.
 */
import { join } from "node:path";
import type { QueryEngineOptions } from "../../engine/engine-options.js";
import { claudeJsonPath, threadlineHome } from "../../home/index.js";
// Not mcp/index.js: the SDK client (manager.js) is loaded only when a server is configured, off the start-up path.
import {
  createToolSearchTool,
  DEFAULT_MCP_OUTPUT_TOKENS,
  loadMcpClient,
  loadMcpServers,
  MCP_OUTPUT_TOKENS_ENV,
  type SettingsServers,
} from "../../mcp/index.js";
import { deferredBuiltinTools } from "../../tools/index.js";
import type { CliOptions } from "../args.js";

/** Claude Code's variables for the connect and call timeouts (milliseconds). */
export const MCP_TIMEOUT_ENV = "MCP_TIMEOUT";
export const MCP_TOOL_TIMEOUT_ENV = "MCP_TOOL_TIMEOUT";

/** The user's servers (`threadline mcp add --scope user`): `$THREADLINE_HOME/mcp.json`. */
export function userMcpFile(env: NodeJS.ProcessEnv): string {
  return join(threadlineHome(env), "mcp.json");
}

export interface CliMcp {
  /** Added to the engine options (none without servers). */
  engineOptions: Partial<QueryEngineOptions>;
  /** `/mcp`'s text. */
  status(): string;
  /** Each server and its state (stream-json's init line: Claude Code's `mcp_servers`). */
  servers(): { name: string; status: string }[];
  close(): Promise<void>;
}

function positive(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const number = Number(value);
  return Number.isInteger(number) && number > 0 ? number : undefined;
}

/** The settings files' `mcpServers` (settings-options.ts loaded them), lowest precedence first. */
export function settingsServers(cli: Pick<CliOptions, "settings">): SettingsServers[] {
  return (cli.settings?.mcpServers ?? []).map((raw) => ({
    path: raw.source,
    mcpServers: raw.value,
    project: raw.scope === "project" || raw.scope === "local",
  }));
}

/**
 * Connects the configured servers (each problem one line on `stderr`). `settings` are the settings files' raw
 * `mcpServers` values, lowest precedence first (wired by whoever reads settings); default none.
 */
export async function openMcp(
  cli: Pick<CliOptions, "mcpConfigs" | "strictMcpConfig" | "settings" | "trustGate">,
  io: { cwd: string; env: NodeJS.ProcessEnv; stderr: { write(text: string): unknown } },
  settings: readonly SettingsServers[] = settingsServers(cli),
): Promise<CliMcp> {
  const { servers, problems } = loadMcpServers({
    cwd: io.cwd,
    mcpConfigs: cli.mcpConfigs,
    strict: cli.strictMcpConfig,
    settings,
    // The project's `.mcp.json` starts its servers only in a trusted folder (docs/TRUST.md).
    includeProject: cli.trustGate?.trusted !== false,
    userFile: userMcpFile(io.env),
    claudeJsonFile: claudeJsonPath(io.env),
    env: io.env,
  });
  for (const problem of problems) io.stderr.write(`threadline: ${problem}\n`);
  if (servers.length === 0) {
    return {
      engineOptions: {},
      status: () => "No MCP servers configured (.mcp.json, --mcp-config, or `threadline mcp add`).",
      servers: () => [],
      close: async () => {},
    };
  }
  const { formatServerStatus, McpManager } = await loadMcpClient();
  const home = threadlineHome(io.env);
  const spillDirectory = join(home, "mcp-output");
  const connectTimeoutMs = positive(io.env[MCP_TIMEOUT_ENV]);
  const callTimeoutMs = positive(io.env[MCP_TOOL_TIMEOUT_ENV]);
  const maxOutputTokens = positive(io.env[MCP_OUTPUT_TOKENS_ENV]) ?? DEFAULT_MCP_OUTPUT_TOKENS;
  const manager = new McpManager(servers, {
    cwd: io.cwd,
    logDirectory: join(home, "mcp-logs"),
    spillDirectory,
    maxOutputTokens,
    ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}),
    ...(callTimeoutMs !== undefined ? { callTimeoutMs } : {}),
    onNotice: (line) => io.stderr.write(`threadline: ${line}\n`),
  });
  await manager.start();
  // It also finds Claude Code's deferred built-ins (WebFetch, NotebookEdit): one ToolSearch per session.
  const toolSearch = createToolSearchTool({
    catalog: () => [...deferredBuiltinTools(), ...manager.tools()],
    atStart: [...deferredBuiltinTools(), ...manager.tools()],
    refresh: () => manager.retryFailed(),
  });
  return {
    engineOptions: {
      extraTools: () => [toolSearch, ...manager.tools()],
      // Spilled output must be readable by Read without asking.
      additionalDirectories: [spillDirectory],
    },
    status: () => formatServerStatus(manager.status()),
    servers: () => manager.status().map((server) => ({ name: server.name, status: server.state })),
    close: () => manager.close(),
  };
}
