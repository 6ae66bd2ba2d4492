import { createHash } from "node:crypto";
/**
 * `startEmulator`: a node:http server on loopback speaking the Messages API — routes, auth and the
 * `anthropic-version` check, count_tokens and models, the request log, and a clean close.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { CacheDiagnostics } from "./billing/cache-diagnostics.js";
import { applyContextManagement } from "./billing/context-management.js";
import { CacheLedger } from "./billing/ledger.js";
import { FaultPlan } from "./model/faults.js";
import { IdGenerator, seededRandom } from "./model/random.js";
import { loadScenarioFile, type ScenarioStep } from "./model/scenario.js";
import { ScriptedModel } from "./model/scripted-model.js";
import { DEFAULT_SIGNATURE_SECRET } from "./model/signature.js";
import { effortLevels, KNOWN_MODEL_IDS, modelLimits } from "./models.js";
import {
  CACHE_EDITING_FEATURE,
  DEFAULT_RETRY_AFTER_SECONDS,
  DEFAULT_STALL_MS,
  EMULATOR_FEATURES_HEADER,
  type EmulatorOptions,
} from "./options.js";
import { RequestLog, type RequestLogEntry } from "./request-log.js";
import type { EmulatorRequest } from "./request-types.js";
import { TokenRuler } from "./ruler.js";
import type { EmulatorState } from "./state.js";
import { DEFAULT_MAX_REQUEST_BYTES, validateRequest } from "./validator/index.js";
import { DEFAULT_COMPATIBLE_USAGE, DEFAULT_EMULATOR_MODE, PrefixCache } from "./wire/compatible.js";
import { errorReply } from "./wire/errors.js";
import { apiKeyOf, betasOf, header, isLoopback, readBody, sendError, sendJson } from "./wire/http-io.js";
import { handleMessages } from "./wire/messages-handler.js";
import { handleChatCompletions } from "./wire/openai-chat.js";
import { handlePlatformMessages, matchPlatformRoute } from "./wire/platform-routes.js";

/** Counts since start. */
export interface EmulatorStats {
  requests: number;
  messagesRequests: number;
  /** Requests that broke at least one contract rule (rejected, or recorded in lenient mode). */
  violations: number;
  faults: number;
  /** Scenario steps not yet consumed. */
  stepsRemaining: number;
  /** `Read` calls the scripted model made because a step's need was not visible in the effective request. */
  rereads: number;
  /** Needs still invisible after DEFAULT_MAX_REREADS re-reads. */
  factsLost: number;
}

export interface Emulator {
  /** Base URL, e.g. "http://127.0.0.1:PORT" (pass as the SDK's baseURL). */
  url: string;
  port: number;
  /** Stops listening and drops open connections (stalled streams included). */
  close(): Promise<void>;
  /** The prompt-cache ledger. */
  ledger: CacheLedger;
  /** Every request record, in order. */
  requests: RequestLogEntry[];
  /** Emulator-only features in force (announced in `x-emulator-features`); empty means the public API. */
  features: readonly string[];
  stats(): EmulatorStats;
}

