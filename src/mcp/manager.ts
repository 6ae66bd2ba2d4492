/**
 * Every configured MCP server of a session: connects them together (waiting at most the connect timeout, so
 * a slow server never holds up the first prompt for long), hands their tools to the engine in a deterministic
 * order with one object per tool for the whole session, and reports each server's state for `/mcp`.
 */
import type { AnyTool } from "../tools/types.js";
import type { ConfiguredServer } from "./config.js";
import { type ConnectionOptions, McpConnection, type ServerState } from "./connection.js";
import { mcpTool } from "./mcp-tool.js";

export interface McpManagerOptions extends Omit<ConnectionOptions, "onToolsChanged"> {
  /** Keep MCP tools out of the tools block until ToolSearch finds them. Default true. */
  deferLoading?: boolean;
  /** Tokens of output kept inline; default `DEFAULT_MCP_OUTPUT_TOKENS`. */
  maxOutputTokens?: number;
  /** Where output over the cap is written. Default: cut instead. */
  spillDirectory?: string;
}

/** One server as `/mcp` and `threadline mcp list` show it. */
export interface ServerStatus {
  name: string;
  source: string;
  transport: "stdio" | "http" | "sse";
  state: ServerState;
  tools: string[];
  lastError?: string;
  logPath?: string;
}

/** Least time between two reconnection attempts of a failed server from ToolSearch. */
export const DEFAULT_MCP_RETRY_INTERVAL_MS = 60_000;

function compareNames(left: string, right: string): number {
  return left < right ? -1 : left > right ? 1 : 0;
}

export class McpManager {
  readonly #connections: McpConnection[];
  /** One tool object per name for the session: the same object keeps its definition cached and latched. */
  readonly #tools = new Map<string, AnyTool>();
  readonly #options: McpManagerOptions;
  readonly #lastRetry = new Map<McpConnection, number>();

  constructor(servers: readonly ConfiguredServer[], options: McpManagerOptions) {
    this.#options = options;
    this.#connections = servers.map((server) => new McpConnection(server, options));
  }

  /** Connects every server at once; resolves when each is connected or has failed (never rejects). */
  async start(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.connect()));
  }

  /**
   * Tries once more to connect the servers that failed, at most once per `DEFAULT_MCP_RETRY_INTERVAL_MS` each
   * (ToolSearch asks before it searches, so a server that failed at start can still bring its tools).
   */
  async retryFailed(now = Date.now()): Promise<void> {
    const due = this.#connections.filter(
      (connection) =>
        connection.state === "failed" && now - (this.#lastRetry.get(connection) ?? 0) >= DEFAULT_MCP_RETRY_INTERVAL_MS,
    );
    for (const connection of due) this.#lastRetry.set(connection, now);
    await Promise.all(due.map((connection) => connection.connect()));
  }

  /**
   * Every tool of every server that has listed its tools, sorted by name. A tool that a server stops listing
   * keeps its object (a call then fails at the server), so the session's tools only ever grow.
   */
  tools(): AnyTool[] {
    for (const connection of this.#connections) {
      for (const info of connection.tools) {
        const tool = mcpTool(connection, info, {
          deferLoading: this.#options.deferLoading ?? true,
          ...(this.#options.maxOutputTokens !== undefined ? { maxOutputTokens: this.#options.maxOutputTokens } : {}),
          ...(this.#options.spillDirectory !== undefined ? { spillDirectory: this.#options.spillDirectory } : {}),
        });
        const known = this.#tools.get(tool.name);
        if (known === undefined) this.#tools.set(tool.name, tool);
      }
    }
    return [...this.#tools.values()].sort((left, right) => compareNames(left.name, right.name));
  }

  status(): ServerStatus[] {
    return this.#connections.map((connection) => {
      const status: ServerStatus = {
        name: connection.name,
        source: connection.server.source,
        transport: connection.server.config.type,
        state: connection.state,
        tools: connection.tools.map((tool) => tool.name),
      };
      if (connection.lastError !== undefined) status.lastError = connection.lastError;
      if (connection.logPath !== undefined) status.logPath = connection.logPath;
      return status;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.#connections.map((connection) => connection.close()));
  }
}

/** `/mcp`: each server's state, tools and last error, one block per server. */
export function formatServerStatus(statuses: readonly ServerStatus[]): string {
  if (statuses.length === 0) return "No MCP servers configured (.mcp.json, --mcp-config, or `threadline mcp add`).";
  return statuses
    .map((status) => {
      const lines = [
        `${status.name} (${status.transport}, from ${status.source}): ${status.state}, ${status.tools.length} tool(s)`,
      ];
      if (status.tools.length > 0) lines.push(`  tools: ${status.tools.join(", ")}`);
      if (status.lastError !== undefined) lines.push(`  last error: ${status.lastError}`);
      if (status.logPath !== undefined) lines.push(`  log: ${status.logPath}`);
      return lines.join("\n");
    })
    .join("\n");
}
