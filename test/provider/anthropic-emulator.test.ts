/**
 * AnthropicProvider against threadline's emulator over real HTTP: scripted turns, signed thinking,
 * tool_use, and every injected fault survived without duplicated entries.
 */
import { createHash } from "node:crypto";
import { type Emulator, type EmulatorOptions, FAULT_KINDS, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import type { AssistantEntry } from "../../src/messages/index.js";
import { AnthropicProvider, streamingJson } from "../../src/provider/index.js";
import type { AssembledRequest, MessagesRequest } from "../../src/request/types.js";
import { collect } from "../../support/collect.js";
import {
  chainedContext,
  makeRequest,
  ofType,
  type RecordedEvent,
  recorded,
  recordingSleep,
  TEST_API_KEY,
} from "./helpers/harness.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

async function setup(options: EmulatorOptions, providerOptions: { fallbackModel?: string } = {}) {
  emulator = await startEmulator({ apiKey: TEST_API_KEY, stallMs: 60_000, ...options });
  const recorder = recordingSleep();
  const provider = new AnthropicProvider({
    apiKey: TEST_API_KEY,
    baseURL: emulator.url,
    sleep: recorder.sleep,
    random: () => 0,
    idleTimeoutMs: 1_000,
    env: {},
    ...providerOptions,
  });
  return { provider, emulator, delays: recorder.delays };
}

/** A main-loop request: with tools, so the emulator answers from the scenario rather than as a side request. */
function loopRequest(model = "claude-test-1"): AssembledRequest {
  const base = makeRequest(model);
  const body: MessagesRequest = {
    ...base.body,
    tools: [
      {
        name: "Read",
        description: "Reads a file.",
        input_schema: { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"] },
      },
    ],
  };
  return { ...base, body, json: JSON.stringify(body) };
}

/** Entries that remain in the timeline once superseded ones are set aside. */
function survivingEntries(events: readonly RecordedEvent[]): AssistantEntry[] {
  const superseded = new Set(ofType(events, "retry").flatMap((event) => event.supersededUuids));
  return ofType(events, "assistant_entry")
    .map((event) => event.entry)
    .filter((entry) => !superseded.has(entry.uuid));
}

function messagesRequests(server: Emulator) {
  return server.requests.filter((request) => request.path === "/v1/messages");
}

const toolTurn = {
  content: [
    { type: "text" as const, text: "I will read the file." },
    { type: "tool_use" as const, name: "Read", input: { file_path: "/tmp/ü.txt", limit: 3 } },
  ],
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("AnthropicProvider against the emulator", () => {
  it("sends the assembled bytes themselves, not the SDK's own serialization of the body", async () => {
    const { provider, emulator: server } = await setup({ scenario: ["one", "two"] });
    const base = loopRequest();
    // Same body, different bytes: only a client that sends `json` verbatim produces these hashes.
    const request = { ...base, json: JSON.stringify(base.body, null, 1) };
    await collect(recorded(provider.stream(request), chainedContext().next));
    await provider.complete(request);
    const [streamed, completed] = messagesRequests(server);
    expect(streamed?.bodySha256).toBe(sha256(streamingJson(request)));
    expect(streamingJson(request).endsWith('\n,"stream":true}')).toBe(true);
    expect(completed?.bodySha256).toBe(sha256(request.json));
    expect(streamed?.violations).toEqual([]);
  });

  it("streams a text answer into one entry with usage and stop_reason", async () => {
    const { provider } = await setup({ scenario: ["Hello from the emulator — ünïcödé ✓"] });
    const events = await collect(recorded(provider.stream(loopRequest()), chainedContext().next));
    const entries = ofType(events, "assistant_entry").map((event) => event.entry);
    expect(entries).toHaveLength(1);
    expect(entries[0]?.message.content[0]).toEqual({ type: "text", text: "Hello from the emulator — ünïcödé ✓" });
    expect(entries[0]?.message.stop_reason).toBe("end_turn");
    expect(entries[0]?.message.usage?.output_tokens).toBeGreaterThan(0);
    expect(ofType(events, "message_end")[0]?.messageId).toBe(entries[0]?.message.id);
  });

  it("streams thinking with a signature the emulator accepts back, and a tool_use", async () => {
    const { provider, emulator } = await setup({
      scenario: [
        { content: [{ type: "thinking", thinking: "Let me look at the file." }, ...toolTurn.content] },
        "Done.",
      ],
    });
    const base = loopRequest();
    const body: MessagesRequest = {
      ...base.body,
      max_tokens: 4096,
      thinking: { type: "enabled", budget_tokens: 1024 },
    };
    const first: AssembledRequest = { ...base, body, json: JSON.stringify(body) };
    const events = await collect(recorded(provider.stream(first), chainedContext().next));
    const entries = ofType(events, "assistant_entry").map((event) => event.entry);
    expect(entries.map((entry) => entry.message.content[0].type)).toEqual(["thinking", "text", "tool_use"]);
    expect(new Set(entries.map((entry) => entry.message.id)).size).toBe(1);
    const thinking = entries[0]?.message.content[0];
    expect(thinking?.type === "thinking" && thinking.signature.length).toBeGreaterThan(0);
    const toolUse = entries[2]?.message.content[0];
    expect(toolUse?.type === "tool_use" && toolUse.input).toEqual({ file_path: "/tmp/ü.txt", limit: 3 });
    expect(entries[2]?.message.stop_reason).toBe("tool_use");
    expect(ofType(events, "block_end")).toHaveLength(3);

    // Send the blocks back as the next turn: the emulator verifies the thinking signature byte for byte.
    const toolUseId = toolUse?.type === "tool_use" ? toolUse.id : "";
    const secondBody: MessagesRequest = {
      ...body,
      messages: [
        ...body.messages,
        { role: "assistant", content: entries.map((entry) => entry.message.content[0]) },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: "line 1" }] },
      ],
    };
    const second = await collect(
      recorded(provider.stream({ ...base, body: secondBody, json: JSON.stringify(secondBody) }), chainedContext().next),
    );
    expect(ofType(second, "retry")).toEqual([]);
    expect(ofType(second, "assistant_entry")[0]?.entry.message.content[0]).toEqual({ type: "text", text: "Done." });
    expect(messagesRequests(emulator).every((request) => request.violations.length === 0)).toBe(true);
  });

  it.each(FAULT_KINDS.map((kind) => [kind]))("survives a %s fault with no duplicated entries", async (kind) => {
    const { provider, emulator, delays } = await setup({ scenario: [toolTurn], faults: [{ onRequest: 1, kind }] });
    const events = await collect(recorded(provider.stream(loopRequest()), chainedContext().next));
    const retries = ofType(events, "retry");
    expect(retries).toHaveLength(1);
    expect(delays).toHaveLength(1);
    const surviving = survivingEntries(events);
    expect(surviving.map((entry) => entry.message.content[0])).toEqual([
      toolTurn.content[0],
      { type: "tool_use", id: expect.any(String), name: "Read", input: { file_path: "/tmp/ü.txt", limit: 3 } },
    ]);
    expect(new Set(surviving.map((entry) => entry.message.id)).size).toBe(1);
    expect(surviving.at(-1)?.message.stop_reason).toBe("tool_use");
    // Every emitted entry is either kept or declared superseded, never both, never lost.
    const all = ofType(events, "assistant_entry");
    expect(all.length).toBe(surviving.length + retries[0]!.supersededUuids.length);
    expect(messagesRequests(emulator)).toHaveLength(2);
  });

  it("falls back to the fallback model after three overloads in a row", async () => {
    const { provider, emulator } = await setup(
      {
        scenario: ["from the fallback"],
        faults: [1, 2, 3].map((onRequest) => ({ onRequest, kind: "overloaded" as const })),
      },
      { fallbackModel: "claude-fallback-1" },
    );
    const events = await collect(
      recorded(
        provider.stream(loopRequest("claude-main-1"), { fallbackRequest: loopRequest("claude-fallback-1") }),
        chainedContext().next,
      ),
    );
    expect(ofType(events, "fallback")).toEqual([{ type: "fallback", from: "claude-main-1", to: "claude-fallback-1" }]);
    const models = messagesRequests(emulator).map((request) => (request.body as { model: string }).model);
    expect(models).toEqual(["claude-main-1", "claude-main-1", "claude-main-1", "claude-fallback-1"]);
    expect(survivingEntries(events).map((entry) => entry.message.model)).toEqual(["claude-fallback-1"]);
  });

  it("complete() answers a non-streaming request", async () => {
    const { provider } = await setup({ scenario: [toolTurn], faults: [{ onRequest: 1, kind: "server_error" }] });
    const message = await provider.complete(loopRequest(), {});
    expect(message.content.map((block) => block.type)).toEqual(["text", "tool_use"]);
    expect(message.stopReason).toBe("tool_use");
  });
});