/** Starts an emulator; resolves once it listens. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const host = options.host ?? "127.0.0.1";
  if (!isLoopback(host)) throw new Error(`emulator binds to loopback only; refused host ${host}`);
  const steps: ScenarioStep[] = [...(options.scenario ?? [])];
  const faults = [...(options.faults ?? [])];
  if (options.scenarioFile !== undefined) {
    const file = await loadScenarioFile(options.scenarioFile);
    steps.push(...file.turns);
    faults.push(...(file.faults ?? []));
  }
  // Ids differ per run, as the API's do, unless the caller asks for a seed.
  const seed = options.seed ?? (Date.now() ^ (process.pid << 16)) >>> 0;
  const cacheEditing = options.cacheEditing ?? false;
  const now = options.now ?? Date.now;
  const ids = new IdGenerator(seed);
  const signatureSecret = options.signatureSecret ?? DEFAULT_SIGNATURE_SECRET;
  const ruler = new TokenRuler(options.tokenRatio ?? 1);
  const state: EmulatorState = {
    ledger: new CacheLedger(now),
    cacheDiagnostics: new CacheDiagnostics(undefined, ruler),
    log: new RequestLog(options.logPath),
    model: new ScriptedModel(steps, {
      signatureSecret,
      ids,
      sideRequestsWithoutTools: options.sideRequestsWithoutTools ?? true,
      ruler,
      ...(options.webSearchCorpus !== undefined ? { webSearchCorpus: options.webSearchCorpus } : {}),
    }),
    faults: new FaultPlan(faults),
    ids,
    random: seededRandom(seed),
    now,
    ruler,
    settings: {
      lenient: options.lenient ?? false,
      retryAfterSeconds: options.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS,
      contextWindow: options.contextWindow,
      maxRequestBytes: options.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
      apiKey: options.apiKey,
      cacheEditing,
      signatureSecret,
      verifySignatures: options.verifySignatures ?? true,
      strictModels: options.strictModels ?? false,
      requireBetas: options.requireBetas ?? true,
      stallMs: options.stallMs ?? DEFAULT_STALL_MS,
      mode: options.mode ?? DEFAULT_EMULATOR_MODE,
      compatibleUsage: options.compatibleUsage ?? DEFAULT_COMPATIBLE_USAGE,
    },
    features: cacheEditing ? [CACHE_EDITING_FEATURE] : [],
    prefixCache: new PrefixCache(),
    messagesRequests: 0,
    violationRequests: 0,
    faultsInjected: 0,
    stalls: new Set(),
  };

  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(request, response, state).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, errorReply(500, String(error)), "req_emulator_internal");
      else response.destroy();
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    url: `http://${urlHost}:${address.port}`,
    port: address.port,
    ledger: state.ledger,
    requests: state.log.entries,
    features: state.features,
    stats: () => ({
      requests: state.log.entries.length,
      messagesRequests: state.messagesRequests,
      violations: state.violationRequests,
      faults: state.faultsInjected,
      stepsRemaining: state.model.remaining(),
      rereads: state.model.rereads,
      factsLost: state.model.factsLost,
    }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const release of [...state.stalls]) release();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function handle(request: IncomingMessage, response: ServerResponse, state: EmulatorState): Promise<void> {
  const started = performance.now();
  const path = (request.url ?? "/").split("?")[0] ?? "/";
  const method = request.method ?? "GET";
  const entry: RequestLogEntry = {
    index: state.log.entries.length + 1,
    method,
    path,
    receivedAt: state.now(),
    durationMs: 0,
    requestId: state.ids.next("req"),
    status: 0,
    stream: false,
    violations: [],
    headers: loggedHeaders(request),
    validation: state.settings.lenient ? "lenient" : "strict",
    features: [...state.features],
  };
  if (state.features.length > 0) response.setHeader(EMULATOR_FEATURES_HEADER, state.features.join(","));
  try {
    await route(request, response, path, method, entry, state);
  } finally {
    entry.durationMs = performance.now() - started;
    state.log.add(entry);
  }
}

async function route(
  request: IncomingMessage,
  response: ServerResponse,
  path: string,
  method: string,
  entry: RequestLogEntry,
  state: EmulatorState,
): Promise<void> {
  const fail = (status: number, message: string): void => {
    const reply = errorReply(status, message);
    entry.status = status;
    entry.error = { type: reply.type, message };
    sendError(response, reply, entry.requestId);
  };
  const platform = matchPlatformRoute(method, path);
  if (platform !== undefined) return handlePlatformMessages(request, response, platform, entry, state);
  if (method === "POST" && path === "/v1/chat/completions")
    return handleChatCompletions(request, response, entry, state);
  const isMessages = method === "POST" && path === "/v1/messages";
  const isCount = method === "POST" && path === "/v1/messages/count_tokens";
  const isModels = method === "GET" && (path === "/v1/models" || path.startsWith("/v1/models/"));
  if (!isMessages && !isCount && !isModels) {
    request.resume();
    return fail(404, `Not found: ${method} ${path}`);
  }
  const key = apiKeyOf(request);
  if (key === undefined) return fail(401, "x-api-key header is required");
  if (state.settings.apiKey !== undefined && key !== state.settings.apiKey) return fail(401, "invalid x-api-key");
  if (header(request, "anthropic-version") === undefined) return fail(400, "anthropic-version: header is required");
  if (isModels) return answerModels(response, request.url ?? path, path, entry, fail);

  const read = await readBody(request, state.settings.maxRequestBytes);
  if (read.kind === "too_large") return fail(413, "Request exceeds the maximum allowed number of bytes.");
  entry.bodySha256 = createHash("sha256").update(read.bytes).digest("hex");
  let body: unknown;
  try {
    body = JSON.parse(read.bytes.toString("utf8"));
  } catch {
    return fail(400, "The request body is not valid JSON.");
  }
  entry.body = body;
  if (isMessages) return handleMessages(request, response, body, read.bytes.length, entry, state);

  const violations = validateRequest(body, {
    endpoint: "count_tokens",
    bodyBytes: read.bytes.length,
    maxRequestBytes: state.settings.maxRequestBytes,
    cacheEditing: state.settings.cacheEditing,
    ruler: state.ruler,
    ...(state.settings.contextWindow !== undefined ? { contextWindow: state.settings.contextWindow } : {}),
    ...(state.settings.requireBetas ? { betas: betasOf(request) } : {}),
  });
  entry.violations = violations;
  const first = violations[0];
  if (first) {
    state.violationRequests++;
    if (!state.settings.lenient) {
      entry.status = first.status;
      entry.error = { type: first.type, message: first.message };
      return sendError(response, { status: first.status, type: first.type, message: first.message }, entry.requestId);
    }
  }
  const managed = applyContextManagement(body as EmulatorRequest, state.ruler);
  entry.status = 200;
  sendJson(response, 200, { input_tokens: state.ruler.request(managed.request) }, { "request-id": entry.requestId });
}

/** Dates the emulator gives models (fixed: ids are what clients compare). */
const MODEL_CREATED_AT = "2025-01-01T00:00:00Z";
/** Page size of `GET /v1/models` without `limit` (the API's default). */
export const DEFAULT_MODELS_PAGE_SIZE = 20;
/** Largest `limit` `GET /v1/models` accepts. */
export const MAX_MODELS_PAGE_SIZE = 1000;

