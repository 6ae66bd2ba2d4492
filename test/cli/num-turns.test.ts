/**
 * `num_turns` in print mode's JSON result counts what Claude Code counts: the model's answers in this turn (one
 * per assistant response), not the loop's iterations — a recovery from a refused request goes round the loop
 * without an answer (issue 58: 80 iterations, 42 answered requests at 32K).
 */
import { describe, expect, it } from "vitest";
import { resultObject } from "../../src/cli/modes/print/json-output.js";
import { emptyUsage } from "../../src/messages/index.js";

describe("num_turns", () => {
  it("is the answered model requests, whatever the iterations", () => {
    const result = resultObject(
      {
        type: "turn_end",
        reason: "max_turns",
        usage: emptyUsage(),
        iterations: 5,
        answeredRequests: 4,
        lastText: "",
        error: "Reached the limit of 4 model requests for this turn.",
      },
      {
        sessionId: "s",
        durationMs: 1,
        apiDurationMs: 1,
        totals: emptyUsage(),
        transcriptPath: undefined,
        model: "local",
        contextWindow: 16_384,
        maxOutputTokens: 4_096,
        stopReason: "tool_use",
        permissionDenials: [],
      },
    );
    expect(result.num_turns).toBe(4);
    expect(result.subtype).toBe("error_max_turns");
  });
});
