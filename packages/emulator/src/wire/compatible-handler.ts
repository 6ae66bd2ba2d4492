/**
 * The parts of `POST /v1/messages` that differ in compatible mode (see `compatible.ts`): what is validated,
 * the overflow check, the usage reported and the tool ids. `messages-handler.ts` calls these when
 * `mode` is "compatible"; everything else (faults, scripted answers, SSE) is shared.
 */
import type { ServerResponse } from "node:http";
import { flattenRequest } from "../billing/flatten.js";
import type { AssistantContentBlock } from "../content.js";
import { modelLimits } from "../models.js";
import type { RequestLogEntry } from "../request-log.js";
import type { EmulatorRequest } from "../request-types.js";
import type { EmulatorState } from "../state.js";
import { validateRequest } from "../validator/index.js";
import { isRecord, type Violation } from "../validator/violation.js";
import {
  compatibleErrorReply,
  compatibleOverflow,
  compatibleToolId,
  ignoreUnimplemented,
  stripUnknownFields,
} from "./compatible.js";
import type { ErrorReply } from "./errors.js";
import { sendJson } from "./http-io.js";
import type { ResponseUsage } from "./response.js";

/** The body with what the server ignores taken out, what still breaks the contract, and the overflow if any. */
export interface CompatibleRequest {
  body: unknown;
  violations: Violation[];
  ignored: string[];
  /** Set when the prompt does not fit: the error to send instead of an answer. */
  overflow?: { status: number; body: unknown };
}

/** Reads a request the way llama-server does: ignore the unimplemented, then check the context size. */
export function readCompatibleRequest(body: unknown, bodyBytes: number, state: EmulatorState): CompatibleRequest {
  const settings = state.settings;
  const validate = (candidate: unknown): Violation[] =>
    validateRequest(candidate, {
      bodyBytes,
      maxRequestBytes: settings.maxRequestBytes,
      cacheEditing: false,
      // The window is checked below, in the server's own words.
      contextWindow: Number.MAX_SAFE_INTEGER,
      ...(settings.verifySignatures ? { signatureSecret: settings.signatureSecret } : {}),
    });
  const stripped = stripUnknownFields(ignoreUnimplemented(body), validate);
  const result: CompatibleRequest = { ...stripped };
  const request = stripped.body;
  if (stripped.violations.length === 0 && isRecord(request) && typeof request.model === "string") {
    const tokens = state.ruler.request(request as EmulatorRequest);
    const window = settings.contextWindow ?? modelLimits(request.model).contextWindow;
    // llama.cpp's slot check is `n_tokens >= n_ctx`: a prompt filling the window leaves no room to decode.
    if (tokens >= window) result.overflow = compatibleOverflow(tokens, window);
  }
  return result;
}

/** Sends an error in the server's OpenAI-style envelope. */
export function sendCompatibleError(
  response: ServerResponse,
  reply: ErrorReply | { status: number; body: unknown; message?: string },
  entry: RequestLogEntry,
): void {
  const wire = "body" in reply ? reply : compatibleErrorReply(reply);
  entry.status = wire.status;
  const error = isRecord(wire.body) && isRecord(wire.body.error) ? wire.body.error : {};
  entry.error = { type: String(error.type ?? "error"), message: String(error.message ?? "") };
  sendJson(response, wire.status, wire.body, {
    "request-id": entry.requestId,
    ...("headers" in reply && reply.headers !== undefined ? reply.headers : {}),
  });
}

/** Usage as the server reports it: its prefix cache's counts, or zeros (always, or on streams). */
export function compatibleUsage(
  request: EmulatorRequest,
  outputTokens: number,
  stream: boolean,
  state: EmulatorState,
): ResponseUsage {
  const flat = flattenRequest(request, new Set(), state.ruler);
  const total = flat.reduce((sum, block) => sum + block.tokens, 0);
  const cached = state.prefixCache.measure(flat);
  const mode = state.settings.compatibleUsage;
  // llama-server sends no `cache_creation` breakdown (it writes no Anthropic cache); the wire shape is leaner.
  if (mode === "zero" || (mode === "zero-while-streaming" && stream)) {
    return { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 } as ResponseUsage;
  }
  return {
    input_tokens: total - cached,
    output_tokens: outputTokens,
    cache_read_input_tokens: cached,
  } as ResponseUsage;
}

/** The answer's tool_use ids in the server's own style (no `toolu_` prefix). */
export function withCompatibleToolIds(content: AssistantContentBlock[]): AssistantContentBlock[] {
  return content.map((block) => (block.type === "tool_use" ? { ...block, id: compatibleToolId(block.id) } : block));
}
