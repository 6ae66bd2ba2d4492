/**
 * `POST /v1/chat/completions`: the OpenAI chat API on the emulator, read onto the one Messages handler
 * (openai-chat-request.ts) and answered in OpenAI's wire shapes:
 * - streamed: `chat.completion.chunk`s — the role first, text as `delta.content`, each tool call as
 *   `delta.tool_calls[{index, id, type, function: {name, arguments}}]` then its argument fragments, the
 *   `finish_reason` (end_turn/stop_sequence → stop, max_tokens → length, tool_use → tool_calls), with
 *   `stream_options.include_usage` a last chunk with `choices: []` and the usage, then `data: [DONE]`;
 * - a mid-stream error as `data: {"error": …}`; other errors in OpenAI's envelope (`{"error": {message, type,
 *   param, code}}`), an overflow as OpenAI words it (`code: context_length_exceeded`). In compatible mode the
 *   errors are llama-server's own and pass unchanged.
 * - usage by the emulator's ruler: `prompt_tokens` all input (cache reads included), `prompt_tokens_details.
 *   cached_tokens` the cache reads, `completion_tokens` the output.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLogEntry } from "../request-log.js";
import type { EmulatorState } from "../state.js";
import { isRecord } from "../validator/violation.js";
import { header, readBody, sendJson } from "./http-io.js";
import { handleMessages } from "./messages-handler.js";
import { readChatRequest } from "./openai-chat-request.js";
import type { StreamEvent } from "./sse.js";
import { type Transcoder, transcodingResponse, type WrittenAnswer } from "./transcoding-response.js";

const FINISH: Readonly<Record<string, string>> = {
  end_turn: "stop",
  stop_sequence: "stop",
  max_tokens: "length",
  tool_use: "tool_calls",
  model_context_window_exceeded: "length",
  refusal: "content_filter",
  pause_turn: "stop",
};

/** Answers one chat-completions request. */
export async function handleChatCompletions(
  request: IncomingMessage,
  response: ServerResponse,
  entry: RequestLogEntry,
  state: EmulatorState,
): Promise<void> {
  const fail = (status: number, message: string, type: string, param: string | null, code: string | null): void => {
    entry.status = status;
    entry.error = { type, message };
    sendJson(response, status, { error: { message, type, param, code } }, { "x-request-id": entry.requestId });
  };
  const authorization = header(request, "authorization") ?? "";
  if (!/^Bearer \S+/.test(authorization)) {
    request.resume();
    return fail(401, "You didn't provide an API key.", "invalid_request_error", null, "invalid_api_key");
  }
  if (state.settings.apiKey !== undefined && authorization !== `Bearer ${state.settings.apiKey}`)
    return fail(401, "Incorrect API key provided.", "invalid_request_error", null, "invalid_api_key");
  const read = await readBody(request, state.settings.maxRequestBytes);
  if (read.kind === "too_large") return fail(413, "Request too large.", "invalid_request_error", null, null);
  let body: unknown;
  try {
    body = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return fail(400, "We could not parse the JSON body of your request.", "invalid_request_error", null, null);
  }
  entry.body = body;
  const reading = readChatRequest(body);
  if (reading.kind === "invalid") return fail(400, reading.message, "invalid_request_error", reading.param, null);
  const wire = transcodingResponse(
    response,
    chatTranscoder(reading.includeUsage, entry.requestId, state.settings.mode === "compatible"),
  );
  return handleMessages(request, wire, reading.body, read.bytes.length, entry, state);
}

