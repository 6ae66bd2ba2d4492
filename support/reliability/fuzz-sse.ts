/**
 * Fuzzing server responses: malformed SSE, events in the wrong order, unknown events, invalid JSON in
 * `input_json_delta`, served from a tiny node:http server on 127.0.0.1 to the real AnthropicProvider.
 * The stream must end with a message or a clear Error; nothing may hang, crash, or yield an entry the API
 * would reject when sent back.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import fc from "fast-check";
import { AssistantEntries } from "../../src/loop/assistant-entries.js";
import { AnthropicProvider } from "../../src/provider/index.js";
import type { AssembledRequest, MessagesRequest } from "../../src/request/types.js";

/** A run that takes longer than this is a hang. */
export const DEFAULT_STREAM_DEADLINE_MS = 15_000;

export interface SseServer {
  url: string;
  /** The body served to every request until changed. */
  body: string;
  requests: number;
  close(): Promise<void>;
}

/** Serves `server.body` as an SSE 200 response to any request. */
export async function startSseServer(): Promise<SseServer> {
  const state = { body: "", requests: 0 };
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      state.requests++;
      response.writeHead(200, { "content-type": "text/event-stream", "request-id": "req_fuzz" });
      response.end(state.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    get body() {
      return state.body;
    },
    set body(value: string) {
      state.body = value;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

type SseEvent = { name: string; data: unknown } | { raw: string };

const usage = { input_tokens: 10, output_tokens: 1 };
const messageStart = {
  type: "message_start",
  message: {
    id: "msg_fuzz",
    type: "message",
    role: "assistant",
    model: "claude-fuzz",
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage,
  },
};

/** A well-formed response: text, then a tool call whose JSON arrives in pieces. */
export function wellFormedEvents(json: readonly string[]): SseEvent[] {
  return [
    { name: "message_start", data: messageStart },
    {
      name: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    },
    { name: "ping", data: { type: "ping" } },
    {
      name: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } },
    },
    { name: "content_block_stop", data: { type: "content_block_stop", index: 0 } },
    {
      name: "content_block_start",
      data: {
        type: "content_block_start",
        index: 1,
        content_block: { type: "tool_use", id: "toolu_f", name: "Read", input: {} },
      },
    },
    ...json.map((partial) => ({
      name: "content_block_delta",
      data: { type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: partial } },
    })),
    { name: "content_block_stop", data: { type: "content_block_stop", index: 1 } },
    {
      name: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: "tool_use", stop_sequence: null },
        usage: { output_tokens: 9 },
      },
    },
    { name: "message_stop", data: { type: "message_stop" } },
  ];
}

const oddEvent: fc.Arbitrary<SseEvent> = fc.oneof(
  fc.constantFrom<SseEvent>(
    { name: "unknown_event", data: { type: "unknown_event", x: 1 } },
    { name: "error", data: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
    { name: "content_block_delta", data: { type: "content_block_delta", index: 0, delta: { type: "mystery_delta" } } },
    {
      name: "content_block_delta",
      data: { type: "content_block_delta", index: 7, delta: { type: "text_delta", text: "x" } },
    },
    {
      name: "content_block_start",
      data: {
        type: "content_block_start",
        index: 0,
        content_block: { type: "server_tool_use", id: "s", name: "web", input: {} },
      },
    },
    {
      name: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "thinking", thinking: "" } },
    },
    {
      name: "content_block_delta",
      data: { type: "content_block_delta", index: 0, delta: { type: "signature_delta", signature: "sig" } },
    },
    {
      name: "message_delta",
      data: { type: "message_delta", delta: { stop_reason: "bogus" }, usage: { output_tokens: "many" } },
    },
    { name: "message_start", data: { type: "message_start" } },
    { raw: "data: {not json\n\n" },
    { raw: "event: content_block_delta\ndata: \n\n" },
    { raw: ": a comment line\n\n" },
    { raw: "garbage without a field\n\n" },
  ),
  fc.record({ name: fc.string({ maxLength: 12 }), data: fc.jsonValue({ maxDepth: 2 }) }),
  fc.string({ maxLength: 40 }).map((raw) => ({ raw: `${raw}\n\n` })),
);

