/**
 * The two HTTP transports against a server on loopback built on the SDK's own server transports: streamable
 * HTTP (stateless, one server per request) and the older HTTP+SSE. Headers from the config reach the server.
 */
import { createServer, type Server as HttpServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/mcp/index.js";

function mcpServer(request: IncomingMessage): Server {
  const server = new Server({ name: "http-test", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [{ name: "whoami", description: "Says which header it got", inputSchema: { type: "object" } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, async () => ({
    content: [{ type: "text", text: `authorization=${request.headers.authorization ?? "none"}` }],
  }));
  return server;
}

let http: HttpServer | undefined;
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  http = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  http = createServer(handler);
  await new Promise<void>((resolve) => http?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
}

async function callWhoami(type: "http" | "sse", url: string): Promise<unknown> {
  manager = new McpManager(
    [{ name: "remote", source: "test", config: { type, url, headers: { Authorization: "Bearer t0k" } } }],
    { cwd: process.cwd() },
  );
  await manager.start();
  expect(manager.status()[0]).toMatchObject({ state: "connected", tools: ["whoami"] });
  const [tool] = manager.tools();
  const output = await tool?.call(
    {},
    { cwd: "/", additionalDirectories: [], signal: new AbortController().signal, toolUseId: "t", onProgress: () => {} },
  );
  return output?.content;
}

describe("HTTP transports", () => {
  it("streamable HTTP: lists and calls, sending the configured headers", async () => {
    const base = await listen(async (request, response) => {
      const transport = new StreamableHTTPServerTransport({});
      response.on("close", () => void transport.close());
      await mcpServer(request).connect(transport);
      await transport.handleRequest(request, response);
    });
    expect(await callWhoami("http", `${base}/mcp`)).toBe("authorization=Bearer t0k");
  });

  it("SSE (older servers): lists and calls", async () => {
    const transports = new Map<string, SSEServerTransport>();
    const base = await listen(async (request, response) => {
      const url = new URL(request.url ?? "/", "http://127.0.0.1");
      if (request.method === "GET" && url.pathname === "/sse") {
        const transport = new SSEServerTransport("/messages", response);
        transports.set(transport.sessionId, transport);
        await mcpServer(request).connect(transport);
        return;
      }
      const transport = transports.get(url.searchParams.get("sessionId") ?? "");
      if (request.method === "POST" && transport !== undefined) await transport.handlePostMessage(request, response);
      else response.writeHead(404).end();
    });
    expect(await callWhoami("sse", `${base}/sse`)).toBe("authorization=Bearer t0k");
  });
});
