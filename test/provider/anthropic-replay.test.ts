/**
 * AnthropicProvider against recorded SSE sequences served over real HTTP on loopback.
 */
import { afterEach, describe, expect, it } from "vitest";
import { AnthropicProvider, type AnthropicProviderOptions, ProviderError } from "../../src/provider/index.js";
import { collect } from "../../support/collect.js";
import {
  chainedContext,
  collectUntilError,
  makeRequest,
  ofType,
  recorded,
  recordingSleep,
  TEST_API_KEY,
} from "./helpers/harness.js";
import { type ReplayResponse, type ReplayServer, startReplayServer } from "./helpers/replay-server.js";
import {
  errorBody,
  errorEvent,
  messageEnd,
  messageStart,
  type SseEvent,
  splitBytes,
  sseText,
  textBlock,
  threeBlockResponse,
  toolUseBlock,
} from "./helpers/sse-fixtures.js";

let server: ReplayServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setup(script: ReplayResponse[], options: Partial<AnthropicProviderOptions> = {}) {
  server = await startReplayServer(script);
  const recorder = recordingSleep();
  const provider = new AnthropicProvider({
    apiKey: TEST_API_KEY,
    baseURL: server.url,
    sleep: recorder.sleep,
    random: () => 0.5,
    env: {},
    ...options,
  });
  return { provider, delays: recorder.delays, server };
}

const ok = (events: SseEvent[], chunkBytes = 7): ReplayResponse => ({
  chunks: splitBytes(sseText(events), chunkBytes),
});

