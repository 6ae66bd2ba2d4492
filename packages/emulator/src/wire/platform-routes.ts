/**
 * The cloud platforms' Messages endpoints on the emulator, translated onto the one Messages handler:
 * - Vertex AI: `POST [/v1]/projects/{p}/locations/{r}/publishers/anthropic/models/{model}:streamRawPredict`
 *   and `:rawPredict`; the body carries `anthropic_version` and no `model`.
 * - Bedrock: `POST /model/{modelId}/invoke` and `/invoke-with-response-stream`; the body carries
 *   `anthropic_version` (and betas in `anthropic_beta`) but neither `model` nor `stream`.
 * Any signature or token is accepted (the request must carry one); everything after the translation —
 * faults, validation, context management, the cache ledger, the scripted model, the log — is shared.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestLogEntry } from "../request-log.js";
import type { EmulatorState } from "../state.js";
import { isRecord } from "../validator/violation.js";
import { BEDROCK_ANTHROPIC_VERSION, bedrockTranscoder } from "./bedrock-wire.js";
import { errorReply } from "./errors.js";
import { header, readBody, sendError } from "./http-io.js";
import { handleMessages } from "./messages-handler.js";
import { type Transcoder, transcodingResponse } from "./transcoding-response.js";
import { VERTEX_ANTHROPIC_VERSION, vertexTranscoder } from "./vertex-wire.js";

/** A recognized platform request. */
export interface PlatformRoute {
  platform: "bedrock" | "vertex";
  /** The model id from the path, decoded (`us.anthropic.claude-…-v1:0`, `claude-…@20250929`). */
  modelId: string;
  stream: boolean;
  /** The path's model resource (Vertex) or id (Bedrock), for error messages. */
  resource: string;
}

const VERTEX_PATH =
  /^(?:\/v1)?\/(projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+)):(streamRawPredict|rawPredict)$/;
const BEDROCK_PATH = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;
/** A dated first-party API version (what the SDKs put in the body from their own `anthropic-version`). */
const API_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** The platform route `method path` names, if any. */
export function matchPlatformRoute(method: string, path: string): PlatformRoute | undefined {
  if (method !== "POST") return undefined;
  const vertex = VERTEX_PATH.exec(path);
  if (vertex?.[1] !== undefined && vertex[4] !== undefined) {
    const modelId = safeDecode(vertex[4]);
    return { platform: "vertex", modelId, stream: vertex[5] === "streamRawPredict", resource: safeDecode(vertex[1]) };
  }
  const bedrock = BEDROCK_PATH.exec(path);
  if (bedrock?.[1] !== undefined) {
    const modelId = safeDecode(bedrock[1]);
    return { platform: "bedrock", modelId, stream: bedrock[2] === "invoke-with-response-stream", resource: modelId };
  }
  return undefined;
}

/**
 * The first-party model id behind a platform id, so the model table (limits, cache minimums) applies:
 * `us.anthropic.claude-sonnet-4-5-20250929-v1:0`, `claude-sonnet-4-5@20250929` → `claude-sonnet-4-5-20250929`.
 */
export function firstPartyModel(modelId: string): string {
  const tail = modelId.startsWith("arn:") ? (modelId.split("/").at(-1) ?? modelId) : modelId;
  return tail
    .replace(/^(?:[a-z-]+\.)?anthropic\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace("@", "-");
}

/** Answers one platform request through the Messages handler. */
export async function handlePlatformMessages(
  request: IncomingMessage,
  response: ServerResponse,
  route: PlatformRoute,
  entry: RequestLogEntry,
  state: EmulatorState,
): Promise<void> {
  const transcoder: Transcoder =
    route.platform === "bedrock" ? bedrockTranscoder(entry.requestId) : vertexTranscoder(route.resource);
  const wire = transcodingResponse(response, transcoder);
  const fail = (status: number, message: string, violation = false): void => {
    const reply = errorReply(status, message);
    entry.status = status;
    entry.error = { type: reply.type, message };
    if (violation) {
      entry.violations = [{ status: 400, type: reply.type, message }];
      state.violationRequests++;
    }
    sendError(wire, reply, entry.requestId);
  };
  // Any SigV4 signature, bearer token or Bedrock API key will do; an unsigned request will not.
  if (header(request, "authorization") === undefined) {
    request.resume();
    return fail(route.platform === "bedrock" ? 403 : 401, "Missing Authentication Token");
  }
  const read = await readBody(request, state.settings.maxRequestBytes);
  if (read.kind === "too_large") return fail(413, "Request exceeds the maximum allowed number of bytes.");
  let body: unknown;
  try {
    body = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return fail(400, "Malformed input request, please reformat your input and try again.", true);
  }
  if (!isRecord(body)) return fail(400, "Malformed input request: #: expected type: JSONObject", true);
  const problem = platformBodyProblem(route, body);
  if (problem !== undefined) return fail(400, problem, true);

  const { anthropic_version: _version, anthropic_beta: betas, ...rest } = body;
  if (route.platform === "bedrock" && Array.isArray(betas)) {
    // The handler reads betas from the header, where the first-party API carries them.
    request.headers["anthropic-beta"] = betas.filter((beta) => typeof beta === "string").join(",");
  }
  const messagesBody = { ...rest, model: firstPartyModel(route.modelId), stream: route.stream };
  return handleMessages(request, wire, messagesBody, read.bytes.length, entry, state);
}

/** What the platform would refuse about the body's platform-specific fields, in its own words. */
function platformBodyProblem(route: PlatformRoute, body: Record<string, unknown>): string | undefined {
  const version = body.anthropic_version;
  if (typeof version !== "string" || version === "") {
    return "Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.";
  }
  const expected = route.platform === "bedrock" ? BEDROCK_ANTHROPIC_VERSION : VERTEX_ANTHROPIC_VERSION;
  if (version !== expected && !API_VERSION.test(version)) {
    return `anthropic_version: unknown version "${version}" (expected "${expected}")`;
  }
  if (route.platform === "bedrock") {
    for (const key of ["model", "stream"]) {
      if (key in body)
        return `Malformed input request: #: extraneous key [${key}] is not permitted, please reformat your input and try again.`;
    }
    if (body.anthropic_beta !== undefined && !Array.isArray(body.anthropic_beta)) {
      return "Malformed input request: #/anthropic_beta: expected type: JSONArray";
    }
  } else {
    if ("model" in body) return "model: the model is named in the URL, not the body";
    if (body.stream === true && !route.stream) return "stream: true requires :streamRawPredict";
  }
  return undefined;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
