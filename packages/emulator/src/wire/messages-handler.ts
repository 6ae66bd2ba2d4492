/**
 * `POST /v1/messages`: faults, validation, context management, cache billing, the scripted answer,
 * and the JSON or SSE response — then one request-log record.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { applyContextManagement } from "../billing/context-management.js";
import { flattenRequest } from "../billing/flatten.js";
import { afterLastCompaction, decideCompaction } from "../billing/server-compaction.js";
import type { AssistantContentBlock } from "../content.js";
import { faultPhase } from "../model/faults.js";
import { cutAtOutputLimit } from "../model/output-limit.js";
import type { FaultKind } from "../model/scenario.js";
import type { ModelReply } from "../model/scripted-model.js";
import { signThinking } from "../model/signature.js";
import {
  bindThinking,
  checksThinkingPrefix,
  checkThinkingPrefixes,
  type InputTransformation,
  prefixMismatchBehavior,
  prefixMismatchMessage,
  setsBlockBinding,
  THINKING_BINDING_BETA,
} from "../model/thinking-binding.js";
import { isKnownModel, modelLimits } from "../models.js";
import type { RequestLogEntry } from "../request-log.js";
import type { EmulatorRequest } from "../request-types.js";
import { deletedReferencesIn } from "../ruler.js";
import type { EmulatorState } from "../state.js";
import { validateRequest } from "../validator/index.js";
import { isRecord } from "../validator/violation.js";
import {
  compatibleUsage,
  readCompatibleRequest,
  sendCompatibleError,
  withCompatibleToolIds,
} from "./compatible-handler.js";
import { type ErrorReply, errorReply } from "./errors.js";
import { betasOf, sendError, sendJson } from "./http-io.js";
import type { ResponseMessage } from "./response.js";
import { buildStreamEvents, encodeEvent, startStream, writeEvents } from "./sse.js";

function beforeFaultReply(kind: FaultKind, state: EmulatorState): ErrorReply {
  switch (kind) {
    case "rate_limit":
      return errorReply(429, "Number of request tokens has exceeded your per-minute rate limit (emulated)", {
        "retry-after": String(state.settings.retryAfterSeconds),
      });
    case "overloaded":
      return errorReply(529, "Overloaded");
    default:
      return errorReply(500, "Internal server error");
  }
}

/** Answers one messages request; `entry` is the partly filled log record, completed here. */
export async function handleMessages(
  request: IncomingMessage,
  response: ServerResponse,
  body: unknown,
  bodyBytes: number,
  entry: RequestLogEntry,
  state: EmulatorState,
): Promise<void> {
  const requestNumber = ++state.messagesRequests;
  entry.messagesRequest = requestNumber;
  entry.stream = isRecord(body) && body.stream === true;
  const compatible = state.settings.mode === "compatible";
  const fail = (reply: ErrorReply): void => {
    if (compatible) {
      sendCompatibleError(response, reply, entry);
      return;
    }
    entry.status = reply.status;
    entry.error = { type: reply.type, message: reply.message };
    sendError(response, reply, entry.requestId);
  };

  const fault = state.faults.decide(requestNumber);
  if (fault !== undefined) {
    entry.fault = fault;
    state.faultsInjected++;
    if (faultPhase(fault) === "before") return fail(beforeFaultReply(fault, state));
  }

  const settings = state.settings;
  const read = compatible ? readCompatibleRequest(body, bodyBytes, state) : undefined;
  if (read !== undefined) body = read.body;
  const violations =
    read?.violations ??
    validateRequest(body, {
      bodyBytes,
      maxRequestBytes: settings.maxRequestBytes,
      cacheEditing: settings.cacheEditing,
      ruler: state.ruler,
      ...(settings.verifySignatures ? { signatureSecret: settings.signatureSecret } : {}),
      ...(settings.contextWindow !== undefined ? { contextWindow: settings.contextWindow } : {}),
      ...(settings.requireBetas ? { betas: betasOf(request) } : {}),
    });
  entry.violations = violations;
  if (read?.overflow !== undefined) {
    sendCompatibleError(response, read.overflow, entry);
    return;
  }
  if (violations.length > 0) state.violationRequests++;
  const usable = isRecord(body) && typeof body.model === "string" && Array.isArray(body.messages);
  const first = violations[0];
  if (first && (!settings.lenient || !usable))
    return fail({ status: first.status, type: first.type, message: first.message });
  const apiRequest = body as EmulatorRequest;
  if (settings.strictModels && !isKnownModel(apiRequest.model)) {
    return fail(errorReply(404, `model: ${apiRequest.model}`));
  }
  const binding = compatible ? undefined : checkBinding(apiRequest, betasOf(request), state);
  if (binding !== undefined && "error" in binding) return fail(binding.error);

  let message: ResponseMessage;
  let partialInputs: ReadonlyMap<number, string> | undefined;
  try {
    // A non-streaming body cut answers for real (the work is done); every other fault gets the default answer.
    const answered = fault === "body_cut" && !entry.stream ? undefined : fault;
    ({ message, partialInputs } = await buildMessage(apiRequest, answered, entry, state, binding));
  } catch (error) {
    // Only reachable in lenient mode with malformed blocks, or from a throwing scenario function.
    return fail(errorReply(500, `emulator could not answer: ${(error as Error).message}`));
  }

  if (!entry.stream) {
    if (fault === "body_cut") return sendHalfBody(response, message, entry);
    if (fault !== undefined) return nonStreamingFault(fault, response, entry, state, fail);
    entry.status = 200;
    sendJson(response, 200, message, { "request-id": entry.requestId });
    return;
  }
  entry.status = 200;
  startStream(response, entry.requestId);
  const events = buildStreamEvents(message, undefined, partialInputs);
  if (fault === undefined) {
    await writeEvents(response, events, state.random);
    response.end();
    return;
  }
  // Mid-stream faults strike after message_start, ping and part of the content.
  const cutAt = Math.max(2, Math.floor(events.length / 2));
  await writeEvents(response, events.slice(0, cutAt), state.random);
  switch (fault) {
    case "connection_cut":
    case "body_cut":
      response.socket?.destroy();
      return;
    case "stream_error":
      response.end(
        encodeEvent({
          event: "error",
          data: {
            type: "error",
            error: { type: "overloaded_error", message: "Overloaded" },
            request_id: entry.requestId,
          },
        }),
      );
      return;
    default:
      return stall(response, state);
  }
}

