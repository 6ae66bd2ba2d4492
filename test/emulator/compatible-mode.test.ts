/**
 * The emulator's compatible mode, judged from outside: what a llama-server-like endpoint accepts, reports and
 * answers, through the official SDK and plain HTTP.
 */
import Anthropic, { APIError } from "@anthropic-ai/sdk";
import { type Emulator, EXCEED_CONTEXT_SIZE_ERROR, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { classifyError } from "../../src/provider/index.js";
import { body, MODEL, post, READ_TOOL, textOfTokens } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function client(url: string): Anthropic {
  return new Anthropic({ baseURL: url, apiKey: "test", maxRetries: 0, logLevel: "off" });
}

/** A second-turn request carrying everything the public API would refuse without cache editing. */
function extendedRequest(): Record<string, unknown> {
  return body({
    system: [{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }],
    tools: [{ ...READ_TOOL, cache_control: { type: "ephemeral" } }],
    context_management: { edits: [{ type: "clear_tool_uses_20250919" }] },
    some_future_field: { on: true },
    messages: [
      { role: "user", content: "Read a.ts" },
      { role: "assistant", content: [{ type: "tool_use", id: "call_1", name: "Read", input: { file_path: "a.ts" } }] },
      {
        role: "user",
        content: [
          { type: "tool_result", tool_use_id: "call_1", content: "x", cache_reference: "call_1" },
          { type: "cache_edits", edits: [{ type: "delete", cache_reference: "call_1" }] },
          { type: "text", text: "go on", cache_control: { type: "ephemeral" } },
        ],
      },
    ],
  });
}

describe("emulator compatible mode (llama-server-like)", () => {
  it("public mode refuses what compatible mode ignores", async () => {
    emulator = await startEmulator({ cacheEditing: false });
    const refused = await post(emulator, "/v1/messages", extendedRequest());
    expect(refused.status).toBe(400);
    await emulator.close();
    emulator = await startEmulator({ mode: "compatible", scenario: ["fine"] });
    const accepted = await post(emulator, "/v1/messages", extendedRequest());
    expect(accepted.status).toBe(200);
    expect(emulator.requests[0]?.violations).toEqual([]);
  });

  it("names tool calls without the toolu_ prefix", async () => {
    emulator = await startEmulator({
      mode: "compatible",
      scenario: [{ content: [{ type: "tool_use", name: "Read", input: { file_path: "a.ts" } }] }],
    });
    const message = await client(emulator.url).messages.create({
      model: MODEL,
      max_tokens: 100,
      tools: [{ ...READ_TOOL, input_schema: { type: "object" as const } }],
      messages: [{ role: "user", content: "read" }],
    });
    const tool = message.content.find((block) => block.type === "tool_use");
    expect(tool?.type === "tool_use" && tool.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(tool?.type === "tool_use" && tool.id.startsWith("toolu_")).toBe(false);
  });

  it("reports its own prefix-cache counts and never a cache write", async () => {
    emulator = await startEmulator({ mode: "compatible", scenario: ["one", "two"] });
    const sdk = client(emulator.url);
    const long = textOfTokens(3000);
    const first = await sdk.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: long }],
    });
    expect(first.usage.cache_read_input_tokens).toBe(0);
    expect(first.usage.input_tokens).toBeGreaterThan(2900);
    const second = await sdk.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: "user", content: long },
        { role: "assistant", content: "one" },
        { role: "user", content: "more" },
      ],
    });
    expect(second.usage.cache_read_input_tokens).toBeGreaterThan(2900);
    expect(second.usage.cache_creation_input_tokens ?? 0).toBe(0);
    expect(second.usage.input_tokens).toBeLessThan(100);
  });

  it("can report zero usage while streaming (claude-code-router) and counts otherwise", async () => {
    emulator = await startEmulator({
      mode: "compatible",
      compatibleUsage: "zero-while-streaming",
      scenario: ["a", "b"],
    });
    const sdk = client(emulator.url);
    const request = {
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user" as const, content: textOfTokens(500) }],
    };
    const streamed = await sdk.messages.stream(request).finalMessage();
    expect(streamed.usage.input_tokens).toBe(0);
    expect(streamed.usage.output_tokens).toBe(0);
    const plain = await sdk.messages.create(request);
    // Counted: the whole prompt, read from the slot's cache since the streamed request held the same prefix.
    expect(plain.usage.input_tokens + (plain.usage.cache_read_input_tokens ?? 0)).toBeGreaterThan(400);
  });

  it("answers an overflow as llama-server does, and threadline reads it as prompt too long with the numbers", async () => {
    emulator = await startEmulator({ mode: "compatible", contextWindow: 1000 });
    const raw = await post(
      emulator,
      "/v1/messages",
      body({ messages: [{ role: "user", content: textOfTokens(1500) }] }),
    );
    expect(raw.status).toBe(400);
    const error = raw.json.error as Record<string, unknown>;
    expect(error.type).toBe(EXCEED_CONTEXT_SIZE_ERROR);
    expect(error.code).toBe(400);
    expect(error.n_ctx).toBe(1000);
    expect(error.n_prompt_tokens).toBeGreaterThanOrEqual(1500);
    expect(String(error.message)).toMatch(/^request \(\d+ tokens\) exceeds the available context size \(1000 tokens\)/);

    const thrown = await client(emulator.url)
      .messages.create({ model: MODEL, max_tokens: 100, messages: [{ role: "user", content: textOfTokens(1500) }] })
      .catch((failure: unknown) => failure);
    expect(thrown).toBeInstanceOf(APIError);
    const classified = classifyError(thrown);
    expect(classified.kind).toBe("prompt_too_long");
    expect(classified.options.maxTokens).toBe(1000);
    expect(classified.options.actualTokens).toBe(error.n_prompt_tokens);
  });

  it("other errors come in the same OpenAI-style envelope", async () => {
    emulator = await startEmulator({ mode: "compatible" });
    const raw = await post(emulator, "/v1/messages", body({ messages: [{ role: "assistant", content: "hi" }] }));
    expect(raw.status).toBe(400);
    expect(raw.json.type).toBeUndefined();
    expect((raw.json.error as Record<string, unknown>).code).toBe(400);
  });
});
