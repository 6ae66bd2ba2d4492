/**
 * `--provider openai-compatible` end to end on real parts: the official `openai` package over real HTTP to the
 * emulator's `/v1/chat/completions` (its own reading of the chat API, its own tokenizer). Oracles: the chat bodies
 * the emulator logged, its usage figures, files a tool wrote on disk.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { OpenAICompatibleProvider } from "../../src/provider/index.js";
import { collect } from "../../support/collect.js";
import { type Harness, startHarness, turnEnd } from "../../support/engine-harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

function openai(url: string, extra: Record<string, unknown> = {}): OpenAICompatibleProvider {
  return new OpenAICompatibleProvider({
    baseURL: `${url}/v1`,
    apiKey: "sk-test-openai-not-secret",
    sleep: async () => {},
    env: {},
    ...extra,
  });
}

interface ChatBody {
  model: string;
  max_tokens: number;
  stream: boolean;
  stream_options?: { include_usage?: boolean };
  messages: Array<{ role: string; content: unknown; tool_calls?: unknown[]; tool_call_id?: string }>;
  tools?: Array<{ type: string; function: { name: string; parameters: unknown } }>;
}

describe("the OpenAI-compatible provider against the emulator's chat endpoint", () => {
  it("runs three tool turns through chat completions: tool calls out, tool messages back, usage in", async () => {
    const bash = (command: string) => ({
      content: [{ type: "tool_use" as const, name: "Bash", input: { command } }],
    });
    harness = await startHarness(
      { scenario: [bash("echo one >> out.txt"), bash("echo two >> out.txt"), bash("echo three >> out.txt"), "Done."] },
      {},
      (emulator) => openai(emulator.url),
    );
    const events = await collect(harness.engine.submitMessage("Write three lines."));
    expect(turnEnd(events).reason).toBe("completed");
    expect(await readFile(join(harness.workspace, "out.txt"), "utf8")).toBe("one\ntwo\nthree\n");
    // finish_reason tool_calls → tool_use, stop → end_turn.
    const stops = events.flatMap((event) => (event.type === "message_end" ? [event.stopReason] : []));
    expect(stops).toEqual(["tool_use", "tool_use", "tool_use", "end_turn"]);

    const chats = harness.emulator.requests.filter((entry) => entry.path === "/v1/chat/completions");
    expect(chats).toHaveLength(4);
    expect(chats.every((entry) => entry.status === 200)).toBe(true);
    const last = chats[3]?.body as ChatBody;
    expect(last.stream).toBe(true);
    expect(last.stream_options).toEqual({ include_usage: true });
    expect(last.messages[0]?.role).toBe("system");
    expect(last.messages.map((message) => message.role).slice(1)).toEqual([
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "tool",
    ]);
    const calls = last.messages.filter((message) => message.role === "assistant").map((m) => m.tool_calls?.[0]);
    const tools = last.messages.filter((message) => message.role === "tool");
    // Each tool message answers the call before it, by the server's own id.
    expect(tools.map((message) => message.tool_call_id)).toEqual(calls.map((call) => (call as { id: string }).id));
    expect(JSON.parse((calls[1] as { function: { arguments: string } }).function.arguments)).toEqual({
      command: "echo two >> out.txt",
    });
    expect(last.tools?.some((tool) => tool.type === "function" && tool.function.name === "Bash")).toBe(true);

    // Usage: the assistant entries carry what the emulator billed for each answer (its ruler, not ours).
    const assistants = harness.engine.timeline.entries.filter((entry) => entry.type === "assistant");
    const billed = chats.map((entry) => entry.usage);
    const lastUsage = (assistants.at(-1) as unknown as { message: { usage?: Record<string, number> } }).message.usage;
    const lastBilled = billed[3];
    expect(lastUsage?.output_tokens).toBe(lastBilled?.output_tokens);
    expect((lastUsage?.input_tokens ?? 0) + (lastUsage?.cache_read_input_tokens ?? 0)).toBe(
      (lastBilled?.input_tokens ?? 0) +
        (lastBilled?.cache_read_input_tokens ?? 0) +
        (lastBilled?.cache_creation_input_tokens ?? 0),
    );
    expect(lastUsage?.cache_creation_input_tokens ?? 0).toBe(0);
  });

  it("maps the finish reason length to max_tokens", async () => {
    harness = await startHarness(
      { scenario: [{ content: [{ type: "text" as const, text: "Cut short" }], stop_reason: "max_tokens" as const }] },
      {},
      (emulator) => openai(emulator.url),
    );
    const events = await collect(harness.engine.submitMessage("Go."));
    const ends = events.filter((event) => event.type === "message_end");
    expect(ends[0]).toMatchObject({ stopReason: "max_tokens" });
  });

  it("recognises the server's context overflow (OpenAI's wording) as prompt_too_long with its numbers", async () => {
    harness = await startHarness({ scenario: ["never"], contextWindow: 500 }, {}, (emulator) => openai(emulator.url));
    const provider = harness.engine.provider;
    const request = {
      body: {
        model: "claude-sonnet-4-5",
        max_tokens: 64,
        messages: [{ role: "user" as const, content: "x ".repeat(3000) }],
      },
      betas: [],
      json: "",
    };
    const failure = await collect(provider.stream(request)).catch((error: unknown) => error);
    expect(failure).toMatchObject({ kind: "prompt_too_long", options: { maxTokens: 500 } });
    const actual = (failure as { options: { actualTokens?: number } }).options.actualTokens ?? 0;
    expect(actual).toBeGreaterThan(500);
  });

  it("sends the key only as a bearer token, never in the body", async () => {
    harness = await startHarness({ scenario: ["Hi."], apiKey: "sk-test-openai-not-secret" }, {}, (emulator) =>
      openai(emulator.url),
    );
    const events = await collect(harness.engine.submitMessage("Hello."));
    expect(turnEnd(events).reason).toBe("completed");
    const chat = harness.emulator.requests.find((entry) => entry.path === "/v1/chat/completions");
    expect(chat?.status).toBe(200);
    expect(JSON.stringify(chat?.body)).not.toContain("sk-test-openai-not-secret");
  });
});