async function buildMessage(
  apiRequest: EmulatorRequest,
  fault: FaultKind | undefined,
  entry: RequestLogEntry,
  state: EmulatorState,
  binding: BindingOutcome | undefined,
): Promise<{ message: ResponseMessage; partialInputs?: ReadonlyMap<number, string> }> {
  const compatible = state.settings.mode === "compatible";
  // The model sees the request without the thinking blocks the prefix check dropped; it is billed for that.
  const seen = binding?.seen ?? apiRequest;
  // A compaction block sent back replaces everything before it (the public API only; compatible servers have none).
  const effective = compatible ? seen : afterLastCompaction(seen);
  const managed = applyContextManagement(effective, state.ruler);
  const compaction = compatible || fault !== undefined ? undefined : decideCompaction(managed.request, state.ruler);
  const flat = flattenRequest(managed.request, deletedReferencesIn(managed.request), state.ruler);
  const limits = modelLimits(apiRequest.model);
  // A compatible server keeps no Anthropic prompt cache: its own prefix cache reports instead.
  const billed = compatible ? undefined : state.ledger.process(apiRequest.model, flat, limits.minCacheableTokens);
  // Faulted requests never consume a scenario step: they get the default answer.
  // Paused after compacting: the response is the compaction block alone, and no scenario step is taken.
  const paused: ModelReply = { content: [], stopReason: "end_turn", outputTokens: 0, source: "summary" };
  const answer =
    compaction?.pause === true
      ? paused
      : fault === undefined
        ? await state.model.respond(apiRequest, managed.request)
        : state.model.echo(apiRequest);
  // What the window leaves for output (a compatible server answers its own overflow error before this).
  const window = state.settings.contextWindow ?? limits.contextWindow;
  const room = compatible ? undefined : Math.max(1, window - state.ruler.request(apiRequest));
  const cut = cutAtOutputLimit(answer, apiRequest.max_tokens, room, state.ruler);
  if (cut !== undefined && answer.step !== undefined) state.model.rewind(answer.step);
  const reply = cut?.reply ?? answer;
  const shown = thinkingDisplayOmitted(apiRequest) ? omitThinking(reply.content, state) : reply.content;
  const content = compatible ? withCompatibleToolIds(shown) : shown;
  const message: ResponseMessage = {
    id: state.ids.next("msg"),
    type: "message",
    role: "assistant",
    model: apiRequest.model,
    content: compaction === undefined ? content : [compaction.block, ...content],
    stop_reason: compaction?.pause === true ? "compaction" : reply.stopReason,
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage:
      billed === undefined
        ? compatibleUsage(apiRequest, reply.outputTokens, entry.stream, state)
        : {
            ...billed.usage,
            output_tokens: reply.outputTokens,
            service_tier: "standard",
            // Each search the reply ran is billed on its own (SDK `ServerToolUsage`).
            server_tool_use:
              reply.webSearchRequests === undefined
                ? null
                : { web_search_requests: reply.webSearchRequests, web_fetch_requests: 0 },
            inference_geo: typeof apiRequest.inference_geo === "string" ? apiRequest.inference_geo : null,
            speed: apiRequest.speed === "fast" ? "fast" : "standard",
            output_tokens_details: null,
          },
  };
  // The compatible mode is another server: it has no cache diagnostics.
  const diagnostics = compatible ? undefined : state.cacheDiagnostics.diagnose(apiRequest, message.id);
  if (diagnostics !== undefined) message.diagnostics = diagnostics;
  if (compaction !== undefined) {
    const pass = (type: "compaction" | "message", input: number, output: number) => ({
      type,
      input_tokens: input,
      output_tokens: output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      cache_creation: null,
    });
    const iterations = [pass("compaction", compaction.inputTokens, compaction.outputTokens)];
    // The message pass reads the summary and the turn after it, not the history the summary replaced.
    if (!compaction.pause) iterations.push(pass("message", compaction.outputTokens, reply.outputTokens));
    message.usage.iterations = iterations;
    message.usage.output_tokens += compaction.outputTokens;
  }
  if (apiRequest.context_management !== undefined) {
    message.context_management = { applied_edits: managed.appliedEdits };
    entry.appliedEdits = managed.appliedEdits;
  }
  if (binding !== undefined) {
    // Each thinking block carries the record of the prefix it was produced after (the request as sent).
    message.content = bindThinking(apiRequest, message.content, state.settings.signatureSecret);
    if (binding.report) message.input_transformations = binding.transformations;
    entry.inputTransformations = binding.transformations;
  }
  entry.usage = message.usage;
  entry.stopReason = reply.stopReason;
  entry.contentTypes = content.map((block) => block.type);
  entry.source = reply.source;
  if (reply.step !== undefined) entry.step = reply.step;
  if (reply.rereadFiles !== undefined) entry.rereadFiles = reply.rereadFiles;
  if (reply.lostFacts !== undefined) entry.lostFacts = reply.lostFacts;
  if (billed !== undefined) entry.cacheReadBlocks = billed.readBlocks;
  return cut === undefined ? { message } : { message, partialInputs: cut.partialInputs };
}

