/**
 * WebFetch against a real HTTP server on loopback (no network): HTML to markdown, a cross-host redirect reported
 * and not followed, a 10 MB page refused, binary content refused, the 15-minute cache, `offset` paging, the
 * side request that answers `prompt`, and `WebFetch(domain:…)` rules.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { alwaysAllowRule } from "../../src/tools/permissions/permission-rules.js";
import { checkPermission, type PermissionPolicy } from "../../src/tools/permissions/permissions.js";
import { runTool } from "../../src/tools/run-tool.js";
import type { SideQuery } from "../../src/tools/types.js";
import { createWebFetchTool } from "../../src/tools/web/web-fetch-tool.js";
import { BYPASS, makeContext, outputText } from "./tool-test-context.js";

const PAGE = `<!doctype html><html><head><title>T</title><style>body{color:red}</style>
<script>var secret = "do-not-show";</script></head>
<body><h1>Release notes</h1><p>Version <strong>2.0</strong> adds <a href="/docs">docs</a>.</p>
<ul><li>alpha</li><li>beta</li></ul></body></html>`;

let server: Server;
let base: string;
/** Requests the server saw, by path (the oracle for "not followed" and "cached"). */
const hits = new Map<string, number>();

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? "/";
  hits.set(path, (hits.get(path) ?? 0) + 1);
  const port = (server.address() as AddressInfo).port;
  if (path === "/page") {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    response.end(PAGE);
  } else if (path === "/moved-here") {
    response.writeHead(301, { location: "/page" });
    response.end();
  } else if (path === "/moved-away") {
    // Same server, other host name: 127.0.0.1 vs localhost.
    response.writeHead(302, { location: `http://localhost:${port}/page` });
    response.end();
  } else if (path === "/big") {
    // 10 MB and a bit more, streamed without a content-length.
    response.writeHead(200, { "content-type": "text/plain" });
    const chunk = "x".repeat(1024 * 1024);
    for (let index = 0; index < 10; index++) response.write(chunk);
    response.end("more");
  } else if (path === "/binary") {
    response.writeHead(200, { "content-type": "image/png" });
    response.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
  } else if (path === "/long") {
    response.writeHead(200, { "content-type": "text/plain" });
    response.end("0123456789".repeat(5));
  } else if (path === "/slow") {
    setTimeout(() => response.end("late"), 2000);
  } else {
    response.writeHead(404, { "content-type": "text/plain" });
    response.end("not here");
  }
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const context = makeContext(process.cwd());

async function fetchText(
  tool: ReturnType<typeof createWebFetchTool>,
  url: string,
  extra: Record<string, unknown> = {},
) {
  const output = await runTool(tool, { url, prompt: "What is new?", ...extra }, context, BYPASS);
  return { ...output, text: outputText(output.content) };
}

