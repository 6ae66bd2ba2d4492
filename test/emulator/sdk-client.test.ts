/**
 * The official SDK pointed at the emulator: streams accumulate into the right message, and each injected
 * fault surfaces as the SDK's own error class.
 */
import Anthropic from "@anthropic-ai/sdk";
import {
  DEFAULT_SIGNATURE_SECRET,
  type Emulator,
  type FaultKind,
  signThinking,
  startEmulator,
} from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { MODEL, READ_TOOL } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function client(url: string, options: { timeout?: number } = {}): Anthropic {
  return new Anthropic({ baseURL: url, apiKey: "test", maxRetries: 0, logLevel: "off", ...options });
}

const THINKING_TEXT = "Let me think — ünïcode 🎉 split across chunks.";
const ANSWER_TEXT = "I will read the file now, with a text long enough to need several deltas ✓.";
const TOOL_INPUT = { file_path: "/tmp/a.ts", nested: { list: [1, 2, 3] } };
const THINKING_TURN = {
  content: [
    { type: "thinking" as const, thinking: THINKING_TEXT },
    { type: "text" as const, text: ANSWER_TEXT },
    { type: "tool_use" as const, name: "Read", input: TOOL_INPUT },
  ],
};

/** A request with thinking on and the Read tool, for the turns that read a file. */
const base = {
  model: MODEL,
  max_tokens: 4000,
  thinking: { type: "enabled" as const, budget_tokens: 1024 },
  tools: [{ ...READ_TOOL, input_schema: { type: "object" as const, properties: {} } }],
};

describe("SDK streaming against the emulator", () => {
  it("accumulates thinking, text and tool_use blocks and round-trips them", async () => {
    emulator = await startEmulator({ scenario: [THINKING_TURN, "Done reading."] });
    const anthropic = client(emulator.url);
    const stream = anthropic.messages.stream({ ...base, messages: [{ role: "user", content: "read a.ts" }] });
    const seen: string[] = [];
    stream.on("streamEvent", (event) => seen.push(event.type));
    const first = await stream.finalMessage();
    expect(first.content.map((block) => block.type)).toEqual(["thinking", "text", "tool_use"]);
    const [thinking, text, toolUse] = first.content;
    expect(thinking?.type === "thinking" && thinking.thinking).toBe(THINKING_TEXT);
    expect(thinking?.type === "thinking" && thinking.signature).toBe(
      signThinking(THINKING_TEXT, DEFAULT_SIGNATURE_SECRET),
    );
    expect(text?.type === "text" && text.text).toBe(ANSWER_TEXT);
    expect(toolUse?.type === "tool_use" && toolUse.input).toEqual(TOOL_INPUT);
    expect(toolUse?.type === "tool_use" && toolUse.id).toMatch(/^toolu_01/);
    expect(first.stop_reason).toBe("tool_use");
    expect(seen.filter((type) => type === "content_block_delta").length).toBeGreaterThan(6);
    expect(seen[0]).toBe("message_start");
    expect(seen.at(-1)).toBe("message_stop");

    const toolUseId = toolUse?.type === "tool_use" ? toolUse.id : "";
    const second = await anthropic.messages.create({
      ...base,
      messages: [
        { role: "user", content: "read a.ts" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: "export {}" }] },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Done reading." }]);
  });

  it("rejects a modified thinking block in the latest assistant turn", async () => {
    emulator = await startEmulator({ scenario: [THINKING_TURN] });
    const anthropic = client(emulator.url);
    const first = await anthropic.messages.create({ ...base, messages: [{ role: "user", content: "go" }] });
    const tampered = first.content.map((block) =>
      block.type === "thinking" ? { ...block, thinking: `${block.thinking} ` } : block,
    );
    const toolUse = first.content.find((block) => block.type === "tool_use");
    const request = anthropic.messages.create({
      ...base,
      messages: [
        { role: "user", content: "go" },
        { role: "assistant", content: tampered },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse?.id ?? "", content: "x" }] },
      ],
    });
    await expect(request).rejects.toBeInstanceOf(Anthropic.BadRequestError);
    await expect(request).rejects.toThrow(/messages\.1\.content\.0: .*cannot be modified/);
  });
});

