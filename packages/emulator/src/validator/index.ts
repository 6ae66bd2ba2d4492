/**
 * The contract validator: every request rule of docs/API-CONTRACT.md as a pure function of the body.
 * It walks the body once, collecting facts (cache markers, references, images) that the cross-cutting
 * checks read afterwards, so it stays fast enough for property tests over millions of requests.
 */
import { modelLimits } from "../models.js";
import type { EmulatorRequest } from "../request-types.js";
import { TokenRuler } from "../ruler.js";
import { checkCacheMarkers } from "./cache-control-rules.js";
import { createContext, type ValidationContext } from "./context.js";
import { jsonSizeUpperBound } from "./json-size.js";
import { checkMessages } from "./message-rules.js";
import { checkRequestFields } from "./request-rules.js";
import { DEFAULT_MAX_REQUEST_BYTES, invalid, isRecord, type ValidateOptions, type Violation } from "./violation.js";

export type { ValidateOptions, Violation } from "./violation.js";
export { DEFAULT_MAX_REQUEST_BYTES } from "./violation.js";

/** Most images (and documents) one request may carry. */
export const MAX_MEDIA_PER_REQUEST = 100;
/** Largest image side in pixels. */
export const MAX_IMAGE_DIMENSION = 8000;
/** Largest image side once a request carries more than `MANY_IMAGES_THRESHOLD` images. */
export const MAX_IMAGE_DIMENSION_MANY = 2000;
export const MANY_IMAGES_THRESHOLD = 20;

/** Every rule `body` breaks, most fundamental first; an empty list means the real API would accept it. */
export function validateRequest(body: unknown, options: ValidateOptions = {}): Violation[] {
  const maxBytes = options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  // Serialise only when the cheap bound says the body might be over the limit.
  const bytes =
    options.bodyBytes ??
    (jsonSizeUpperBound(body) > maxBytes ? Buffer.byteLength(JSON.stringify(body) ?? "", "utf8") : 0);
  if (bytes > maxBytes) {
    return [
      { status: 413, type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
    ];
  }
  const out: Violation[] = [];
  if (!isRecord(body)) {
    out.push(invalid("", "request body must be a JSON object"));
    return out;
  }
  const context = createContext(options, out);
  checkRequestFields(body, context);
  checkMessages(body.messages, context);
  checkPrefill(body, out);
  for (const check of context.deferredMarkers) check();
  checkCacheMarkers(context);
  checkCacheEditReferences(context);
  checkMedia(context);
  if (out.length === 0) checkContextWindow(body as EmulatorRequest, options, out);
  return out;
}

/** The message newer models answer a request ending with an assistant message with. */
export const PREFILL_UNSUPPORTED_MESSAGE =
  "This model does not support assistant message prefill. The conversation must end with a user message.";

function checkPrefill(body: Record<string, unknown>, out: Violation[]): void {
  const { model, messages } = body;
  if (typeof model !== "string" || !Array.isArray(messages) || messages.length === 0) return;
  const last: unknown = messages[messages.length - 1];
  if (!isRecord(last) || last.role !== "assistant" || modelLimits(model).acceptsPrefill) return;
  out.push(invalid(`messages.${messages.length - 1}`, PREFILL_UNSUPPORTED_MESSAGE));
}

function checkCacheEditReferences(context: ValidationContext): void {
  for (const edit of context.cacheEditDeletes) {
    if (!context.toolResultReferences.has(edit.reference)) {
      context.out.push(
        invalid(edit.path, `cache_reference '${edit.reference}' does not match any tool_result in this request`),
      );
    }
  }
}

function checkMedia(context: ValidationContext): void {
  if (context.mediaCount > MAX_MEDIA_PER_REQUEST) {
    context.out.push(
      invalid("messages", `too many images and documents: ${context.mediaCount} > ${MAX_MEDIA_PER_REQUEST} maximum`),
    );
  }
  const many = context.images.length > MANY_IMAGES_THRESHOLD;
  const limit = many ? MAX_IMAGE_DIMENSION_MANY : MAX_IMAGE_DIMENSION;
  for (const image of context.images) {
    if (image.width > limit || image.height > limit) {
      const reason = many ? "for many-image requests" : "";
      context.out.push(
        invalid(
          `${image.path}.source.base64.data`,
          `At least one of the image dimensions exceed max allowed size ${reason}: ${limit} pixels`.replace("  ", " "),
        ),
      );
    }
  }
}

function checkContextWindow(request: EmulatorRequest, options: ValidateOptions, out: Violation[]): void {
  const window = options.contextWindow ?? modelLimits(request.model).contextWindow;
  const tokens = (options.ruler ?? TokenRuler.unscaled).request(request);
  if (tokens > window) {
    out.push(invalid("", `prompt is too long: ${tokens} tokens > ${window} maximum`));
    return;
  }
  const maxTokens = request.max_tokens;
  // Older models answered this error; current ones accept and may stop with model_context_window_exceeded.
  if (!options.rejectInputPlusMaxTokens) return;
  if ((options.endpoint ?? "messages") === "messages" && typeof maxTokens === "number" && tokens + maxTokens > window) {
    out.push(
      invalid(
        "",
        `input length and \`max_tokens\` exceed context limit: ${tokens} + ${maxTokens} > ${window}, decrease input length or \`max_tokens\` and try again`,
      ),
    );
  }
}