describe("WebFetch", () => {
  it("turns HTML into markdown (headings, emphasis, links, lists) without scripts or styles", async () => {
    const result = await fetchText(createWebFetchTool(), `${base}/page`);
    expect(result.isError).toBeUndefined();
    expect(result.text).toBe("# Release notes\n\nVersion **2.0** adds [docs](/docs).\n\n-   alpha\n-   beta");
    expect(result.text).not.toContain("do-not-show");
    expect(result.text).not.toContain("color:red");
  });

  it("follows a redirect on the same host", async () => {
    const result = await fetchText(createWebFetchTool(), `${base}/moved-here`);
    expect(result.text).toContain("# Release notes");
  });

  // Mutation caught: following every redirect fetches the other host's page.
  it("reports a redirect to another host and does not follow it", async () => {
    const before = hits.get("/page") ?? 0;
    const result = await fetchText(createWebFetchTool(), `${base}/moved-away`);
    const port = (server.address() as AddressInfo).port;
    expect(result.isError).toBeUndefined();
    expect(result.text).toContain(`to a different host: http://localhost:${port}/page`);
    expect(result.text).toContain("It was not followed");
    expect(hits.get("/page") ?? 0).toBe(before);
  });

  // Mutation caught: without the byte cap the 10 MB page comes back whole.
  it("refuses a page over the size cap in one line, keeping nothing", async () => {
    const result = await fetchText(createWebFetchTool(), `${base}/big`);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `${base}/big is larger than the 10 MB WebFetch reads; nothing was kept (use Bash with curl to download it).`,
    );
  });

  it("refuses binary content in one line", async () => {
    const result = await fetchText(createWebFetchTool(), `${base}/binary`);
    expect(result.isError).toBe(true);
    expect(result.text).toBe(
      `${base}/binary returned image/png content, not text; WebFetch reads web pages and text only (use Bash with curl to download files).`,
    );
  });

  it("refuses other schemes and gives up after the timeout", async () => {
    const file = await fetchText(createWebFetchTool(), "file:///etc/passwd");
    expect(file.text).toBe("WebFetch fetches http:// and https:// URLs only, not file:");
    const slow = await fetchText(createWebFetchTool({ timeoutMs: 200 }), `${base}/slow`);
    expect(slow.isError).toBe(true);
    expect(slow.text).toBe(`${base}/slow did not answer within 0.2 s; nothing was kept.`);
  });

  // Mutation caught: without the cache each call fetches again.
  it("reuses a page for 15 minutes, then fetches it again", async () => {
    let now = 1_000_000;
    const tool = createWebFetchTool({ now: () => now });
    const before = hits.get("/page") ?? 0;
    await fetchText(tool, `${base}/page`);
    now += 14 * 60 * 1000;
    const second = await fetchText(tool, `${base}/page`);
    expect(hits.get("/page")).toBe(before + 1);
    expect((second.display as { cached: boolean }).cached).toBe(true);
    now += 2 * 60 * 1000;
    await fetchText(tool, `${base}/page`);
    expect(hits.get("/page")).toBe(before + 2);
  });

  it("shows a long page in windows, naming the offset that reads on", async () => {
    const tool = createWebFetchTool({ textChars: 20 });
    const first = await fetchText(tool, `${base}/long`);
    expect(first.text).toBe(
      "01234567890123456789\n\n(Page text continues: characters 0-20 of 50 shown. Call WebFetch again with offset=20 to read on.)",
    );
    const last = await fetchText(tool, `${base}/long`, { offset: 40 });
    expect(last.text).toBe("0123456789");
  });

  it("answers the prompt with a side request about the page when the session can ask one", async () => {
    const asked: SideQuery[] = [];
    const sideQuery = async (query: SideQuery) => {
      asked.push(query);
      return "Version 2.0 adds docs.";
    };
    const output = await runTool(
      createWebFetchTool(),
      { url: `${base}/page`, prompt: "What version?" },
      makeContext(process.cwd(), { sideQuery }),
      BYPASS,
    );
    expect(output.content).toBe("Version 2.0 adds docs.");
    expect(asked).toHaveLength(1);
    expect(asked[0]?.prompt).toContain("# Release notes");
    expect(asked[0]?.prompt.endsWith("What version?")).toBe(true);
  });
});

describe("WebFetch(domain:…) rules", () => {
  const tool = createWebFetchTool();
  const policy = (overrides: Partial<PermissionPolicy>): PermissionPolicy => ({
    mode: "default",
    allow: [],
    deny: [],
    ...overrides,
  });
  const at = (url: string) => ({ url, prompt: "p" });

  // Mutation caught: a domain rule that ignores the host allows every URL.
  it("an allow rule allows that host only; *.host its subdomains", async () => {
    const allow = policy({ allow: ["WebFetch(domain:example.com)", "WebFetch(domain:*.docs.dev)"] });
    expect(await checkPermission(tool, at("https://example.com/a"), allow)).toEqual({ behavior: "allow" });
    expect(await checkPermission(tool, at("https://api.docs.dev/x"), allow)).toEqual({ behavior: "allow" });
    expect((await checkPermission(tool, at("https://evil.com/?example.com"), allow)).behavior).toBe("deny");
    expect((await checkPermission(tool, at("https://example.com.evil.com/"), allow)).behavior).toBe("deny");
  });

  it("a deny rule denies that host even in bypass mode; WebFetch is never read-only", async () => {
    const deny = policy({ mode: "bypassPermissions", deny: ["WebFetch(domain:example.com)"] });
    expect((await checkPermission(tool, at("https://example.com/"), deny)).behavior).toBe("deny");
    expect(await checkPermission(tool, at("https://other.org/"), deny)).toEqual({ behavior: "allow" });
    expect((await checkPermission(tool, at(`${base}/page`), policy({}))).behavior).toBe("deny");
  });

  it("'always allow' remembers the host, not the tool", () => {
    expect(alwaysAllowRule("WebFetch", at("https://Docs.Example.com/a/b"))).toBe("WebFetch(domain:docs.example.com)");
  });
});
