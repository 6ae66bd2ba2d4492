/**
 * MCP servers: configuration, their tools as ordinary `Tool`s, and the ToolSearch tool.
 *
 * The client half (`connection.ts`, `manager.ts`) loads `@modelcontextprotocol/sdk`, which costs start-up time and
 * memory in every process that imports it; it is reached only through `loadMcpClient()`, so a session with no MCP
 * server configured never loads the SDK (docs/MCP.md).
 */
export * from "./config.js";
export * from "./config-sources.js";
export * from "./expand-env.js";
export * from "./result-content.js";
export * from "./tool-names.js";
export * from "./tool-search.js";

/** The MCP client (connections and the manager), loaded on first use. */
export function loadMcpClient(): Promise<typeof import("./client.js")> {
  return import("./client.js");
}
