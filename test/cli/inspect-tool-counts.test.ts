/**
 * inspect's per-request tool counts count each tool call once (issue 58): a compaction copies the kept responses
 * after its boundary (same message id, same tool_use ids), and before, every copy was counted again (Bash×79 for
 * 41 calls on a real llama-server). Judged on a literal transcript.
 *
 * Mutation caught (scripts/mutation-check.mjs): `inspect-counts-copied-tool-uses`.
 */
import { describe, expect, it } from "vitest";
import { inspectRecords } from "../../src/cli/inspect/inspect.js";

const USAGE = { input_tokens: 100, output_tokens: 4, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

function response(uuid: string, messageId: string, uses: string[], withUsage: boolean): Record<string, unknown> {
  return {
    type: "assistant",
    uuid,
    parentUuid: null,
    sessionId: "s",
    timestamp: "2026-12-07T10:00:00.000Z",
    message: {
      id: messageId,
      role: "assistant",
      model: "claude-sonnet-4-20250514",
      content: uses.map((id) => ({ type: "tool_use", id, name: "Bash", input: { command: "seq 1 9" } })),
      stop_reason: "tool_use",
      ...(withUsage ? { usage: USAGE } : {}),
    },
  };
}

describe("inspect's tool counts", () => {
  it("a compaction's copy of a response does not count its tool calls again", async () => {
    const report = await inspectRecords([
      response("a1", "msg_1", ["toolu_1"], true),
      response("a2", "msg_2", ["toolu_2", "toolu_3"], true),
      {
        type: "system",
        subtype: "compact_boundary",
        uuid: "b1",
        parentUuid: null,
        sessionId: "s",
        timestamp: "2026-12-07T10:00:01.000Z",
        content: "Conversation cut to fit",
        compactMetadata: { trigger: "reactive", preTokens: 10, postTokens: 5 },
      },
      response("c2", "msg_2", ["toolu_2", "toolu_3"], false),
      response("a3", "msg_3", ["toolu_4"], true),
    ]);
    expect(report.requests.map((request) => request.tools)).toEqual([["Bash"], ["Bash", "Bash"], ["Bash"]]);
  });
});
