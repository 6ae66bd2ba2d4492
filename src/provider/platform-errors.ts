/**
 * Errors in the cloud platforms' own words, classified into the same kinds as the first-party API's so
 * retries, fallback and overflow recovery behave the same on every platform.
 * - Bedrock names the exception in `x-amzn-ErrorType` (`ThrottlingException:http://…`) with a
 *   `{"message": …}` body; mid-stream exception frames reach us (through the SDK) as SSE `error` events
 *   typed with the camel-cased name (`throttlingException`, `modelStreamErrorException`).
 * - Vertex reports its own failures in Google's format, `{"error":{"code","message","status"}}`, with
 *   the canonical code name (`RESOURCE_EXHAUSTED`, `PERMISSION_DENIED`, `NOT_FOUND`) in `status`.
 * Rows match on these type names or AWS-only phrases (never on a bare status), so a first-party error never
 * lands here.
 * Sources: Bedrock API reference, InvokeModelWithResponseStream "Errors"; Google Cloud API design guide,
 * "Errors" (canonical codes); `@anthropic-ai/bedrock-sdk` src/core/streaming.ts (exception frames).
 */
import type { ClassificationRow } from "./errors.js";
import type { HeaderReader } from "./retry-policy.js";

/** Platform rows, each with a real-world example; they sit before the first-party rows (first match wins). */
export const PLATFORM_CLASSIFICATION_ROWS: readonly ClassificationRow[] = [
  {
    // The SDK reports a failed credential lookup as a connection error; a missing profile is not weather.
    kind: "auth",
    pattern: /^Failed to resolve AWS credentials.*(could not|not found|unable to|no .* found)/i,
    retryable: false,
    example: {
      message:
        "Failed to resolve AWS credentials from the credential provider chain.: Could not resolve credentials using profile: [absent] in configuration/credentials file(s).",
      network: true,
    },
  },
  {
    kind: "prompt_too_long",
    errorTypes: ["ValidationException", "validationException"],
    pattern: /input is too long|prompt is too long|too many input tokens/i,
    retryable: false,
    example: { status: 400, errorType: "ValidationException", message: "Input is too long for requested model." },
  },
  {
    kind: "rate_limited",
    errorTypes: ["ThrottlingException", "ModelNotReadyException"],
    retryable: true,
    example: {
      status: 429,
      errorType: "ThrottlingException",
      message: "Too many requests, please wait before trying again.",
    },
  },
  {
    kind: "rate_limited",
    errorTypes: ["RESOURCE_EXHAUSTED"],
    retryable: true,
    example: {
      status: 429,
      errorType: "RESOURCE_EXHAUSTED",
      message:
        "Quota exceeded for aiplatform.googleapis.com/online_prediction_input_tokens_per_minute_per_base_model with base model: anthropic-claude-sonnet-4-5. Please submit a quota increase request.",
    },
  },
  {
    kind: "rate_limited",
    errorTypes: ["throttlingException"],
    retryable: true,
    example: { errorType: "throttlingException", message: "Too many tokens, please wait before trying again." },
  },
  {
    kind: "overloaded",
    errorTypes: ["ServiceUnavailableException", "serviceUnavailableException"],
    retryable: true,
    example: {
      status: 503,
      errorType: "ServiceUnavailableException",
      message: "Bedrock is unable to process your request.",
    },
  },
  {
    kind: "server",
    errorTypes: [
      "modelStreamErrorException",
      "ModelStreamErrorException",
      "internalServerException",
      "InternalServerException",
    ],
    retryable: true,
    example: { errorType: "modelStreamErrorException", message: "Model stream error: Overloaded" },
  },
  {
    kind: "connection",
    errorTypes: ["ModelTimeoutException", "modelTimeoutException"],
    retryable: true,
    example: {
      status: 408,
      errorType: "ModelTimeoutException",
      message: "Model has timed out in processing the request.",
    },
  },
  {
    kind: "auth",
    errorTypes: ["AccessDeniedException", "UnrecognizedClientException", "ExpiredTokenException", "UNAUTHENTICATED"],
    retryable: false,
    example: {
      status: 403,
      errorType: "AccessDeniedException",
      message: "You don't have access to the model with the specified model ID.",
    },
  },
  {
    kind: "auth",
    errorTypes: ["PERMISSION_DENIED"],
    retryable: false,
    example: {
      status: 403,
      errorType: "PERMISSION_DENIED",
      message:
        "Permission 'aiplatform.endpoints.predict' denied on resource '//aiplatform.googleapis.com/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929' (or it may not exist).",
    },
  },
  {
    kind: "not_found",
    errorTypes: ["ResourceNotFoundException", "NOT_FOUND"],
    retryable: false,
    example: {
      status: 404,
      errorType: "NOT_FOUND",
      message:
        "Publisher Model `projects/p/locations/us-east5/publishers/anthropic/models/claude-nonexistent@20250101` not found.",
    },
  },
  {
    kind: "invalid_request",
    errorTypes: ["ValidationException", "validationException", "INVALID_ARGUMENT"],
    retryable: false,
    example: {
      status: 400,
      errorType: "ValidationException",
      message:
        "Malformed input request: #: extraneous key [model] is not permitted, please reformat your input and try again.",
    },
  },
];

/**
 * The error type and message a platform put where the first-party API does not: Bedrock's header and
 * `{"message"}` body, Google's `{"error":{"status","message"}}` (sometimes wrapped in a one-element array).
 */
export function platformErrorFacts(
  headers: HeaderReader | undefined,
  body: unknown,
): { errorType?: string; message?: string } {
  const facts: { errorType?: string; message?: string } = {};
  const amazonType = headers?.get("x-amzn-errortype");
  if (amazonType) facts.errorType = amazonType.split(":")[0] ?? amazonType;
  const record = Array.isArray(body) ? body[0] : body;
  if (typeof record !== "object" || record === null) return facts;
  const { message, Message, error } = record as { message?: unknown; Message?: unknown; error?: unknown };
  const text = typeof message === "string" ? message : typeof Message === "string" ? Message : undefined;
  if (text !== undefined) facts.message = text;
  if (typeof error === "object" && error !== null) {
    const google = error as { status?: unknown; message?: unknown };
    if (typeof google.status === "string" && facts.errorType === undefined) facts.errorType = google.status;
    if (typeof google.message === "string") facts.message = google.message;
  }
  return facts;
}
