import { describe, expect, it } from "vitest";
import {
  DEFAULT_SUBAGENT_TYPES,
  resolveSubagentType,
  subagentTools,
  subagentUsage,
} from "../../src/engine/subagent.js";
import { createAssistantEntry, createUserEntry, textBlock } from "../../src/messages/index.js";
import { sidechainTranscriptPath, toSidechainEntry } from "../../src/sessions/index.js";
import { createAgentTool, defaultTools } from "../../src/tools/index.js";

describe("subagent parts", () => {
  it("puts the sidechain under the session's folder", () => {
    expect(sidechainTranscriptPath("/h/projects/p/abc.jsonl", "00ff")).toBe(
      "/h/projects/p/abc/subagents/agent-00ff.jsonl",
    );
  });

  it("never gives a subagent the Agent or Snip tool, even when its type lists them", () => {
    const agent = createAgentTool({ types: [], run: async () => Promise.reject(new Error("unused")) });
    const parent = [...defaultTools(), agent];
    expect(subagentTools(parent, DEFAULT_SUBAGENT_TYPES[0]!).map((tool) => tool.name)).not.toContain("Agent");
    const greedy = { ...DEFAULT_SUBAGENT_TYPES[0]!, tools: ["Agent", "Snip", "Read"] };
    expect(subagentTools(parent, greedy).map((tool) => tool.name)).toEqual(["Read"]);
  });

  it("resolves the default type and refuses unknown ones", () => {
    expect(resolveSubagentType(DEFAULT_SUBAGENT_TYPES, undefined).name).toBe("general-purpose");
    expect(() => resolveSubagentType(DEFAULT_SUBAGENT_TYPES, "nope")).toThrow(/Available: general-purpose, Explore/);
  });

  it("attributes sidechain usage per agent, counting each response once", () => {
    const context = { sessionId: "s", parentUuid: null };
    const usage = { input_tokens: 100, output_tokens: 7, cache_read_input_tokens: 50 };
    const response = (agentId: string, id: string) =>
      toSidechainEntry(createAssistantEntry(context, textBlock("x"), { messageId: id, model: "m", usage }), agentId);
    const entries = [
      createUserEntry(context, "main"),
      createAssistantEntry(context, textBlock("main reply"), { messageId: "main", model: "m", usage }),
      response("a", "msg_1"),
      response("a", "msg_1"), // a second block of the same response carries the same usage
      response("a", "msg_2"),
      response("b", "msg_3"),
    ];
    expect(subagentUsage(entries)).toEqual([
      {
        agentId: "a",
        inputTokens: 200,
        outputTokens: 14,
        cacheReadInputTokens: 100,
        cacheCreationInputTokens: 0,
        requests: 2,
      },
      {
        agentId: "b",
        inputTokens: 100,
        outputTokens: 7,
        cacheReadInputTokens: 50,
        cacheCreationInputTokens: 0,
        requests: 1,
      },
    ]);
  });
});
