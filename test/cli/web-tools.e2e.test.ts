/**
 * The built CLI in print mode against the emulator and a loopback HTTP server (no network): the model loads
 * WebFetch with ToolSearch, then fetches an HTML page, a cross-host redirect, a 10 MB page and a binary in one
 * turn, allowed by a `WebFetch(domain:127.0.0.1)` rule; a fetch of another host is denied by that rule's absence.
 */

import { mkdir } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useCliHarness } from "./cli-harness.js";
import { cliEnv, runCli } from "./cli-process.js";

const harness = useCliHarness();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    const port = (server.address() as AddressInfo).port;
    if (request.url === "/page") {
      response.writeHead(200, { "content-type": "text/html" });
      response.end("<h1>Status</h1><p>All <b>green</b>.</p>");
    } else if (request.url === "/away") {
      response.writeHead(302, { location: `http://localhost:${port}/page` });
      response.end();
    } else if (request.url === "/big") {
      response.writeHead(200, { "content-type": "text/plain" });
      for (let index = 0; index < 11; index++) response.write("y".repeat(1024 * 1024));
      response.end();
    } else {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      response.end(Buffer.alloc(64));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetchCall = (url: string) => ({ type: "tool_use" as const, name: "WebFetch", input: { url, prompt: "Status?" } });

describe("WebFetch through the CLI", () => {
  it("HTML, a cross-host redirect, a 10 MB page, a binary; a host no rule allows is denied", async () => {
    const steps = [
      { content: [{ type: "tool_use" as const, name: "ToolSearch", input: { query: "select:WebFetch" } }] },
      {
        content: [
          fetchCall(`${base}/page`),
          fetchCall(`${base}/away`),
          fetchCall(`${base}/big`),
          fetchCall(`${base}/binary`),
          fetchCall("http://localhost:1/page"),
        ],
      },
      "All green.",
    ];
    const emulator = await harness.startEmulator({ scenario: steps as never });
    const dir = await harness.tempDir("web");
    const home = join(dir, "home");
    const cwd = join(dir, "project");
    await mkdir(home, { recursive: true });
    await mkdir(cwd, { recursive: true });
    const result = await runCli(["-p", "is it green?", "--allowedTools", "WebFetch(domain:127.0.0.1)"], {
      cwd,
      env: cliEnv(emulator.url, home),
    });
    expect(result.code).toBe(0);
    const bodies = emulator.requests
      .map((request) => request.body as { tools?: unknown[]; messages?: Array<{ role: string; content: unknown }> })
      .filter((body) => (body?.tools?.length ?? 0) > 0);
    const last = bodies.at(-1)?.messages?.at(-1)?.content as Array<{
      type: string;
      content: unknown;
      is_error?: boolean;
    }>;
    const results = last.filter((block) => block.type === "tool_result");
    const text = results.map((block) =>
      typeof block.content === "string" ? block.content : JSON.stringify(block.content),
    );
    expect(results).toHaveLength(5);
    // The emulator answers the side request with its own short text; the page reached it as markdown.
    const side = emulator.requests.filter(
      (request) => ((request.body as { tools?: unknown[] })?.tools ?? []).length === 0,
    );
    expect(JSON.stringify(side.map((request) => request.body))).toContain("# Status\\n\\nAll **green**.");
    expect(results[0]?.is_error).toBeUndefined();
    expect(text[1]).toContain(`${base}/away redirects (HTTP 302) to a different host: http://localhost:`);
    expect(text[2]).toBe(
      `${base}/big is larger than the 10 MB WebFetch reads; nothing was kept (use Bash with curl to download it).`,
    );
    expect(text[3]).toContain("application/octet-stream content, not text");
    expect(results[4]?.is_error).toBe(true);
    expect(text[4]).toContain("Permission denied");
  });
});
