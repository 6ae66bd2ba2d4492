/** The half of mcp/ that loads `@modelcontextprotocol/sdk`; import it through `loadMcpClient()` in index.ts. */
export * from "./connection.js";
export * from "./manager.js";
export * from "./mcp-tool.js";
