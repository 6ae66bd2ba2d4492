/**
 * Mid-conversation tool changes: a tool that arrives late is offered in a system message at its pinned place,
 * so `tools`, `system` and every earlier message keep turn N's bytes; the emulator (the public API's contract)
 * accepts the result over HTTP only with the two betas, which the request carries.
 *
 * Mutations this catches (each applied once while writing it):
 * - appending the late tool to `tools` instead fails "turn N+1 repeats turn N's bytes";
 * - leaving INLINE_TOOLS_BETA out of the betas fails "the emulator accepts it" (400 on tool_definition).
 */

import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApiMessage } from "../../src/messages/index.js";
import { emptyLatches, paramsFromContext, type RequestSettings, withToolArrivals } from "../../src/request/index.js";

const READ = { name: "Read", description: "Reads a file.", input_schema: { type: "object", properties: {} } };
const LATE = { name: "mcp__docs__search", description: "Searches the docs.", input_schema: { type: "object" } };

const settings = (extra: Partial<RequestSettings> = {}): RequestSettings => ({
  model: "claude-opus-5-5",
  systemPrompt: ["You are a coding agent."],
  tools: [READ],
  ...extra,
});

const turnN: ApiMessage[] = [
  { role: "user", content: [{ type: "text", text: "Find the build command." }] },
  { role: "assistant", content: [{ type: "text", text: "It is npm test." }] },
  { role: "user", content: [{ type: "text", text: "And the docs?" }] },
];
const turnN1: ApiMessage[] = [
  ...turnN,
  { role: "assistant", content: [{ type: "text", text: "Let me search them." }] },
  { role: "user", content: [{ type: "text", text: "Go ahead." }] },
];

const assemble = (messages: ApiMessage[], extra: Partial<RequestSettings> = {}) =>
  paramsFromContext({
    settings: settings(extra),
    system: [{ type: "text", text: "You are a coding agent." }],
    messages,
    latches: emptyLatches(),
  }).request;

describe("a late tool in a system message", () => {
  // The tool arrived after turn N's response (message 3): before the message that follows it (index 4).
  const arrivals = [{ beforeMessage: 4, tools: [LATE] }];

  it("turn N+1 repeats turn N's bytes up to N's last message, and tools are unchanged", () => {
    const before = assemble(turnN);
    const after = assemble(turnN1, { toolArrivals: arrivals });
    // Oracle: turn N's own JSON, cut before its last message (which carries no marker here, so it is equal too).
    const cut = before.json.indexOf(JSON.stringify(turnN[2]));
    expect(cut).toBeGreaterThan(0);
    expect(after.json.slice(0, cut)).toBe(before.json.slice(0, cut));
    expect(after.body.tools).toEqual(before.body.tools);
    expect(after.body.messages[4]).toEqual({
      role: "system",
      content: [{ type: "tool_addition", tool: { type: "tool_definition", definition: LATE } }],
    });
    expect(after.betas).toEqual(
      expect.arrayContaining(["mid-conversation-tool-changes-2026-07-01", "inline-tools-2026-09-15"]),
    );
  });

  it("every later request puts it at the same index (pinned)", () => {
    const later = [
      ...turnN1,
      { role: "assistant" as const, content: "Done." },
      { role: "user" as const, content: "Thanks." },
    ];
    const placed = withToolArrivals(later, arrivals);
    expect(placed.map((message) => message.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "system",
      "user",
      "assistant",
      "user",
    ]);
  });

  it("sends nothing of the kind without an arrival (byte-identical to before)", () => {
    expect(assemble(turnN1, { toolArrivals: [] }).json).toBe(assemble(turnN1).json);
  });

  describe("over HTTP", () => {
    let emulator: Emulator;
    beforeAll(async () => {
      emulator = await startEmulator();
    });
    afterAll(() => emulator.close());

    const post = (json: string, betas: readonly string[]) =>
      fetch(`${emulator.url}/v1/messages`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-api-key": "test-key-not-secret",
          "anthropic-version": "2023-06-01",
          ...(betas.length > 0 ? { "anthropic-beta": betas.join(",") } : {}),
        },
        body: json,
      });

    it("the emulator accepts it with the request's betas, and refuses it without them", async () => {
      const request = assemble(turnN1, { toolArrivals: arrivals });
      const accepted = await post(request.json, request.betas);
      expect(accepted.status, await accepted.text()).toBe(200);
      const refused = await post(request.json, []);
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("messages.4.content.0.type");
    });
  });
});
