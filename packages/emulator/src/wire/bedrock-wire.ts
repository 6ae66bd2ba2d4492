/**
 * Amazon Bedrock's wire shape for Anthropic models, as the official `@anthropic-ai/bedrock-sdk` reads it:
 * - streaming answers (`invoke-with-response-stream`) in AWS event-stream binary framing, one `chunk`
 *   event per SSE event whose `bytes` is the base64 of the event's JSON, encoded with
 *   `@smithy/eventstream-codec` (the codec the SDK's unmarshaller decodes with); a mid-stream error is an
 *   `exception` frame (`modelStreamErrorException`, `throttlingException`…);
 * - errors as `{"message": …}` with the exception name in `x-amzn-ErrorType`, at AWS's statuses
 *   (ThrottlingException 429, ValidationException 400, AccessDeniedException 403,
 *   ResourceNotFoundException 404, ServiceUnavailableException 503, InternalServerException 500).
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import type { StreamEvent } from "./sse.js";
import type { Transcoder, WrittenAnswer } from "./transcoding-response.js";

/** `anthropic_version` Bedrock documents for the Messages API. */
export const BEDROCK_ANTHROPIC_VERSION = "bedrock-2023-05-31";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const codec = new EventStreamCodec(
  (bytes) => decoder.decode(bytes),
  (text) => encoder.encode(text),
);

function stringHeader(value: string) {
  return { type: "string" as const, value };
}

/** A `chunk` event frame carrying `payload` (base64 JSON, as Bedrock sends it). */
function encodeChunk(payload: Record<string, unknown>): Uint8Array {
  const bytes = Buffer.from(JSON.stringify(payload), "utf8").toString("base64");
  return codec.encode({
    headers: {
      ":event-type": stringHeader("chunk"),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("event"),
    },
    body: encoder.encode(JSON.stringify({ bytes })),
  });
}

/** An exception frame (`:message-type: exception`) named `type`, e.g. `throttlingException`. */
function encodeException(type: string, body: Record<string, unknown>): Uint8Array {
  return codec.encode({
    headers: {
      ":exception-type": stringHeader(type),
      ":content-type": stringHeader("application/json"),
      ":message-type": stringHeader("exception"),
    },
    body: encoder.encode(JSON.stringify(body)),
  });
}

/** A Bedrock error answer: status, AWS exception name and message. */
interface AwsError {
  status: number;
  exception: string;
  message: string;
}

/** The Anthropic error an answer carried, as Bedrock reports it. */
function bedrockError(status: number, type: string, message: string): AwsError {
  switch (type) {
    case "rate_limit_error":
      return {
        status: 429,
        exception: "ThrottlingException",
        message: "Too many requests, please wait before trying again.",
      };
    case "overloaded_error":
      return {
        status: 503,
        exception: "ServiceUnavailableException",
        message: "Bedrock is unable to process your request.",
      };
    case "authentication_error":
    case "permission_error":
      return {
        status: 403,
        exception: "AccessDeniedException",
        message: "You don't have access to the model with the specified model ID.",
      };
    case "not_found_error":
      return {
        status: 404,
        exception: "ResourceNotFoundException",
        message: `Could not resolve the foundation model from the provided model identifier. (${message})`,
      };
    case "invalid_request_error":
    case "request_too_large":
      return { status, exception: "ValidationException", message };
    case "timeout_error":
      return { status: 408, exception: "ModelTimeoutException", message };
    default:
      return { status: Math.min(status, 500), exception: "InternalServerException", message };
  }
}

/** `x-amzn-ErrorType` as Bedrock spells it. */
function errorTypeHeader(exception: string): string {
  return `${exception}:http://internal.amazon.com/coral/com.amazon.bedrock/`;
}

/** The error reply for a request Bedrock would refuse before the model sees it. */
function bedrockRefusal(status: number, exception: string, message: string, requestId: string): WrittenAnswer {
  return {
    status,
    headers: {
      "content-type": "application/json",
      "x-amzn-requestid": requestId,
      "x-amzn-errortype": errorTypeHeader(exception),
    },
    body: JSON.stringify({ message }),
  };
}

/** Rewrites the Messages handler's output into Bedrock's wire shape. */
export function bedrockTranscoder(requestId: string): Transcoder {
  // Bedrock reports the token counts of a streamed answer in its last chunk.
  let inputTokens = 0;
  let outputTokens = 0;
  return {
    answer(written) {
      if (written.status < 400) {
        return { ...written, headers: { ...written.headers, "x-amzn-requestid": requestId } };
      }
      const parsed = parseError(written.body);
      const error = bedrockError(written.status, parsed.type, parsed.message);
      const answer = bedrockRefusal(error.status, error.exception, error.message, requestId);
      const retryAfter = written.headers["retry-after"];
      if (retryAfter !== undefined) answer.headers["retry-after"] = retryAfter;
      return answer;
    },
    streamHeaders: () => ({
      "content-type": "application/vnd.amazon.eventstream",
      "x-amzn-requestid": requestId,
      "x-amzn-bedrock-content-type": "application/json",
    }),
    encodeEvent(event: StreamEvent) {
      const data = event.data;
      if (event.event === "error") {
        const error = (data.error ?? {}) as { type?: string; message?: string };
        const type = error.type === "rate_limit_error" ? "throttlingException" : "modelStreamErrorException";
        return encodeException(type, {
          message: error.message ?? "error",
          ...(type === "modelStreamErrorException" ? { originalStatusCode: 529, originalMessage: error.message } : {}),
        });
      }
      if (event.event === "message_start") inputTokens = usageNumber(data.message, "input_tokens");
      if (event.event === "message_delta") outputTokens = usageNumber(data, "output_tokens");
      if (event.event === "message_stop") {
        return encodeChunk({
          ...data,
          "amazon-bedrock-invocationMetrics": {
            inputTokenCount: inputTokens,
            outputTokenCount: outputTokens,
            invocationLatency: 0,
            firstByteLatency: 0,
          },
        });
      }
      return encodeChunk(data);
    },
  };
}

function usageNumber(holder: unknown, key: string): number {
  const usage = (holder as { usage?: Record<string, unknown> } | undefined)?.usage;
  const value = usage?.[key];
  return typeof value === "number" ? value : 0;
}

/** `{type, message}` of an Anthropic error body (or of anything else, as well as it can). */
export function parseError(body: string): { type: string; message: string } {
  try {
    const parsed = JSON.parse(body) as { error?: { type?: unknown; message?: unknown } };
    const type = typeof parsed.error?.type === "string" ? parsed.error.type : "api_error";
    const message = typeof parsed.error?.message === "string" ? parsed.error.message : body;
    return { type, message };
  } catch {
    return { type: "api_error", message: body };
  }
}
