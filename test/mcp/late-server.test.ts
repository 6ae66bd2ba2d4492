/**
 * A server that failed at start comes back: ToolSearch retries it, finds its tool, and the loop runs that tool
 * in the same turn, while the tools block stays the bytes the session started with (through the engine, on
 * the emulator over HTTP).
 */
import { mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { createToolSearchTool, McpManager } from "../../src/mcp/index.js";
import type { AnyTool } from "../../src/tools/types.js";
import { collect } from "../../support/collect.js";
import { startHarness } from "../../support/engine-harness.js";
import { MISBEHAVING_SERVER } from "./servers.js";

let directory: string | undefined;
let manager: McpManager | undefined;
afterEach(async () => {
  await manager?.close();
  if (directory !== undefined) await rm(directory, { recursive: true, force: true });
});

it("a server that failed at start is retried by ToolSearch and its tool runs in the same turn", async () => {
  directory = await mkdtemp(join(tmpdir(), "threadline-mcp-late-"));
  const command = join(directory, "node-not-yet");
  const notices: string[] = [];
  const late = new McpManager(
    [{ name: "late", source: "test", config: { type: "stdio", command, args: [MISBEHAVING_SERVER], env: {} } }],
    { cwd: directory, onNotice: (line) => notices.push(line), connectTimeoutMs: 10_000 },
  );
  manager = late;
  await late.start();
  expect(late.status()[0]?.state).toBe("failed");
  const search = createToolSearchTool({
    catalog: () => late.tools(),
    atStart: late.tools(),
    refresh: () => late.retryFailed(),
  });
  const harness = await startHarness(
    {
      scenario: [
        { content: [{ type: "tool_use", name: "ToolSearch", input: { query: "select:mcp__late__echo" } }] },
        { content: [{ type: "tool_use", name: "mcp__late__echo", input: { text: "back again" } }] },
        "done",
      ],
    },
    { extraTools: (): AnyTool[] => [search, ...late.tools()] },
  );
  try {
    // The server can start now.
    await symlink(process.execPath, command);
    await collect(harness.engine.submitMessage("use the late server"));
    const bodies = harness.emulator.requests
      .filter((request) => request.path === "/v1/messages")
      .map((request) => request.body as { tools: unknown[]; messages: Array<{ content: unknown }> });
    expect(bodies).toHaveLength(3);
    // Mutation caught: a registry that never looks at extraTools mid-turn ("unknown tool" instead of the echo).
    expect(JSON.stringify(bodies[2]?.messages.at(-1))).toContain("echo: back again");
    expect(new Set(bodies.map((body) => JSON.stringify(body.tools))).size).toBe(1);
    expect(notices.filter((line) => line.includes("could not connect"))).toHaveLength(1);
  } finally {
    await harness.close();
  }
});
