/**
 * ToolSearch and the tools block: deferred MCP tools stay out of it until ToolSearch has returned them and a
 * compaction has passed (when the prefix is rewritten anyway); a raw JSON Schema is sent byte for byte.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createToolSearchTool, loadedToolNames, requestTools } from "../../src/mcp/index.js";
import {
  createAssistantEntry,
  createSystemEntry,
  createToolResultEntry,
  type TimelineEntry,
  toolResultBlock,
  toolUseBlock,
} from "../../src/messages/index.js";
import { toolDefinitions } from "../../src/request/index.js";
import type { AnyTool } from "../../src/tools/types.js";

const SCHEMA = { type: "object", properties: { path: { type: "string", description: "where" } }, required: ["path"] };

function deferred(name: string, description: string): AnyTool {
  return {
    name,
    description,
    inputSchema: z.record(z.string(), z.unknown()),
    inputJsonSchema: SCHEMA,
    deferLoading: true,
    isReadOnly: () => false,
    compactable: true,
    call: async () => ({ content: "" }),
  };
}

const READ = deferred("mcp__fs__read_file", "Read a file from disk");
const STORE = deferred("mcp__memory__create_entities", "Create entities in the knowledge graph");
const context = { sessionId: "s", parentUuid: null };

async function searchEntries(query: string): Promise<TimelineEntry[]> {
  const search = createToolSearchTool({ catalog: () => [READ, STORE], atStart: [READ, STORE] });
  const output = await search.call(
    { query },
    {
      cwd: "/",
      additionalDirectories: [],
      signal: new AbortController().signal,
      toolUseId: "t1",
      onProgress: () => {},
    },
  );
  return [
    createAssistantEntry(context, toolUseBlock("toolu_1", "ToolSearch", { query }), { messageId: "m1", model: "x" }),
    createToolResultEntry(context, [toolResultBlock("toolu_1", output.content as string)]),
  ];
}

describe("ToolSearch", () => {
  it("finds by keyword and by select:, returning each definition with the server's schema", async () => {
    const [, result] = await searchEntries("knowledge graph");
    const text = JSON.stringify(result);
    expect(text).toContain("mcp__memory__create_entities");
    expect(text).not.toContain('mcp__fs__read_file\\\\"');
    const [, selected] = await searchEntries("select:mcp__fs__read_file");
    const line = String(
      (selected?.type === "user" &&
        Array.isArray(selected.message.content) &&
        selected.message.content[0]?.type === "tool_result" &&
        selected.message.content[0].content) ||
        "",
    ).split("\n")[1];
    expect(JSON.parse(line ?? "{}")).toEqual({
      name: "mcp__fs__read_file",
      description: "Read a file from disk",
      input_schema: SCHEMA,
    });
  });

  it("names the deferred tools of session start in a description that never changes", () => {
    const first = createToolSearchTool({ catalog: () => [READ], atStart: [READ, STORE] });
    expect(first.description).toContain("mcp__fs__{read_file} mcp__memory__{create_entities}");
  });

  it("loaded definitions join the tools block only after a compaction boundary", async () => {
    const entries = await searchEntries("select:mcp__fs__read_file");
    // Mutation caught: loading right after the search (the tools block, start of the prefix, would change mid-run).
    expect([...loadedToolNames(entries)]).toEqual([]);
    const boundary = createSystemEntry(context, "compact_boundary", "Conversation compacted");
    expect([...loadedToolNames([...entries, boundary])]).toEqual(["mcp__fs__read_file"]);
    const tools = requestTools([READ, STORE], loadedToolNames([...entries, boundary]));
    expect(tools.map((tool) => tool.name)).toEqual(["mcp__fs__read_file"]);
  });
});

describe("raw JSON Schema in the tools block", () => {
  it("is sent byte for byte, not regenerated from zod", () => {
    // Mutation caught: toolDefinition ignoring inputJsonSchema (zod's record schema would be sent instead).
    expect(JSON.stringify(toolDefinitions([READ]))).toBe(
      '[{"name":"mcp__fs__read_file","description":"Read a file from disk","input_schema":{"type":"object","properties":{"path":{"type":"string","description":"where"}},"required":["path"]}}]',
    );
  });
});