describe("AnthropicProvider streaming (replayed SSE)", () => {
  it("makes one entry per block, all sharing message.id, usage and stop_reason on the last", async () => {
    const { provider, server } = await setup([ok(threeBlockResponse("msg_A"))]);
    const context = chainedContext();
    const events = await collect(recorded(provider.stream(makeRequest()), context.next));

    const entries = ofType(events, "assistant_entry").map((event) => event.entry);
    expect(entries).toHaveLength(3);
    expect(new Set(entries.map((entry) => entry.message.id))).toEqual(new Set(["msg_A"]));
    expect(entries.map((entry) => entry.message.content[0].type)).toEqual(["thinking", "text", "tool_use"]);
    expect(entries[0]?.message.content[0]).toEqual({
      type: "thinking",
      thinking: "Let me think… 🤔",
      signature: "sig_abc123",
    });
    expect(entries[1]?.message.content[0]).toEqual({ type: "text", text: "Grüße, 世界 🌍!" });
    expect(entries[2]?.message.content[0]).toEqual({
      type: "tool_use",
      id: "toolu_01",
      name: "Read",
      input: { file_path: "/tmp/ä.txt", limit: 5 },
    });
    for (const entry of entries.slice(0, 2)) {
      expect(entry.message.usage).toBeUndefined();
      expect(entry.message.stop_reason).toBeNull();
    }
    expect(entries[2]?.message.stop_reason).toBe("tool_use");
    expect(entries[2]?.message.usage).toEqual({
      input_tokens: 100,
      output_tokens: 42,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 50,
    });
    expect(entries[2]?.requestId).toBe("req_replay");
    // Entries chain through the context the loop hands out, one context per entry.
    expect(context.handed).toBe(3);
    expect(entries[1]?.parentUuid).toBe(entries[0]?.uuid);

    const end = ofType(events, "message_end");
    expect(end).toEqual([
      {
        type: "message_end",
        messageId: "msg_A",
        model: "claude-test-1",
        stopReason: "tool_use",
        stopSequence: null,
        usage: entries[2]?.message.usage,
        requestId: "req_replay",
      },
    ]);
    expect(server.requests).toHaveLength(1);
  });

  it("emits block_end at each block stop, before that block's entry", async () => {
    const { provider } = await setup([ok(threeBlockResponse())]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const order = events
      .filter((event) => event.type === "block_end" || event.type === "assistant_entry")
      .map((event) =>
        event.type === "block_end" ? `complete:${event.index}` : `entry:${event.entry.message.content[0].type}`,
      );
    // Block k's entry is made when block k+1 starts; the last one at message_delta.
    expect(order).toEqual(["complete:0", "entry:thinking", "complete:1", "entry:text", "complete:2", "entry:tool_use"]);
    // The tool_use block is complete (input parsed) before message_delta arrives.
    const raw = events.map((event) => (event.type === "sse_passthrough" ? event.event.type : event.type));
    expect(raw.indexOf("block_end", raw.lastIndexOf("content_block_stop") - 1)).toBeLessThan(
      raw.indexOf("message_delta"),
    );
  });

  it("survives every chunk size, including 1 byte (events and UTF-8 characters split)", async () => {
    for (const size of [1, 2, 3, 5, 13, 64]) {
      const { provider } = await setup([ok(threeBlockResponse(), size)]);
      const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
      const texts = ofType(events, "assistant_entry").map((event) => event.entry.message.content[0]);
      expect(texts[1]).toEqual({ type: "text", text: "Grüße, 世界 🌍!" });
      await server?.close();
      server = undefined;
    }
  });

  it("passes raw events through as they arrive and tolerates ping and unknown events", async () => {
    const events: SseEvent[] = [
      messageStart("msg_U"),
      { type: "ping" },
      { type: "future_event", payload: { anything: true } },
      ...textBlock(0, ["hi"]),
      { type: "content_block_delta", index: 0, delta: { type: "future_delta" } },
      ...messageEnd("end_turn", 3),
    ];
    // An unknown delta for a block that is no longer open is still an order error; this one is harmless:
    events.splice(events.length - 3, 1);
    const { provider } = await setup([ok(events)]);
    const out = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const rawTypes = ofType(out, "sse_passthrough").map((event) => event.event.type);
    expect(rawTypes).toContain("future_event");
    expect(rawTypes).toContain("content_block_delta");
    expect(ofType(out, "assistant_entry")).toHaveLength(1);
  });

  it("sends the body bytes as given plus stream:true, the key, and anthropic-beta only when there are betas", async () => {
    // A server declared to take betas (the replay server stands in for the first-party API here).
    const { provider, server } = await setup([ok(threeBlockResponse()), ok(threeBlockResponse())], {
      profile: "anthropic",
    });
    const withBetas = makeRequest("claude-test-1", [
      "context-management-2025-06-27",
      "interleaved-thinking-2025-05-14",
    ]);
    await collect(recorded(provider.stream(withBetas), chainedContext().next));
    await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const [first, second] = server.requests;
    expect(first?.url).toBe("/v1/messages");
    expect(first?.body).toBe(`${withBetas.json.slice(0, -1)},"stream":true}`);
    expect(first?.headers["anthropic-beta"]).toBe("context-management-2025-06-27,interleaved-thinking-2025-05-14");
    expect(first?.headers.authorization ?? first?.headers["x-api-key"]).toContain(TEST_API_KEY);
    expect(first?.headers["anthropic-version"]).toBeTruthy();
    expect(second?.headers["anthropic-beta"]).toBeUndefined();
  });

  it("reads the base URL and key from the environment", async () => {
    server = await startReplayServer([ok(threeBlockResponse())]);
    const provider = new AnthropicProvider({
      env: { ANTHROPIC_BASE_URL: server.url, ANTHROPIC_AUTH_TOKEN: "tok-123" },
    });
    await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(server.requests[0]?.headers.authorization).toBe("Bearer tok-123");
    // A loopback base URL is just another server: the core API only, until it announces more.
    expect(provider.capabilities).toEqual({
      cacheEdits: false,
      contextManagement: false,
      betas: false,
      cacheTtls: [],
    });
  });

  it("sends no anthropic-beta to a compatible server, whatever the request wanted", async () => {
    const { provider, server } = await setup([ok(threeBlockResponse())]);
    expect(provider.profile).toBe("anthropic-compatible");
    await collect(
      recorded(
        provider.stream(makeRequest("claude-test-1", ["interleaved-thinking-2025-05-14"])),
        chainedContext().next,
      ),
    );
    expect(server.requests[0]?.headers["anthropic-beta"]).toBeUndefined();
  });

  it("fails clearly without credentials for Anthropic's own endpoint", async () => {
    // Another server would be sent a placeholder key (see unreachable.test.ts); api.anthropic.com is never dialled.
    const provider = new AnthropicProvider({ env: {}, baseURL: "https://api.anthropic.com" });
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("auth");
  });
});

describe("AnthropicProvider retries (replayed SSE)", () => {
  it("retries a 429 after the retry-after the server asked for", async () => {
    const { provider, delays, server } = await setup([
      { status: 429, headers: { "retry-after": "7" }, json: errorBody("rate_limit_error", "Rate limited") },
      ok(threeBlockResponse()),
    ]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(delays).toEqual([7000]);
    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error.kind).toBe("rate_limited");
    expect(retries[0]?.attempt).toBe(1);
    expect(retries[0]?.supersededUuids).toEqual([]);
    expect(ofType(events, "assistant_entry")).toHaveLength(3);
    expect(server.requests).toHaveLength(2);
  });

  it("prefers retry-after-ms, and uses exponential backoff with jitter when there is none", async () => {
    const { provider, delays } = await setup([
      { status: 500, json: errorBody("api_error", "boom") },
      { status: 503, json: errorBody("api_error", "boom") },
      {
        status: 429,
        headers: { "retry-after-ms": "1234", "retry-after": "60" },
        json: errorBody("rate_limit_error", "x"),
      },
      { status: 504, json: errorBody("timeout_error", "slow") },
      ok(threeBlockResponse()),
    ]);
    await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    // random() = 0.5 → jitter 12.5 % of the base.
    expect(delays).toEqual([563, 1125, 1234, 4500]);
  });

  it("honours x-should-retry: false", async () => {
    const { provider, server } = await setup([
      { status: 500, headers: { "x-should-retry": "false" }, json: errorBody("api_error", "do not retry") },
    ]);
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect((error as ProviderError).kind).toBe("server");
    expect(server.requests).toHaveLength(1);
  });

  it("gives up after maxRetries and says so", async () => {
    const failures = Array.from({ length: 5 }, () => ({ status: 500, json: errorBody("api_error", "down") }));
    const { provider, delays, server } = await setup(failures, { maxRetries: 3 });
    const { events, error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(server.requests).toHaveLength(4);
    expect(delays).toHaveLength(3);
    expect(ofType(events, "retry").map((event) => event.attempt)).toEqual([1, 2, 3]);
    expect((error as ProviderError).message).toContain("gave up after 3 retries");
  });

  it("does not retry a 400, and classifies it", async () => {
    const { provider, server } = await setup([
      { status: 400, json: errorBody("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum") },
    ]);
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect(error).toBeInstanceOf(ProviderError);
    const failure = error as ProviderError;
    expect(failure.kind).toBe("prompt_too_long");
    expect(failure.options.actualTokens).toBe(210000);
    expect(failure.options.maxTokens).toBe(200000);
    expect(failure.options.requestId).toBe("req_replay");
    expect(server.requests).toHaveLength(1);
  });

  it("switches to the fallback model after three consecutive 529s", async () => {
    const overloaded = { status: 529, json: errorBody("overloaded_error", "Overloaded") };
    const { provider, server, delays } = await setup([overloaded, overloaded, overloaded, ok(threeBlockResponse())], {
      fallbackModel: "claude-fallback-1",
    });
    const fallbackRequest = makeRequest("claude-fallback-1");
    const events = await collect(
      recorded(provider.stream(makeRequest("claude-main-1"), { fallbackRequest }), chainedContext().next),
    );
    expect(ofType(events, "fallback")).toEqual([{ type: "fallback", from: "claude-main-1", to: "claude-fallback-1" }]);
    expect(JSON.parse(server.requests.at(-1)?.body ?? "")).toEqual({ ...fallbackRequest.body, stream: true });
    expect(delays).toHaveLength(2);
    const models = server.requests.map((request) => (JSON.parse(request.body) as { model: string }).model);
    expect(models).toEqual(["claude-main-1", "claude-main-1", "claude-main-1", "claude-fallback-1"]);
    expect(ofType(events, "assistant_entry")).toHaveLength(3);
  });

  it("without a fallback model, three consecutive 529s are a clear error", async () => {
    const overloaded = { status: 529, json: errorBody("overloaded_error", "Overloaded") };
    const { provider, server } = await setup([overloaded, overloaded, overloaded, ok(threeBlockResponse())]);
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect((error as ProviderError).kind).toBe("overloaded");
    expect((error as ProviderError).message).toContain("no fallback model is configured");
    expect(server.requests).toHaveLength(3);
  });

  it("retries an error event that arrives after HTTP 200, superseding the entries already emitted", async () => {
    const partial = [
      messageStart("msg_first"),
      ...textBlock(0, ["first block"]),
      ...textBlock(1, ["second block"]),
      errorEvent("overloaded_error", "Overloaded"),
    ];
    const { provider } = await setup([ok(partial), ok(threeBlockResponse("msg_second"))]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(retries[0]?.error.kind).toBe("overloaded");
    const entries = ofType(events, "assistant_entry").map((event) => event.entry);
    // The text entry of the first attempt was emitted (block 1 started), then superseded.
    expect(retries[0]?.supersededUuids).toEqual([entries[0]?.uuid]);
    expect(entries[0]?.message.id).toBe("msg_first");
    expect(entries.slice(1).map((entry) => entry.message.id)).toEqual(["msg_second", "msg_second", "msg_second"]);
  });

  it("does not retry a failure after a complete tool_use block: the tool may be running (docs/EXACTLY-ONCE.md)", async () => {
    const partial = [
      messageStart("msg_first"),
      ...textBlock(0, ["first block"]),
      ...toolUseBlock(1, "toolu_x", "Read", ['{"file_path":"/a"}']),
      errorEvent("overloaded_error", "Overloaded"),
    ];
    const { provider, server } = await setup([ok(partial), ok(threeBlockResponse("msg_second"))]);
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    expect((error as ProviderError).options.cutAfterTools).toBe(1);
    expect((error as ProviderError).message).toContain("cut after 1 complete tool call; not retried");
    expect(server.requests).toHaveLength(1);
  });

  it("retries a connection cut mid-stream without duplicating recorded blocks", async () => {
    const partial = [messageStart("msg_cut"), ...textBlock(0, ["before the cut"]), ...textBlock(1, ["half"])];
    const { provider, server } = await setup([{ ...ok(partial), cut: true }, ok(threeBlockResponse("msg_ok"))]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const retry = ofType(events, "retry")[0];
    expect(retry?.error.retryable).toBe(true);
    const entries = ofType(events, "assistant_entry").map((event) => event.entry);
    const superseded = new Set(retry?.supersededUuids);
    expect(superseded.size).toBe(1);
    const surviving = entries.filter((entry) => !superseded.has(entry.uuid));
    expect(surviving.map((entry) => entry.message.id)).toEqual(["msg_ok", "msg_ok", "msg_ok"]);
    expect(server.requests).toHaveLength(2);
  });

  it("treats a stream that ends without message_stop as a retryable stream error", async () => {
    const truncated = [messageStart("msg_t"), ...textBlock(0, ["a"]), messageEnd("end_turn", 1)[0] as SseEvent];
    const { provider } = await setup([ok(truncated), ok(threeBlockResponse())]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const retry = ofType(events, "retry")[0];
    expect(retry?.error.kind).toBe("stream_error");
    expect(retry?.supersededUuids).toHaveLength(1);
  });

  it("treats wrong event order as a retryable stream error", async () => {
    const wrong = [
      messageStart("msg_w"),
      { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "never started" } },
    ];
    const { provider } = await setup([ok(wrong), ok(threeBlockResponse())]);
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const retry = ofType(events, "retry")[0];
    expect(retry?.error.kind).toBe("stream_error");
    expect(retry?.error.message).toContain("not open");
  });

  it("keeps a tool_use with invalid input JSON as {} and warns", async () => {
    const events = [
      messageStart("msg_j"),
      ...toolUseBlock(0, "toolu_bad", "Bash", ['{"command": "ls', " -la"]),
      ...messageEnd("tool_use", 5),
    ];
    const { provider } = await setup([ok(events)]);
    const out = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const entry = ofType(out, "assistant_entry")[0]?.entry;
    expect(entry?.message.content[0]).toEqual({ type: "tool_use", id: "toolu_bad", name: "Bash", input: {} });
    const warnings = ofType(out, "stream_warning");
    expect(warnings).toHaveLength(1);
    expect(String(warnings[0]?.message)).toContain("invalid input JSON");
  });

  it("abandons a stalled stream after the idle timeout and retries it", async () => {
    const stalled = { ...ok([messageStart("msg_s"), ...textBlock(0, ["..."])]), stall: true };
    const { provider } = await setup([stalled, ok(threeBlockResponse())], { idleTimeoutMs: 1_000 });
    const events = await collect(recorded(provider.stream(makeRequest()), chainedContext().next));
    const retry = ofType(events, "retry")[0];
    expect(retry?.error.kind).toBe("stream_error");
    expect(retry?.error.message).toContain("no response data");
    expect(ofType(events, "message_end")).toHaveLength(1);
  });

  it("throws aborted promptly on abort, without retrying", async () => {
    const stalled = { ...ok([messageStart("msg_s"), ...textBlock(0, ["..."])]), stall: true };
    const { provider, server } = await setup([stalled, ok(threeBlockResponse())]);
    const controller = new AbortController();
    const iterator = recorded(provider.stream(makeRequest(), { signal: controller.signal }), chainedContext().next);
    const seen: string[] = [];
    let caught: unknown;
    try {
      for await (const event of iterator) {
        seen.push(event.type);
        if (event.type === "block_end") controller.abort();
      }
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ProviderError);
    expect((caught as ProviderError).kind).toBe("aborted");
    expect(seen).not.toContain("retry");
    expect(server.requests).toHaveLength(1);
  });

  it("breaking out of the iteration cancels the HTTP request", async () => {
    const stalled = { ...ok([messageStart("msg_b"), ...textBlock(0, ["..."])]), stall: true };
    const { provider, server } = await setup([stalled]);
    for await (const event of recorded(provider.stream(makeRequest()), chainedContext().next)) {
      if (event.type === "block_end") break;
    }
    await expect.poll(() => server.hungUp).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it("aborting during the backoff sleep stops at once", async () => {
    server = await startReplayServer([{ status: 500, json: errorBody("api_error", "x") }, ok(threeBlockResponse())]);
    const controller = new AbortController();
    const provider = new AnthropicProvider({
      apiKey: TEST_API_KEY,
      baseURL: server.url,
      env: {},
      sleep: async () => {
        controller.abort();
      },
    });
    const { error } = await collectUntilError(
      recorded(provider.stream(makeRequest(), { signal: controller.signal }), chainedContext().next),
    );
    expect((error as ProviderError).kind).toBe("aborted");
    expect(server.requests).toHaveLength(1);
  });

  it("never puts the API key in an error message", async () => {
    const leaky = `invalid x-api-key: ${TEST_API_KEY} (also sk-ant-api03-OTHERKEY_xyz)`;
    const { provider } = await setup([{ status: 401, json: errorBody("authentication_error", leaky) }]);
    const { error } = await collectUntilError(recorded(provider.stream(makeRequest()), chainedContext().next));
    const failure = error as ProviderError;
    expect(failure.kind).toBe("auth");
    expect(failure.message).not.toContain(TEST_API_KEY);
    expect(failure.message).not.toContain("sk-ant-api03-OTHERKEY");
    expect(failure.message).toContain("invalid x-api-key");
  });
});

describe("AnthropicProvider.complete (replayed JSON)", () => {
  const message = {
    id: "msg_c",
    type: "message",
    role: "assistant",
    model: "claude-test-1",
    content: [
      { type: "text", text: "summary" },
      { type: "server_tool_use", id: "srv", name: "web_search", input: {} },
    ],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 2 },
  };

  it("returns the message after retrying with the same policy", async () => {
    const { provider, delays, server } = await setup([
      { status: 529, json: errorBody("overloaded_error", "Overloaded") },
      { json: message },
    ]);
    const result = await provider.complete(makeRequest(), {});
    expect(result).toEqual({
      id: "msg_c",
      model: "claude-test-1",
      content: [
        { type: "text", text: "summary" },
        { type: "server_tool_use", id: "srv", name: "web_search", input: {} },
      ],
      stopReason: "end_turn",
      usage: { input_tokens: 10, output_tokens: 2 },
    });
    expect(delays).toHaveLength(1);
    expect(JSON.parse(server.requests[1]?.body ?? "{}")).not.toHaveProperty("stream");
  });
});
