import { describe, expect, it } from "vitest";
import {
  type AgentRunRequest,
  type AgentRunResult,
  createAgentTool,
  EMPTY_AGENT_RESULT,
  isAgentToolDisplay,
  runTool,
} from "../../src/tools/index.js";
import { BYPASS, makeContext } from "./tool-test-context.js";

function result(overrides: Partial<AgentRunResult>): AgentRunResult {
  return {
    agentId: "0123456789abcdef",
    transcriptPath: "/tmp/s/subagents/agent-0123456789abcdef.jsonl",
    subagentType: "general-purpose",
    status: "completed",
    text: "final words",
    usage: { inputTokens: 10, outputTokens: 5, cacheReadInputTokens: 0, cacheCreationInputTokens: 0, requests: 1 },
    toolUseCount: 2,
    ...overrides,
  };
}

describe("Agent tool", () => {
  const types = [
    { name: "general-purpose", description: "Everything." },
    { name: "Explore", description: "Read-only." },
  ];

  it("passes the request through and records the link to the sidechain", async () => {
    const seen: AgentRunRequest[] = [];
    const tool = createAgentTool({
      types,
      run: async (request) => {
        seen.push(request);
        return result({});
      },
    });
    const output = await runTool(
      tool,
      { description: "Find the bug", prompt: "look", subagent_type: "Explore" },
      makeContext("/tmp", { toolUseId: "toolu_parent" }),
      BYPASS,
    );
    expect(output).toMatchObject({ content: "final words" });
    expect(output.isError).toBeUndefined();
    expect(seen[0]).toMatchObject({ description: "Find the bug", prompt: "look", subagentType: "Explore" });
    expect(seen[0]?.toolUseId).toBe("toolu_parent");
    expect(isAgentToolDisplay(output.display)).toBe(true);
    expect(output.display).toMatchObject({ agentId: "0123456789abcdef", status: "completed", toolUseCount: 2 });
    expect(tool.description).toContain("- Explore: Read-only.");
    expect(tool.compactable).toBe(false);
    expect(tool.isReadOnly({ description: "a", prompt: "b" })).toBe(true);
  });

  it("turns an unfinished run into an error result that keeps the partial text", async () => {
    const tool = createAgentTool({
      types,
      run: async () => result({ status: "max_turns", error: "Reached the limit", text: "halfway" }),
    });
    const output = await runTool(tool, { description: "d", prompt: "p" }, makeContext("/tmp"), BYPASS);
    expect(output.isError).toBe(true);
    expect(output.content).toBe("Subagent did not finish: Reached the limit.\nIts last message:\nhalfway");
  });

  it("says so when a subagent ends without text", async () => {
    const tool = createAgentTool({ types, run: async () => result({ text: "  " }) });
    const output = await runTool(tool, { description: "d", prompt: "p" }, makeContext("/tmp"), BYPASS);
    expect(output.content).toBe(EMPTY_AGENT_RESULT);
  });

  it("rejects input without a prompt", async () => {
    const tool = createAgentTool({ types, run: async () => result({}) });
    const output = await runTool(tool, { description: "d" }, makeContext("/tmp"), BYPASS);
    expect(output.isError).toBe(true);
  });
});
