/**
 * The client against real servers: the official filesystem, memory and everything servers from npm, and the
 * project's misbehaving server (crash, hang, 10 MB, malformed JSON, invalid schema). Every failure must come
 * back as one notice and an error result, and the next call must reconnect.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compactableToolNames } from "../../src/loop/query-context.js";
import { McpManager } from "../../src/mcp/client.js";
import { runTool } from "../../src/tools/run-tool.js";
import { SecretEnvironment } from "../../src/tools/shell/secret-env.js";
import type { AnyTool, ToolContext } from "../../src/tools/types.js";
import { MISBEHAVING_SERVER, officialServerScript, stdioServer } from "./servers.js";

let directory: string;
let manager: McpManager | undefined;
let notices: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "threadline-mcp-"));
  notices = [];
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await rm(directory, { recursive: true, force: true });
});

function context(toolUseId = "toolu_test"): ToolContext {
  return {
    cwd: directory,
    additionalDirectories: [],
    signal: new AbortController().signal,
    toolUseId,
    onProgress: () => {},
  };
}

function tool(tools: readonly AnyTool[], name: string): AnyTool {
  const found = tools.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no tool ${name} in ${tools.map((t) => t.name).join(", ")}`);
  return found;
}

async function startMisbehaving(options: { callTimeoutMs?: number; maxOutputTokens?: number } = {}) {
  manager = new McpManager([stdioServer("bad", [MISBEHAVING_SERVER])], {
    cwd: directory,
    logDirectory: join(directory, "logs"),
    spillDirectory: join(directory, "spill"),
    onNotice: (line) => notices.push(line),
    ...options,
  });
  await manager.start();
  return manager;
}

describe("official servers from npm", () => {
  it("lists the filesystem server's tools as mcp__fs__*, schemas passed through, and reads a file", async () => {
    await writeFile(join(directory, "note.txt"), "hello from the filesystem server\n");
    manager = new McpManager([stdioServer("fs", [officialServerScript("filesystem"), directory])], {
      cwd: directory,
      onNotice: (line) => notices.push(line),
    });
    await manager.start();
    const tools = manager.tools();
    // Mutation caught: dropping the mcp__<server>__ prefix, or passing a zod-generated schema instead of the server's.
    const read = tool(tools, "mcp__fs__read_text_file");
    expect(read.inputJsonSchema).toMatchObject({ type: "object", properties: { path: { type: "string" } } });
    expect(read.isReadOnly({}, undefined)).toBe(false);
    const output = await read.call({ path: join(directory, "note.txt") }, context());
    expect(output.isError).not.toBe(true);
    expect(output.content).toBe("hello from the filesystem server\n");
    expect(manager.status()[0]).toMatchObject({ name: "fs", state: "connected" });
  });

  it("stores and reads back an entity through the memory server", async () => {
    manager = new McpManager(
      [stdioServer("memory", [officialServerScript("memory")], { MEMORY_FILE_PATH: join(directory, "memory.jsonl") })],
      { cwd: directory, onNotice: (line) => notices.push(line) },
    );
    await manager.start();
    const tools = manager.tools();
    const create = tool(tools, "mcp__memory__create_entities");
    const created = await create.call(
      { entities: [{ name: "threadline", entityType: "project", observations: ["speaks MCP"] }] },
      context(),
    );
    expect(created.isError).not.toBe(true);
    const read = await tool(tools, "mcp__memory__read_graph").call({}, context());
    expect(JSON.stringify(read.content)).toContain("speaks MCP");
  });

  it("maps the everything server's image content to an image block", async () => {
    manager = new McpManager([stdioServer("everything", [officialServerScript("everything"), "stdio"])], {
      cwd: directory,
      onNotice: (line) => notices.push(line),
    });
    await manager.start();
    const tools = manager.tools();
    expect(tools.length).toBeGreaterThan(5);
    const image = tools.find((candidate) => /image/i.test(candidate.name));
    expect(image, tools.map((t) => t.name).join(",")).toBeDefined();
    const output = await (image as AnyTool).call({}, context());
    expect(Array.isArray(output.content)).toBe(true);
    expect((output.content as Array<{ type: string }>).some((block) => block.type === "image")).toBe(true);
  });
});

describe("a misbehaving server", () => {
  it("keeps its good tools and names the one with an invalid schema in one notice", async () => {
    await startMisbehaving();
    const names = manager?.tools().map((candidate) => candidate.name) ?? [];
    // Mutation caught: keeping a tool whose input_schema is not an object (the API would reject every request).
    expect(names).not.toContain("mcp__bad__bad_schema");
    expect(names).toContain("mcp__bad__echo");
    expect(notices.filter((line) => line.includes("bad_schema"))).toHaveLength(1);
  });

  it("sends its stderr to the log file and gives it none of the session's keys", async () => {
    process.env.ANTHROPIC_API_KEY = "sk-ant-test-key-not-for-servers";
    try {
      await startMisbehaving();
      const output = await tool(manager?.tools() ?? [], "mcp__bad__echo").call({ text: "hi" }, context());
      // Mutation caught: spawning the server with process.env (the key would reach it).
      expect(output.content).toBe("echo: hi env-secret=absent");
      const log = await readFile(join(directory, "logs", "bad.log"), "utf8");
      expect(log).toMatch(/misbehaving-server started pid \d+/);
    } finally {
      delete process.env.ANTHROPIC_API_KEY;
    }
  });

  it("a crash mid-call is an error result and one notice; the next call restarts the server", async () => {
    await startMisbehaving();
    const tools = manager?.tools() ?? [];
    const crashed = await tool(tools, "mcp__bad__crash").call({}, context());
    expect(crashed.isError).toBe(true);
    expect(String(crashed.content)).toContain('MCP server "bad"');
    expect(notices.filter((line) => !line.includes("bad_schema"))).toHaveLength(1);
    expect(manager?.status()[0]?.state).toBe("failed");
    // Mutation caught: not reconnecting on the next call (it would fail with "not connected").
    const again = await tool(tools, "mcp__bad__echo").call({ text: "back" }, context());
    expect(again.content).toBe("echo: back env-secret=absent");
    expect(manager?.status()[0]?.state).toBe("connected");
  });

  it("a hung call times out into an error result, and the server answers the next call", async () => {
    await startMisbehaving({ callTimeoutMs: 1_500 });
    const tools = manager?.tools() ?? [];
    const hung = await tool(tools, "mcp__bad__hang").call({}, context());
    expect(hung.isError).toBe(true);
    expect(String(hung.content)).toMatch(/timed out/i);
    const again = await tool(tools, "mcp__bad__echo").call({ text: "after" }, context());
    expect(again.content).toBe("echo: after env-secret=absent");
  });

  it("malformed JSON on stdout fails the call at once (not at the timeout) and the next call reconnects", async () => {
    // A timeout far beyond the test's own: only the protocol-error path can end this call in time.
    await startMisbehaving({ callTimeoutMs: 600_000 });
    const tools = manager?.tools() ?? [];
    const garbage = await tool(tools, "mcp__bad__garbage").call({}, context());
    expect(garbage.isError).toBe(true);
    expect(
      notices.some((line) =>
        line.includes('protocol error: the server wrote a line that is not JSON: "{this is not json"'),
      ),
    ).toBe(true);
    const again = await tool(tools, "mcp__bad__echo").call({ text: "ok" }, context());
    expect(again.content).toBe("echo: ok env-secret=absent");
  });

  it("a line that is not JSON-RPC is named in the notice, quoted, not as `protocol error: [`", async () => {
    await startMisbehaving({ callTimeoutMs: 600_000 });
    const tools = manager?.tools() ?? [];
    const bad = await tool(tools, "mcp__bad__notrpc").call({}, context());
    expect(bad.isError).toBe(true);
    const line = notices.find((notice) => /protocol error/.test(notice)) ?? "";
    expect(line).toContain('is JSON but not a JSON-RPC message: "[\\"not\\", \\"json-rpc\\"]"');
    expect(line).not.toMatch(/protocol error: \[$/);
    expect(line.split("\n")).toHaveLength(1);
  });

  it("10 MB of output is spilled to a file the placeholder names, with the start kept inline", async () => {
    await startMisbehaving();
    const output = await tool(manager?.tools() ?? [], "mcp__bad__huge").call({}, context("toolu_huge"));
    const text = String(output.content);
    // Mutation caught: returning the whole 10 MB inline (or cutting it without saying where the rest is).
    expect(text.length).toBeLessThan(5_000);
    expect(text.slice(0, 40)).toBe(`start-of-huge ${"x".repeat(26)}`);
    const path = /saved to (\S+?\.txt)/.exec(text)?.[1];
    expect(path).toBe(join(directory, "spill", "bad-toolu_huge.txt"));
    const saved = await readFile(path as string, "utf8");
    expect(saved.length).toBe("start-of-huge ".length + 10 * 1024 * 1024);
  });

  it("a spilled result is redacted in the file too, through runTool like every tool's output", async () => {
    await startMisbehaving({ maxOutputTokens: 5 });
    const secret = "sk-ant-api03-spill-secret-value-123456";
    const runtime = { secrets: new SecretEnvironment({ ANTHROPIC_API_KEY: secret }) };
    const echo = tool(manager?.tools() ?? [], "mcp__bad__echo");
    const output = await runTool(
      echo,
      { text: `${secret} and more words than five tokens allow` },
      { ...context("toolu_secret"), runtime },
      { mode: "bypassPermissions", allow: [], deny: [] },
    );
    const saved = await readFile(join(directory, "spill", "bad-toolu_secret.txt"), "utf8");
    // Mutation caught: writing the spill file before redaction (the key would sit on disk for the model to Read).
    expect(saved).not.toContain(secret);
    expect(saved).toContain("and more words");
    expect(String(output.content)).not.toContain(secret);
  });

  it("its results are compactable like Read's (microcompact, collapse and autocompact may clear them)", async () => {
    await startMisbehaving();
    const tools = manager?.tools() ?? [];
    expect(compactableToolNames(new Map(tools.map((t) => [t.name, t])))).toContain("mcp__bad__echo");
  });

  it("isError becomes an error result; images, resource links and embedded resources are mapped", async () => {
    await startMisbehaving();
    const tools = manager?.tools() ?? [];
    const failed = await tool(tools, "mcp__bad__fail").call({}, context());
    expect(failed).toEqual({ content: "the tool failed on purpose", isError: true });
    const picture = await tool(tools, "mcp__bad__picture").call({}, context());
    expect(picture.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
      { type: "text", text: "Resource link: report <file:///tmp/report.txt> (text/plain)" },
      { type: "text", text: "Resource mem://note:\nembedded note" },
    ]);
  });

  it("list_changed re-reads the list: a new tool joins, the ones already handed out keep their objects", async () => {
    await startMisbehaving();
    const before = manager?.tools() ?? [];
    const grew = await tool(before, "mcp__bad__grow").call({}, context());
    expect(grew.content).toBe("grew");
    // Mutation caught: ignoring notifications/tools/list_changed (the new tool would never appear).
    for (
      let attempt = 0;
      attempt < 100 && !(manager?.tools() ?? []).some((t) => t.name === "mcp__bad__grown");
      attempt++
    )
      await new Promise((resolve) => setTimeout(resolve, 20));
    const after = manager?.tools() ?? [];
    expect((await tool(after, "mcp__bad__grown").call({}, context())).content).toBe("grown answers");
    expect(tool(after, "mcp__bad__echo")).toBe(tool(before, "mcp__bad__echo"));
  });

  it("a server that will not start is one notice and an error result, never a thrown error", async () => {
    manager = new McpManager([stdioServer("ghost", [join(directory, "does-not-exist.mjs")])], {
      cwd: directory,
      onNotice: (line) => notices.push(line),
      connectTimeoutMs: 5_000,
    });
    await manager.start();
    expect(manager.status()[0]?.state).toBe("failed");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^MCP server "ghost" could not connect: /);
    expect(manager.tools()).toEqual([]);
  });
});