/** Rewrites the Messages handler's answers into chat-completions answers (state per response). */
function chatTranscoder(includeUsage: boolean, requestId: string, passErrors: boolean): Transcoder {
  let id = "";
  let model = "";
  let created = 0;
  let promptTokens = 0;
  let cachedTokens = 0;
  let completionTokens = 0;
  let toolCalls = 0;
  const toolIndex = new Map<number, number>();
  const encoder = new TextEncoder();
  const data = (value: unknown): Uint8Array => encoder.encode(`data: ${JSON.stringify(value)}\n\n`);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
    data({
      id,
      object: "chat.completion.chunk",
      created,
      model,
      system_fingerprint: null,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    });
  const readUsage = (usage: unknown): void => {
    if (!isRecord(usage)) return;
    const number = (value: unknown): number => (typeof value === "number" ? value : 0);
    if (usage.input_tokens != null || usage.cache_read_input_tokens != null) {
      cachedTokens = number(usage.cache_read_input_tokens);
      promptTokens = number(usage.input_tokens) + cachedTokens + number(usage.cache_creation_input_tokens);
    }
    if (usage.output_tokens != null) completionTokens = number(usage.output_tokens);
  };
  const usage = () => ({
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cachedTokens },
  });

  const encodeEvent = (event: StreamEvent): Uint8Array => {
    const payload = event.data;
    switch (event.event) {
      case "message_start": {
        const message = isRecord(payload.message) ? payload.message : {};
        id = `chatcmpl-${String(message.id ?? requestId)}`;
        model = String(message.model ?? "");
        created = Math.floor(Date.now() / 1000);
        readUsage(message.usage);
        return chunk({ role: "assistant", content: "" });
      }
      case "content_block_start": {
        const block = isRecord(payload.content_block) ? payload.content_block : {};
        if (block.type !== "tool_use") return new Uint8Array();
        const index = toolCalls++;
        toolIndex.set(Number(payload.index), index);
        return chunk({
          tool_calls: [{ index, id: block.id, type: "function", function: { name: block.name, arguments: "" } }],
        });
      }
      case "content_block_delta": {
        const delta = isRecord(payload.delta) ? payload.delta : {};
        if (delta.type === "text_delta") return chunk({ content: delta.text });
        const index = toolIndex.get(Number(payload.index));
        if (delta.type === "input_json_delta" && index !== undefined)
          return chunk({ tool_calls: [{ index, function: { arguments: delta.partial_json } }] });
        return new Uint8Array(); // thinking and signatures have no place in chat completions
      }
      case "message_delta": {
        readUsage(payload.usage);
        const delta = isRecord(payload.delta) ? payload.delta : {};
        return chunk({}, FINISH[String(delta.stop_reason)] ?? "stop");
      }
      case "message_stop": {
        const tail = includeUsage
          ? data({ id, object: "chat.completion.chunk", created, model, choices: [], usage: usage() })
          : new Uint8Array();
        const done = encoder.encode("data: [DONE]\n\n");
        const out = new Uint8Array(tail.length + done.length);
        out.set(tail);
        out.set(done, tail.length);
        return out;
      }
      case "error": {
        const error = isRecord(payload.error) ? payload.error : {};
        return data({ error: { message: error.message, type: error.type, param: null, code: null } });
      }
      default:
        return new Uint8Array(); // ping, content_block_stop
    }
  };

  return {
    answer: (written) => (passErrors && written.status >= 400 ? written : chatAnswer(written, requestId)),
    streamHeaders: (headers) => ({
      ...headers,
      "content-type": "text/event-stream; charset=utf-8",
      "x-request-id": requestId,
    }),
    encodeEvent,
  };
}

/** A JSON answer: an error in OpenAI's envelope, or a whole `chat.completion`. */
function chatAnswer(written: WrittenAnswer, requestId: string): WrittenAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(written.body);
  } catch {
    return written;
  }
  const headers = { ...written.headers, "x-request-id": requestId };
  if (written.status >= 400) {
    const error = isRecord(parsed) && isRecord(parsed.error) ? parsed.error : {};
    const message = String(error.message ?? "error");
    const overflow = /prompt is too long: (\d+) tokens > (\d+) maximum/.exec(message);
    const body = overflow
      ? {
          message: `This model's maximum context length is ${overflow[2]} tokens. However, your messages resulted in ${overflow[1]} tokens. Please reduce the length of the messages.`,
          type: "invalid_request_error",
          param: "messages",
          code: "context_length_exceeded",
        }
      : { message, type: String(error.type ?? "api_error"), param: null, code: null };
    return { status: written.status, headers, body: JSON.stringify({ error: body }) };
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.content)) return written;
  const text = parsed.content.flatMap((block) =>
    isRecord(block) && block.type === "text" ? [String(block.text)] : [],
  );
  const calls = parsed.content.flatMap((block) =>
    isRecord(block) && block.type === "tool_use"
      ? [{ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.input) } }]
      : [],
  );
  const usage = isRecord(parsed.usage) ? parsed.usage : {};
  const cached = Number(usage.cache_read_input_tokens ?? 0);
  const prompt = Number(usage.input_tokens ?? 0) + cached + Number(usage.cache_creation_input_tokens ?? 0);
  const completion = Number(usage.output_tokens ?? 0);
  const answer = {
    id: `chatcmpl-${String(parsed.id)}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: parsed.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: text.join(""), ...(calls.length > 0 ? { tool_calls: calls } : {}) },
        finish_reason: FINISH[String(parsed.stop_reason)] ?? "stop",
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
    },
  };
  return { status: written.status, headers, body: JSON.stringify(answer) };
}
