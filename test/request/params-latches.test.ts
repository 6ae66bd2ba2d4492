import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSystemEntry } from "../../src/messages/index.js";
import {
  assembleRequest,
  CACHE_EDITING_BETA,
  CONTEXT_MANAGEMENT_BETA,
  EmptyConversationError,
  EXTENDED_CACHE_TTL_BETA,
  emptyLatches,
  INTERLEAVED_THINKING_BETA,
  latchBetas,
  latchesFromEntries,
  latchRecord,
  type RequestSettings,
  toolDefinitions,
} from "../../src/request/index.js";
import type { AnyTool } from "../../src/tools/types.js";
import { TOOLS } from "../../support/messy-timeline.js";
import { context, user } from "./helpers.js";

const base: RequestSettings = { model: "claude-sonnet-4-5", systemPrompt: ["sys"], tools: TOOLS };
const assemble = (settings: RequestSettings, latches = emptyLatches()) =>
  assembleRequest({ messages: [user("hello")], settings, latches, pins: [] });

describe("paramsFromContext", () => {
  it("serializes keys in the fixed order and sorts tools by name", () => {
    const { request } = assemble({ ...base, toolChoice: { type: "auto" }, metadata: { user_id: "u" } });
    expect(Object.keys(request.body)).toEqual([
      "model",
      "max_tokens",
      "system",
      "messages",
      "tools",
      "tool_choice",
      "metadata",
    ]);
    expect(request.body.tools!.map((tool) => tool.name)).toEqual(["Bash", "Read"]);
    expect(request.body.max_tokens).toBe(8_192);
  });
  it('keeps thinking within the rules: "budget_tokens" ≥ 1024 and < max_tokens; off when tool_choice forces a tool', () => {
    expect(
      assemble({ ...base, maxTokens: 4_000, thinking: { type: "enabled", budgetTokens: 10 } }).request.body.thinking,
    ).toEqual({
      type: "enabled",
      budget_tokens: 1_024,
    });
    expect(
      assemble({ ...base, maxTokens: 4_000, thinking: { type: "enabled", budgetTokens: 9_000 } }).request.body.thinking,
    ).toEqual({
      type: "enabled",
      budget_tokens: 3_999,
    });
    expect(
      assemble({ ...base, maxTokens: 1_000, thinking: { type: "enabled", budgetTokens: 2_000 } }).request.body.thinking,
    ).toBeUndefined();
    expect(
      assemble({ ...base, toolChoice: { type: "any" }, thinking: { type: "adaptive" } }).request.body.thinking,
    ).toBeUndefined();
  });
  it("caps max_tokens at the model's maximum output", () => {
    expect(assemble({ ...base, maxTokens: 1_000_000 }).request.body.max_tokens).toBe(64_000);
  });
  it("refuses an empty conversation", () => {
    expect(() => assembleRequest({ messages: [], settings: base, latches: emptyLatches(), pins: [] })).toThrow(
      EmptyConversationError,
    );
  });
});

describe("header latches", () => {
  it("sends each feature's beta, and keeps sending it after the feature is turned off", () => {
    const first = assemble({
      ...base,
      cacheTtl: "1h",
      cacheEditing: true,
      thinking: { type: "adaptive" },
      contextManagement: { edits: [{ type: "clear_tool_uses_20250919" }] },
    });
    const all = [
      CACHE_EDITING_BETA,
      CONTEXT_MANAGEMENT_BETA,
      EXTENDED_CACHE_TTL_BETA,
      INTERLEAVED_THINKING_BETA,
    ].sort();
    expect(first.request.betas).toEqual(all);
    const second = assemble(base, first.latches);
    expect(second.request.betas).toEqual(all);
    expect(second.request.body.context_management).toBeUndefined();
    expect(second.request.json).not.toContain("ttl");
    expect(assemble(base).request.betas).toEqual([]);
  });
  it("round-trips through a LatchRecord and resets after a compact boundary", () => {
    const state = latchBetas(emptyLatches(), [INTERLEAVED_THINKING_BETA, CACHE_EDITING_BETA]);
    expect(latchBetas(state, [CACHE_EDITING_BETA])).toBe(state);
    const record = latchRecord(state, "s", new Date(0));
    expect(latchesFromEntries([user("x"), record])).toEqual(state);
    const boundary = createSystemEntry(context(), "compact_boundary", "compacted");
    expect(latchesFromEntries([record, boundary])).toEqual(emptyLatches());
  });
});

describe("toolDefinitions", () => {
  it("converts zod schemas to JSON Schema without $schema and sorts stably by name", () => {
    const tool = (name: string): AnyTool => ({
      name,
      description: `${name} tool`,
      inputSchema: z.object({ file_path: z.string() }),
      isReadOnly: () => true,
      compactable: true,
      call: async () => ({ content: "" }),
    });
    const definitions = toolDefinitions([tool("Write"), tool("Bash"), tool("Read")]);
    expect(definitions.map((definition) => definition.name)).toEqual(["Bash", "Read", "Write"]);
    expect(definitions[0]!.input_schema).not.toHaveProperty("$schema");
    expect(definitions[0]!.input_schema).toMatchObject({
      type: "object",
      properties: { file_path: { type: "string" } },
    });
  });
  it("gives the same list for the same tools every turn, and a new one when a description changes", () => {
    const make = (name: string): { -readonly [K in keyof AnyTool]: AnyTool[K] } => ({
      name,
      description: `${name} tool`,
      inputSchema: z.object({ command: z.string() }),
      isReadOnly: () => false,
      compactable: false,
      call: async () => ({ content: "" }),
    });
    const tools = [make("Zed"), make("Alpha")];
    const first = toolDefinitions(tools);
    expect(toolDefinitions([...tools])).toBe(first);
    tools[0]!.description = "Zed tool, now with more words";
    const changed = toolDefinitions(tools);
    expect(changed).not.toBe(first);
    expect(changed.find((definition) => definition.name === "Zed")?.description).toBe("Zed tool, now with more words");
  });
});
