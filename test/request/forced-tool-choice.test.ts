/**
 * Forced tool use on the models that bind thinking (issue 55): `tool_choice` `any` or `tool` is a 400 on Opus 5.5,
 * Sonnet 5.5 and Fable 5.1 whatever the thinking setting (platform.claude.com, models/opus-5-5/whats-new-opus-5-5,
 * "Forced tool use returns an error"). The emulator refuses it; the client does not send it there. Oracle: the
 * emulator's validator over HTTP, and literal bodies.
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

const READ = {
  name: "Read",
  description: "Read a file",
  input_schema: { type: "object", properties: { file_path: { type: "string" } } },
};
const forcedBody = (model: string) => ({
  model,
  max_tokens: 1_000,
  tools: [READ],
  tool_choice: { type: "any" },
  messages: [{ role: "user", content: "Read it" }],
});

describe("forced tool_choice on binding models", () => {
  // Mutation caught: forced-tool-choice-accepted (the emulator lets Opus 5.5 take a forced choice).
  it("the emulator refuses it on Opus 5.5 and Fable 5.1 without thinking, and accepts it on Sonnet 4.6", async () => {
    emulator = await startEmulator();
    for (const model of ["claude-opus-5-5", "claude-fable-5-1"]) {
      const refused = await post(emulator, "/v1/messages", forcedBody(model));
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.json)).toContain(`${model} does not support forced tool use`);
    }
    expect((await post(emulator, "/v1/messages", forcedBody("claude-sonnet-4-6"))).status).toBe(200);
  });

  // Mutation caught: forced-tool-choice-sent (the client sends a choice the model refuses).
  it("the client sends no forced choice to a binding model; the request is accepted", async () => {
    emulator = await startEmulator();
    const settings = (model: string): RequestSettings => ({
      model,
      systemPrompt: ["sys"],
      tools: TOOLS,
      toolChoice: { type: "any" },
    });
    const opus = assembleRequest({
      messages: [user("hello")],
      settings: settings("claude-opus-5-5"),
      latches: emptyLatches(),
      pins: [],
    });
    expect("tool_choice" in opus.request.body).toBe(false);
    expect((await post(emulator, "/v1/messages", opus.request.json)).status).toBe(200);
    const sonnet = assembleRequest({
      messages: [user("hello")],
      settings: settings("claude-sonnet-4-6"),
      latches: emptyLatches(),
      pins: [],
    });
    expect(sonnet.request.body.tool_choice).toEqual({ type: "any" });
  });
});