describe("injected faults surface as SDK errors", () => {
  const cases: Array<[FaultKind, boolean, (error: unknown) => void]> = [
    [
      "rate_limit",
      false,
      (error) => {
        expect(error).toBeInstanceOf(Anthropic.RateLimitError);
        expect((error as InstanceType<typeof Anthropic.RateLimitError>).headers.get("retry-after")).toBe("0");
      },
    ],
    [
      "overloaded",
      false,
      (error) => {
        expect(error).toBeInstanceOf(Anthropic.APIError);
        expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
      },
    ],
    ["server_error", false, (error) => expect(error).toBeInstanceOf(Anthropic.InternalServerError)],
    ["connection_cut", false, (error) => expect(error).toBeInstanceOf(Anthropic.APIConnectionError)],
    ["rate_limit", true, (error) => expect(error).toBeInstanceOf(Anthropic.RateLimitError)],
    ["overloaded", true, (error) => expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529)],
    ["connection_cut", true, (error) => expect(error).toBeInstanceOf(Anthropic.AnthropicError)],
    [
      "stream_error",
      true,
      (error) => {
        expect(error).toBeInstanceOf(Anthropic.APIError);
        expect(String((error as Error).message)).toMatch(/overloaded_error/);
      },
    ],
  ];
  for (const [kind, streaming, check] of cases) {
    it(`${kind} (${streaming ? "streaming" : "plain"}) on request 2, and request 3 gets the unconsumed step`, async () => {
      emulator = await startEmulator({
        scenario: ["first", "second"],
        faults: [{ onRequest: 2, kind }],
        retryAfterSeconds: 0,
      });
      const anthropic = client(emulator.url);
      const params = {
        model: MODEL,
        max_tokens: 100,
        tools: [{ ...READ_TOOL, input_schema: { type: "object" as const } }],
        messages: [{ role: "user" as const, content: "hi" }],
      };
      const call = () =>
        streaming ? anthropic.messages.stream(params).finalMessage() : anthropic.messages.create(params);
      expect((await call()).content).toEqual([{ type: "text", text: "first" }]);
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeDefined();
      check(error);
      expect((await call()).content).toEqual([{ type: "text", text: "second" }]);
      expect(emulator.stats().faults).toBe(1);
      expect(emulator.requests.find((entry) => entry.messagesRequest === 2)?.fault).toBe(kind);
    });
  }

  it("a stalled stream times out on the client and never consumes a step", async () => {
    emulator = await startEmulator({ scenario: ["only"], faults: [{ onRequest: 1, kind: "stall" }] });
    const anthropic = client(emulator.url);
    const controller = new AbortController();
    const params = {
      model: MODEL,
      max_tokens: 100,
      tools: [{ ...READ_TOOL, input_schema: { type: "object" as const } }],
      messages: [{ role: "user" as const, content: "hi" }],
    };
    const stream = anthropic.messages.stream(params, { signal: controller.signal });
    const events: string[] = [];
    stream.on("streamEvent", (event) => {
      events.push(event.type);
      // The stall strikes mid-stream: give up once the first event has arrived.
      if (event.type === "message_start") setTimeout(() => controller.abort(), 50);
    });
    await expect(stream.finalMessage()).rejects.toBeInstanceOf(Anthropic.APIUserAbortError);
    expect(events).not.toContain("message_stop");
    expect((await anthropic.messages.create(params)).content).toEqual([{ type: "text", text: "only" }]);
  });

  it("rate faults are reproducible from the seed", async () => {
    const pattern = async (): Promise<string> => {
      const running = await startEmulator({ faults: [{ rate: 0.4, kinds: ["overloaded", "server_error"], seed: 7 }] });
      const anthropic = client(running.url);
      let outcome = "";
      for (let index = 0; index < 12; index++) {
        outcome += await anthropic.messages
          .create({ model: MODEL, max_tokens: 10, messages: [{ role: "user", content: "x" }] })
          .then(
            () => ".",
            (error: InstanceType<typeof Anthropic.APIError>) => String(error.status),
          );
      }
      await running.close();
      return outcome;
    };
    const first = await pattern();
    expect(first).toMatch(/529|500/);
    expect(first).toMatch(/\./);
    expect(await pattern()).toBe(first);
  });
});
