/**
 * What a request asks of thinking on the models that bind it to its prefix (docs/THINKING-BINDING.md): the block
 * binding rides on the thinking parameter with its beta; a server that refused the beta gets neither; a forced
 * tool choice the model accepts (Haiku 5.5) still turns thinking off; a caller's budget keeps its type. Oracle:
 * literal bodies and headers, and the emulator's validator over HTTP with its beta header.
 */
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { assembleRequest, emptyLatches, type RequestSettings } from "../../src/request/index.js";
import { TOOLS } from "../../support/messy-timeline.js";
import { post } from "../emulator/helpers.js";
import { user } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const assemble = (settings: Partial<RequestSettings> & { model: string }) =>
  assembleRequest({
    messages: [user("hello")],
    settings: { systemPrompt: ["sys"], tools: TOOLS, ...settings },
    latches: emptyLatches(),
    pins: [],
  }).request;
const DROP = { thinkingPrefixMismatch: "drop_block" } as const;

describe("thinking.block_binding in the request", () => {
  it("goes with adaptive thinking and its beta, and the emulator takes it", async () => {
    const request = assemble({ model: "claude-opus-5-5", ...DROP });
    expect(request.body.thinking).toEqual({
      type: "adaptive",
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    });
    expect(request.betas).toContain("thinking-binding-controls-2026-08-01");
    emulator = await startEmulator();
    const headers = { "anthropic-beta": request.betas.join(",") };
    expect((await post(emulator, "/v1/messages", request.json, headers)).status).toBe(200);
  });

  it("is left out, and thinking with it, where the server refused the beta", () => {
    const request = assemble({
      model: "claude-opus-5-5",
      ...DROP,
      omitBetas: ["thinking-binding-controls-2026-08-01"],
    });
    expect(request.body.thinking).toBeUndefined();
    expect(request.betas).not.toContain("thinking-binding-controls-2026-08-01");
  });

  it("keeps a caller's budget, and yields to a forced tool choice the model accepts", () => {
    const budget = assemble({ model: "claude-opus-5-5", ...DROP, thinking: { type: "enabled", budgetTokens: 2_048 } });
    expect(budget.body.thinking).toEqual({
      type: "enabled",
      budget_tokens: 2_048,
      block_binding: { prefix_mismatch_behavior: "drop_block" },
    });
    const forced = assemble({ model: "claude-haiku-5-5", ...DROP, toolChoice: { type: "any" } });
    expect(forced.body.tool_choice).toEqual({ type: "any" });
    expect(forced.body.thinking).toBeUndefined();
    expect(forced.betas).not.toContain("thinking-binding-controls-2026-08-01");
  });
});
