/** MCP servers: configuration, the client, their tools as ordinary `Tool`s, and the ToolSearch tool. */
export * from "./config.js";
export * from "./config-sources.js";
export * from "./connection.js";
export * from "./expand-env.js";
export * from "./manager.js";
export * from "./mcp-tool.js";
export * from "./result-content.js";
export * from "./tool-names.js";
export * from "./tool-search.js";
