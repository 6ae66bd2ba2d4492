/**
 * Google Vertex AI's wire shape for Anthropic models: the Messages API's own SSE and JSON pass through
 * (Vertex proxies the model's answers and its `invalid_request_error`s), while failures Vertex decides
 * itself — quota, authentication, permission, unknown model — come in Google's error format:
 * `{"error":{"code":429,"message":…,"status":"RESOURCE_EXHAUSTED"}}`.
 */
import { parseError } from "./bedrock-wire.js";
import type { Transcoder, WrittenAnswer } from "./transcoding-response.js";

/** `anthropic_version` Vertex documents for the Messages API. */
export const VERTEX_ANTHROPIC_VERSION = "vertex-2023-10-16";

/** A Google API error answer. */
function googleError(code: number, status: string, message: string): WrittenAnswer {
  return {
    status: code,
    headers: { "content-type": "application/json; charset=UTF-8" },
    body: JSON.stringify({ error: { code, message, status } }),
  };
}

/** Rewrites the Messages handler's output into Vertex's wire shape; `resource` names the model path. */
export function vertexTranscoder(resource: string): Transcoder {
  return {
    answer(written) {
      if (written.status < 400) return written;
      const { type, message } = parseError(written.body);
      switch (type) {
        case "rate_limit_error":
          return googleError(
            429,
            "RESOURCE_EXHAUSTED",
            "Quota exceeded for aiplatform.googleapis.com/online_prediction_input_tokens_per_minute_per_base_model with base model: anthropic-claude. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.",
          );
        case "authentication_error":
          return googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
        case "permission_error":
          return googleError(
            403,
            "PERMISSION_DENIED",
            `Permission 'aiplatform.endpoints.predict' denied on resource '${resource}'.`,
          );
        case "not_found_error":
          return googleError(404, "NOT_FOUND", `Publisher Model \`${resource}\` not found. (${message})`);
        default:
          return written;
      }
    },
  };
}
