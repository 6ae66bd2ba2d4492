/**
 * The translation guards of the OpenAI-compatible provider, each against a literal: the stop-reason map, the usage
 * mapping (cached tokens are cache reads, not input), the request shapes (typed by the `openai` package), and the
 * overflow wordings of llama.cpp, vLLM and Ollama replayed by a loopback server as those servers send them.
 */
import { createServer, type Server } from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import {
  ChatStreamTranslator,
  chatCompletionsRequest,
  messagesUsage,
  OpenAICompatibleProvider,
  stopReasonOf,
} from "../../src/provider/index.js";
import { collect } from "../../support/collect.js";

describe("stop reasons", () => {
  it("maps finish_reason as the Messages API names it", () => {
    expect(stopReasonOf("stop", 0)).toBe("end_turn");
    expect(stopReasonOf("length", 0)).toBe("max_tokens");
    expect(stopReasonOf("tool_calls", 1)).toBe("tool_use");
    expect(stopReasonOf("content_filter", 0)).toBe("refusal");
    // Ollama answers "stop" with tool calls; a reply cut at its limit stays max_tokens, so a cut call never runs.
    expect(stopReasonOf("stop", 1)).toBe("tool_use");
    expect(stopReasonOf("stop", 2)).toBe("tool_use");
    expect(stopReasonOf("length", 1)).toBe("max_tokens");
    expect(stopReasonOf("eos", 0)).toBe("end_turn");
  });
});

describe("usage", () => {
  it("takes cached tokens out of the input and counts them as cache reads", () => {
    expect(
      messagesUsage({
        prompt_tokens: 1200,
        completion_tokens: 30,
        total_tokens: 1230,
        prompt_tokens_details: { cached_tokens: 1000 },
      }),
    ).toEqual({ input_tokens: 200, output_tokens: 30, cache_read_input_tokens: 1000, cache_creation_input_tokens: 0 });
    expect(messagesUsage({ prompt_tokens: 77, completion_tokens: 5, total_tokens: 82 })).toEqual({
      input_tokens: 77,
      output_tokens: 5,
      cache_read_input_tokens: 0,
      cache_creation_input_tokens: 0,
    });
  });

  it("streams the usage chunk that comes after the finish reason into message_delta", () => {
    const translator = new ChatStreamTranslator();
    const base = { id: "c1", object: "chat.completion.chunk" as const, created: 1, model: "m" };
    translator.push({ ...base, choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: null }] });
    translator.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    translator.push({
      ...base,
      choices: [],
      usage: {
        prompt_tokens: 50,
        completion_tokens: 2,
        total_tokens: 52,
        prompt_tokens_details: { cached_tokens: 40 },
      },
    });
    expect(translator.end()).toEqual([
      {
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null },
        usage: { input_tokens: 10, output_tokens: 2, cache_read_input_tokens: 40, cache_creation_input_tokens: 0 },
      },
      { type: "message_stop" },
    ]);
  });

  it("ends a stream without a finish reason without message_stop (a cut stream)", () => {
    const translator = new ChatStreamTranslator();
    translator.push({
      id: "c2",
      object: "chat.completion.chunk",
      created: 1,
      model: "m",
      choices: [{ index: 0, delta: { content: "Hal" }, finish_reason: null }],
    });
    expect(translator.end()).toEqual([]);
  });
});

describe("the request", () => {
  it("puts tool results right after the calls, then the user's text; tools as functions", () => {
    const request = chatCompletionsRequest({
      model: "local",
      max_tokens: 512,
      system: [
        { type: "text", text: "Be brief." },
        { type: "text", text: "Use tools." },
      ],
      messages: [
        { role: "user", content: "List files." },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Looking." },
            { type: "tool_use", id: "call_1", name: "Bash", input: { command: "ls" } },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "call_1", content: "a.txt", is_error: false },
            { type: "text", text: "And now?" },
          ],
        },
      ],
      tools: [{ name: "Bash", description: "Run a command.", input_schema: { type: "object", properties: {} } }],
      tool_choice: { type: "any" },
    });
    expect(request).toEqual({
      model: "local",
      messages: [
        { role: "system", content: "Be brief.\n\nUse tools." },
        { role: "user", content: "List files." },
        {
          role: "assistant",
          content: "Looking.",
          tool_calls: [{ id: "call_1", type: "function", function: { name: "Bash", arguments: '{"command":"ls"}' } }],
        },
        { role: "tool", tool_call_id: "call_1", content: "a.txt" },
        { role: "user", content: "And now?" },
      ],
      max_tokens: 512,
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: "function",
          function: { name: "Bash", description: "Run a command.", parameters: { type: "object", properties: {} } },
        },
      ],
      tool_choice: "required",
    });
  });
});

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A loopback server that answers every request with `status` and `body`, as the named server sends them. */
async function replay(status: number, body: unknown): Promise<string> {
  server = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v1`;
}

async function failureFrom(baseURL: string) {
  const provider = new OpenAICompatibleProvider({ baseURL, env: {}, sleep: async () => {}, maxRetries: 0 });
  const request = {
    body: { model: "m", max_tokens: 16, messages: [{ role: "user" as const, content: "hi" }] },
    betas: [],
    json: "",
  };
  return collect(provider.stream(request)).then(
    () => undefined,
    (error: unknown) => error as { kind: string; options: { actualTokens?: number; maxTokens?: number } },
  );
}

describe("context overflows, in each server's words", () => {
  it("llama.cpp: exceed_context_size_error with n_prompt_tokens and n_ctx", async () => {
    const url = await replay(400, {
      error: {
        code: 400,
        message: "the request exceeds the available context size, try increasing it",
        type: "exceed_context_size_error",
        n_prompt_tokens: 17000,
        n_ctx: 16384,
      },
    });
    expect(await failureFrom(url)).toMatchObject({
      kind: "prompt_too_long",
      options: { actualTokens: 17000, maxTokens: 16384 },
    });
  });

  it("vLLM, its older top-level envelope included", async () => {
    const url = await replay(400, {
      object: "error",
      message:
        "This model's maximum context length is 32768 tokens. However, you requested 40000 tokens (39000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
      type: "BadRequestError",
      param: null,
      code: 400,
    });
    expect(await failureFrom(url)).toMatchObject({
      kind: "prompt_too_long",
      options: { actualTokens: 40000, maxTokens: 32768 },
    });
  });

  it("Ollama", async () => {
    const url = await replay(500, { error: { message: "input length exceeds maximum context length" } });
    expect(await failureFrom(url)).toMatchObject({ kind: "prompt_too_long" });
  });

  it("another 400 is not an overflow", async () => {
    const url = await replay(400, {
      error: { message: "tools are not supported by this model", type: "invalid_request_error" },
    });
    expect(await failureFrom(url)).toMatchObject({ kind: "invalid_request" });
  });
});