function frame(event: SseEvent): string {
  if ("raw" in event) return event.raw;
  return `event: ${event.name}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

/** Bodies: a valid response mutated (dropped, repeated, swapped, inserted events) with fuzzed tool JSON. */
export function sseBodyArbitrary(): fc.Arbitrary<string> {
  const partials = fc.oneof(
    fc.constant(['{"file_path":', '"a.ts"}']),
    fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
    fc.constant(['{"file_path": "a.ts"']),
    fc.constant(["[1,2]"]),
    fc.constant(['"just a string"']),
  );
  const mutation = fc.oneof(
    fc.record({ kind: fc.constant("drop" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("repeat" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("swap" as const), at: fc.nat() }),
    fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), event: oddEvent }),
    fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
  );
  return fc.tuple(partials, fc.array(mutation, { maxLength: 4 })).map(([json, mutations]) => {
    const events = wellFormedEvents(json);
    let tail = "";
    for (const change of mutations) {
      const at = change.at % Math.max(1, events.length);
      if (change.kind === "drop") events.splice(at, 1);
      else if (change.kind === "repeat") events.splice(at, 0, events[at] ?? { raw: "\n" });
      else if (change.kind === "swap" && at + 1 < events.length) {
        const [a, b] = [events[at], events[at + 1]];
        if (a !== undefined && b !== undefined) events.splice(at, 2, b, a);
      } else if (change.kind === "insert") events.splice(at, 0, change.event);
      else if (change.kind === "truncate") {
        // Cut the body in the middle of an event's bytes (the server then closes the connection).
        const cut = events.splice(at);
        tail = frame(cut[0] ?? { raw: "" }).slice(0, 1 + (change.at % 17));
      }
    }
    return events.map(frame).join("") + tail;
  });
}

export function fuzzRequest(): AssembledRequest {
  const body: MessagesRequest = {
    model: "claude-fuzz",
    max_tokens: 1024,
    messages: [{ role: "user", content: [{ type: "text", text: "fuzz" }] }],
  };
  return { body, betas: [], json: JSON.stringify(body) };
}

export type StreamOutcome =
  | { kind: "completed"; problems: string[] }
  | { kind: "error"; error: Error }
  | { kind: "hang" };

/** Consumes one stream from the server's current body. */
export async function consumeStream(
  provider: AnthropicProvider,
  deadlineMs = DEFAULT_STREAM_DEADLINE_MS,
): Promise<StreamOutcome> {
  let counter = 0;
  const controller = new AbortController();
  const run = (async (): Promise<StreamOutcome> => {
    const problems: string[] = [];
    try {
      // The entries the loop would record: what the provider accepts must be sendable back.
      const entries = new AssistantEntries(() => ({
        sessionId: "fuzz",
        parentUuid: null,
        uuid: `e-${counter++}`,
        now: new Date(0),
      }));
      for await (const event of provider.stream(fuzzRequest(), { signal: controller.signal })) {
        const entry = entries.push(event)[0];
        if (entry === undefined) continue;
        const block = entry.message.content[0];
        // What the provider accepts must be sendable back: tool input an object, text a string.
        if (
          block.type === "tool_use" &&
          (typeof block.input !== "object" || block.input === null || Array.isArray(block.input))
        )
          problems.push(`tool_use input is ${JSON.stringify(block.input)}`);
        if (block.type === "text" && typeof block.text !== "string") problems.push("text block without text");
      }
      return { kind: "completed", problems };
    } catch (error) {
      if (error instanceof Error) return { kind: "error", error };
      return { kind: "completed", problems: [`threw a non-Error: ${String(error)}`] };
    }
  })();
  let timer: NodeJS.Timeout | undefined;
  const hang = new Promise<StreamOutcome>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve({ kind: "hang" });
    }, deadlineMs);
  });
  try {
    return await Promise.race([run, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Property: every fuzzed body ends in a clean completion or an Error with a message; none hangs. */
export async function fuzzServerResponses(
  numRuns: number,
  seed?: number,
): Promise<{ completed: number; errors: number }> {
  const server = await startSseServer();
  const tally = { completed: 0, errors: 0 };
  const provider = new AnthropicProvider({
    baseURL: server.url,
    apiKey: "sk-ant-test-SECRET-fuzz",
    maxRetries: 1,
    sleep: async () => {},
    idleTimeoutMs: 5_000,
  });
  try {
    await fc.assert(
      fc.asyncProperty(sseBodyArbitrary(), async (body) => {
        server.body = body;
        const outcome = await consumeStream(provider);
        if (outcome.kind === "hang") throw new Error("the stream neither ended nor failed");
        if (outcome.kind === "error") {
          tally.errors++;
          if (outcome.error.message.trim() === "") throw new Error(`an error without a message: ${outcome.error.name}`);
          if (outcome.error.message.includes("SECRET"))
            throw new Error(`the key leaked into: ${outcome.error.message}`);
          return;
        }
        tally.completed++;
        if (outcome.problems.length > 0) throw new Error(outcome.problems.join("; "));
      }),
      { numRuns, ...(seed !== undefined ? { seed } : {}) },
    );
  } finally {
    await server.close();
  }
  return tally;
}
