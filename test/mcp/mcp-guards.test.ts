/**
 * MCP guards checked against a real stdio server (the project's misbehaving one, which echoes its input and
 * its own ANTHROPIC_API_KEY), with literal oracles:
 * - output over 25,000 tokens (Claude Code's `MAX_MCP_OUTPUT_TOKENS` default, counted as characters / 4) is
 *   spilled to a file; at exactly 25,000 it stays inline (docs/MCP.md "Tools");
 * - a stdio server gets the SDK's small default environment plus its config's `env`, never this process's
 *   provider keys (docs/MCP.md "The client").
 *
 * Mutations caught (scripts/mutation-check.mjs): `mcp-spill-threshold-x10`, `mcp-server-env-inherits-process`,
 * `mcp-spill-unredacted`.
 */
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { McpManager } from "../../src/mcp/client.js";
import { runTool } from "../../src/tools/run-tool.js";
import { SecretEnvironment } from "../../src/tools/shell/secret-env.js";
import type { AnyTool, ToolContext } from "../../src/tools/types.js";
import { MISBEHAVING_SERVER, stdioServer } from "./servers.js";

const PROCESS_KEY = "sk-ant-api03-mcp-guard-process-secret-2Rk8";
let directory: string;
let manager: McpManager | undefined;
let savedKey: string | undefined;

beforeAll(() => {
  savedKey = process.env.ANTHROPIC_API_KEY;
  process.env.ANTHROPIC_API_KEY = PROCESS_KEY;
});
afterAll(() => {
  if (savedKey === undefined) delete process.env.ANTHROPIC_API_KEY;
  else process.env.ANTHROPIC_API_KEY = savedKey;
});
beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), "threadline-mcp-guards-"));
});
afterEach(async () => {
  await manager?.close();
  manager = undefined;
  await rm(directory, { recursive: true, force: true });
});

function context(toolUseId: string): ToolContext {
  return {
    cwd: directory,
    additionalDirectories: [],
    signal: new AbortController().signal,
    toolUseId,
    onProgress: () => {},
  };
}

async function echoTool(env: Record<string, string> = {}, maxOutputTokens?: number): Promise<AnyTool> {
  manager = new McpManager([stdioServer("bad", [MISBEHAVING_SERVER], env)], {
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    cwd: directory,
    logDirectory: join(directory, "logs"),
    spillDirectory: join(directory, "spill"),
    onNotice: () => {},
  });
  await manager.start();
  const found = manager.tools().find((tool) => tool.name === "mcp__bad__echo");
  if (found === undefined) throw new Error("the misbehaving server lists no echo tool");
  return found;
}

/** The echo tool answers `echo: <text> env-secret=absent`: 24 characters around the text. */
const AROUND = "echo:  env-secret=absent".length;

describe("MCP output over 25,000 tokens is spilled", () => {
  it("100,000 characters (25,000 tokens) stay inline; 100,001 go to a file with a pointer", async () => {
    const echo = await echoTool();
    const inline = await echo.call({ text: "a".repeat(100_000 - AROUND) }, context("toolu_at_cap"));
    expect(String(inline.content)).toHaveLength(100_000);
    expect(existsSync(join(directory, "spill", "bad-toolu_at_cap.txt"))).toBe(false);

    const over = await echo.call({ text: "a".repeat(100_001 - AROUND) }, context("toolu_over_cap"));
    const text = String(over.content);
    // Mutation caught: a threshold ten times higher keeps all 100,001 characters inline.
    expect(text).toContain("Output too large (~25,001 tokens, over the 25,000-token limit for MCP output).");
    expect(text.length).toBeLessThan(2_500);
    const saved = await readFile(join(directory, "spill", "bad-toolu_over_cap.txt"), "utf8");
    expect(saved).toHaveLength(100_001);
  });
});

describe("a spilled result on disk", () => {
  it("is redacted like the result the model gets (the key never sits in the file for a later Read)", async () => {
    const echo = await echoTool({}, 5);
    const runtime = { secrets: new SecretEnvironment({ ANTHROPIC_API_KEY: PROCESS_KEY }) };
    const output = await runTool(
      echo,
      { text: `${PROCESS_KEY} and more words than five tokens allow` },
      { ...context("toolu_secret"), runtime },
      { mode: "bypassPermissions", allow: [], deny: [] },
    );
    const saved = await readFile(join(directory, "spill", "bad-toolu_secret.txt"), "utf8");
    // Mutation caught: the spill file written before redaction.
    expect(saved).not.toContain(PROCESS_KEY);
    expect(saved).toContain("[REDACTED] and more words");
    expect(String(output.content)).not.toContain(PROCESS_KEY);
  });
});

describe("a stdio MCP server's environment", () => {
  it("never holds this process's ANTHROPIC_API_KEY", async () => {
    const echo = await echoTool({ SERVER_FLAG: "on" });
    const output = await echo.call({ text: "hi" }, context("toolu_env"));
    // Mutation caught: the server started with {...process.env, ...config.env}.
    expect(output.content).toBe("echo: hi env-secret=absent");
  });
});