function nonStreamingFault(
  fault: FaultKind,
  response: ServerResponse,
  entry: RequestLogEntry,
  state: EmulatorState,
  fail: (reply: ErrorReply) => void,
): void {
  if (fault === "connection_cut") {
    entry.status = 0;
    response.socket?.destroy();
  } else if (fault === "stall") {
    entry.status = 0;
    stall(response, state);
  } else fail(errorReply(500, "Internal server error"));
}

/** 200 with the whole body's length, half the body, then the connection dropped (the `body_cut` fault). */
function sendHalfBody(response: ServerResponse, message: ResponseMessage, entry: RequestLogEntry): void {
  const bytes = Buffer.from(JSON.stringify(message));
  entry.status = 200;
  response.writeHead(200, {
    "content-type": "application/json",
    "content-length": String(bytes.length),
    "request-id": entry.requestId,
  });
  response.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => response.socket?.destroy());
}

/** Keeps the connection open and silent until the client leaves, `stallMs` passes, or the emulator closes. */
function stall(response: ServerResponse, state: EmulatorState): Promise<void> {
  return new Promise((resolve) => {
    const release = (): void => {
      clearTimeout(timer);
      state.stalls.delete(release);
      response.socket?.destroy();
      resolve();
    };
    const timer = setTimeout(release, state.settings.stallMs);
    state.stalls.add(release);
    response.on("close", release);
  });
}

/** What the prefix check decided for a request to a model that binds thinking: what the model sees, what was dropped. */
interface BindingOutcome {
  seen: EmulatorRequest;
  transformations: InputTransformation[];
  /** The request sent the binding beta: the response carries `input_transformations`. */
  report: boolean;
}

/**
 * The prefix check (model/thinking-binding.ts): undefined for a model without it; a 400 for a failing block under the
 * default behaviour, or for `block_binding` without its beta; else what the model sees and what was dropped.
 */
function checkBinding(
  apiRequest: EmulatorRequest,
  betas: readonly string[],
  state: EmulatorState,
): BindingOutcome | { error: ErrorReply } | undefined {
  if (!checksThinkingPrefix(apiRequest.model)) return undefined;
  const beta = betas.includes(THINKING_BINDING_BETA);
  if (setsBlockBinding(apiRequest) && !beta && state.settings.requireBetas)
    return {
      error: errorReply(
        400,
        `thinking.block_binding: this field requires the anthropic-beta header "${THINKING_BINDING_BETA}"`,
      ),
    };
  const check = checkThinkingPrefixes(apiRequest, state.settings.signatureSecret);
  const first = check.failed[0];
  if (first !== undefined && prefixMismatchBehavior(apiRequest) === "error")
    return { error: errorReply(400, prefixMismatchMessage(first)) };
  const transformations = check.failed.map(
    (path): InputTransformation => ({ type: "thinking_dropped", path, reason: "prefix_binding_mismatch" }),
  );
  return { seen: check.dropped, transformations, report: beta };
}

/** `thinking.display: "omitted"`: thinking arrives empty, with a signature for the empty text. */
function thinkingDisplayOmitted(request: EmulatorRequest): boolean {
  const thinking = request.thinking as { display?: unknown } | undefined;
  return isRecord(thinking) && thinking.display === "omitted";
}

function omitThinking(content: readonly AssistantContentBlock[], state: EmulatorState): AssistantContentBlock[] {
  return content.map((block) =>
    block.type === "thinking"
      ? { ...block, thinking: "", signature: signThinking("", state.settings.signatureSecret) }
      : block,
  );
}
