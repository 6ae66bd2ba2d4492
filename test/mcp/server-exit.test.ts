/**
 * A stdio server that exits is named by its exit code and the last lines of its stderr, not by the broken pipe
 * the client hit afterwards (issue 53 item 5: exit code 3 was reported as "write EPIPE"). Real processes; the
 * oracle is the literal exit code and stderr lines the test's own server writes. Mutation it catches
 * (scripts/mutation-check.mjs): mcp-exit-not-explained.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/mcp/client.js";
import type { AnyTool, ToolContext } from "../../src/tools/types.js";
import { MISBEHAVING_SERVER, stdioServer } from "./servers.js";

let directory: string;
let manager: McpManager | undefined;
let notices: string[];

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "threadline-mcp-exit-"));
  notices = [];
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await rm(directory, { recursive: true, force: true });
});

const DIES_AT_START = [
  "process.stderr.write('loading settings\\n'); process.stderr.write('fatal: no config found at ./mcp.json\\n');",
  "setTimeout(() => process.exit(3), 50);",
].join(" ");

describe("a stdio server that exits", () => {
  it("at start: the notice names exit code 3 and its last stderr lines", async () => {
    manager = new McpManager([stdioServer("dies", ["-e", DIES_AT_START])], {
      cwd: directory,
      onNotice: (line) => notices.push(line),
      connectTimeoutMs: 10_000,
    });
    await manager.start();
    expect(manager.status()[0]?.state).toBe("failed");
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(
      /^MCP server "dies" could not connect: the server exited with code 3 \(.+\); its stderr ended: "loading settings" \/ "fatal: no config found at \.\/mcp\.json"$/,
    );
  });

  it("mid-call: the error result names exit code 3", async () => {
    manager = new McpManager([stdioServer("bad", [MISBEHAVING_SERVER])], {
      cwd: directory,
      onNotice: (line) => notices.push(line),
    });
    await manager.start();
    const crash = manager.tools().find((tool) => tool.name === "mcp__bad__crash") as AnyTool;
    const context: ToolContext = {
      cwd: directory,
      additionalDirectories: [],
      signal: new AbortController().signal,
      toolUseId: "toolu_crash",
      onProgress: () => {},
    };
    const result = await crash.call({}, context);
    expect(result.isError).toBe(true);
    expect(String(result.content)).toMatch(/^MCP server "bad": .*the server exited with code 3 \(/);
    expect(notices.filter((line) => line.includes("exited with code 3"))).toHaveLength(1);
  });
});
