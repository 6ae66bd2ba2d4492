/** The MCP servers tests start: the official ones from npm (dev dependencies) and the project's misbehaving one. */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { ConfiguredServer } from "../../src/mcp/index.js";

const require = createRequire(import.meta.url);

/** The entry script of an official server package (its `bin`), run with this Node. */
export function officialServerScript(name: "filesystem" | "memory" | "everything"): string {
  const manifest = require.resolve(`@modelcontextprotocol/server-${name}/package.json`);
  return join(dirname(manifest), "dist", "index.js");
}

export const MISBEHAVING_SERVER = join(
  dirname(fileURLToPath(import.meta.url)),
  "..",
  "fixtures",
  "mcp",
  "misbehaving-server.mjs",
);

export function stdioServer(name: string, args: string[], env: Record<string, string> = {}): ConfiguredServer {
  return { name, source: "test", config: { type: "stdio", command: process.execPath, args, env } };
}
