import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { cutAtMaxTokens } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULT_MAX_CONTINUATIONS } from "../../src/loop/recovery/max-tokens.js";
import { CUT_TOOL_USE_RESULT } from "../../src/loop/recovery/stop-reasons.js";
import { DEFAULT_OUTPUT_TOKENS, ESCALATED_MAX_TOKENS } from "../../src/messages/index.js";
import type { MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

const MODEL = "claude-sonnet-4-6";
const harnesses: Harness[] = [];
afterEach(async () => {
  for (const harness of harnesses.splice(0)) await harness.close();
});

/** About `tokens` tokens of file content under the characters / 4 ruler. */
function bigContent(tokens: number): string {
  const line = "export const value = 'a line of generated source, long enough to count';\n";
  return line.repeat(Math.ceil((tokens * 4) / line.length));
}

describe("output limits and stop reasons", () => {
  it("the emulator cuts an answer over max_tokens mid-JSON and keeps the step pending", () => {
    const input = { file_path: "big.ts", content: bigContent(100) };
    const reply = {
      content: [{ type: "tool_use" as const, id: "toolu_1", name: "Write", input }],
      stopReason: "tool_use" as const,
      outputTokens: 120,
      source: "scenario" as const,
      step: 0,
    };
    const cut = cutAtMaxTokens(reply, 50);
    expect(cut?.reply.stopReason).toBe("max_tokens");
    const partial = cut?.partialInputs.get(0) ?? "";
    expect(partial.length).toBeGreaterThan(0);
    expect(() => JSON.parse(partial)).toThrow();
    expect(cutAtMaxTokens(reply, 500)).toBeUndefined();
  });

  it("a Write cut by max_tokens never runs: the cap is escalated and the whole Write lands", async () => {
    const content = bigContent(DEFAULT_OUTPUT_TOKENS + 2_000);
    const harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "big.ts", content } }] },
          "Wrote it.",
        ],
      },
      { model: MODEL },
    );
    harnesses.push(harness);
    const events = await collect(harness.engine.submitMessage("Write big.ts"));
    expect(turnEnd(events).reason).toBe("completed");
    expect(await readFile(join(harness.workspace, "big.ts"), "utf8")).toBe(content);
    const results = events.filter((event) => event.type === "tool_end");
    expect(results).toHaveLength(1);
    expect(results[0]?.type === "tool_end" && results[0].isError).toBe(false);
    const sent = harness.emulator.requests
      .filter((record) => record.path === "/v1/messages")
      .map((record) => (record.body as MessagesRequest).max_tokens);
    expect(sent.slice(0, 2)).toEqual([DEFAULT_OUTPUT_TOKENS, ESCALATED_MAX_TOKENS]);
    expect(harness.emulator.requests[0]?.stopReason).toBe("max_tokens");
    // The cut attempt's tool_use is superseded, so no request ever carries a tool_use without its result.
    for (const record of harness.emulator.requests) expect(record.status).toBe(200);
  });

  it("with escalation used up, a cut tool_use is answered with an error result and never runs", async () => {
    const content = bigContent(3_000);
    const harness = await startHarness(
      {
        scenario: [
          { content: [{ type: "tool_use", name: "Write", input: { file_path: "cut.ts", content } }] },
          "I will write it in parts.",
        ],
      },
      { model: MODEL, maxTokens: 1_000 },
    );
    harnesses.push(harness);
    const events = await collect(harness.engine.submitMessage("Write cut.ts"));
    // The scripted step stays pending while it is cut, so every continuation is cut again: the turn ends at the cap.
    expect(turnEnd(events).reason).toBe("max_tokens");
    await expect(readFile(join(harness.workspace, "cut.ts"), "utf8")).rejects.toThrow();
    const results = events.filter((event) => event.type === "tool_end");
    expect(results).toHaveLength(DEFAULT_MAX_CONTINUATIONS + 1);
    for (const result of results) {
      expect(result.type === "tool_end" && result.isError).toBe(true);
      expect(JSON.stringify(result.type === "tool_end" ? result.entry.message.content : "")).toContain(
        "cut off by the output token limit",
      );
    }
    for (const record of harness.emulator.requests) expect(record.status).toBe(200);
    expect(CUT_TOOL_USE_RESULT).toContain("not run");
  });

  it("stop_reason refusal ends the turn as refused, with a notice", async () => {
    const harness = await startHarness(
      { scenario: [{ content: [{ type: "text", text: "I can't help with that." }], stop_reason: "refusal" }] },
      { model: MODEL },
    );
    harnesses.push(harness);
    const events = await collect(harness.engine.submitMessage("Something"));
    const end = turnEnd(events);
    expect(end.reason).toBe("refused");
    expect(end.error).toMatch(/refusal/);
    expect(events.some((event) => event.type === "notice" && /declined/.test(event.message))).toBe(true);
  });

  it("stop_reason model_context_window_exceeded goes through overflow recovery, not completed", async () => {
    const harness = await startHarness(
      {
        scenario: [
          "First answer.",
          { content: [{ type: "text", text: "Half an ans" }], stop_reason: "model_context_window_exceeded" },
          "The whole answer.",
        ],
      },
      { model: MODEL },
    );
    harnesses.push(harness);
    await collect(harness.engine.submitMessage("First question"));
    const events = await collect(harness.engine.submitMessage("Second question"));
    const end = turnEnd(events);
    expect(end.reason).toBe("completed");
    expect(end.lastText).toBe("The whole answer.");
    expect(events.some((event) => event.type === "loop_continue" && event.reason === "reactive_compact")).toBe(true);
  });
});