/** A `ModelInfo` as the SDK types it. */
function describeModel(id: string) {
  const limits = modelLimits(id);
  return {
    type: "model",
    id,
    display_name: id,
    created_at: MODEL_CREATED_AT,
    max_input_tokens: limits.contextWindow,
    max_tokens: limits.maxOutputTokens,
    lifecycle: "active",
    deprecated_at: null,
    retires_at: null,
    line: null,
    // Only what the emulator knows per model: the effort levels it takes (the SDK's `EffortCapability`).
    capabilities: { effort: describeEffort(id) },
  };
}

/** The SDK's `EffortCapability` for `id`, from the emulator's effort table. */
function describeEffort(id: string) {
  const levels = effortLevels(id);
  const each = (level: string) => ({ supported: levels.includes(level) });
  return {
    supported: levels.length > 0,
    low: each("low"),
    medium: each("medium"),
    high: each("high"),
    xhigh: each("xhigh"),
    max: each("max"),
  };
}

function answerModels(
  response: ServerResponse,
  url: string,
  path: string,
  entry: RequestLogEntry,
  fail: (status: number, message: string) => void,
): void {
  if (path !== "/v1/models") {
    const id = decodeURIComponent(path.slice("/v1/models/".length));
    if (!KNOWN_MODEL_IDS.includes(id)) fail(404, `model: ${id}`);
    else {
      entry.status = 200;
      sendJson(response, 200, describeModel(id), { "request-id": entry.requestId });
    }
    return;
  }
  const query = new URL(url, "http://emulator").searchParams;
  const limitText = query.get("limit");
  const limit = limitText === null ? DEFAULT_MODELS_PAGE_SIZE : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_MODELS_PAGE_SIZE) {
    fail(400, `limit: Input should be an integer between 1 and ${MAX_MODELS_PAGE_SIZE}`);
    return;
  }
  const all = KNOWN_MODEL_IDS;
  const afterId = query.get("after_id");
  const beforeId = query.get("before_id");
  let page: readonly string[];
  let hasMore: boolean;
  if (beforeId !== null) {
    const end = all.indexOf(beforeId);
    if (end < 0) {
      fail(400, `before_id: unknown model ${beforeId}`);
      return;
    }
    const start = Math.max(0, end - limit);
    page = all.slice(start, end);
    hasMore = start > 0;
  } else {
    const start = afterId === null ? 0 : all.indexOf(afterId) + 1;
    if (afterId !== null && start === 0) {
      fail(400, `after_id: unknown model ${afterId}`);
      return;
    }
    page = all.slice(start, start + limit);
    hasMore = start + limit < all.length;
  }
  const data = page.map(describeModel);
  entry.status = 200;
  sendJson(
    response,
    200,
    { data, has_more: hasMore, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null },
    { "request-id": entry.requestId },
  );
}

/** Headers whose values are credentials: logged as "[scrubbed]". */
const SECRET_HEADER = /authorization|cookie|key|token|secret/i;

/** The request's headers for the log, credentials scrubbed. */
function loggedHeaders(request: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    out[name] = SECRET_HEADER.test(name) ? "[scrubbed]" : Array.isArray(value) ? value.join(", ") : value;
  }
  return out;
}
