/**
 * `--provider openai-compatible`: the same pipeline on a server that speaks OpenAI's `/v1/chat/completions`
 * (llama.cpp, vLLM, Ollama, LM Studio, OpenRouter, LiteLLM), on the official `openai` package. The assembled
 * Messages request is translated once (openai-request.ts), the chunks back into the Messages API's stream events
 * (openai-stream.ts), and from there everything is shared with the Anthropic path: the one stream reducer, the
 * retry loop (a stream cut after a complete tool call is never resent), error classification by the same table
 * (context overflows of llama.cpp, vLLM and Ollama included: overflow-patterns.ts).
 */
import OpenAI, { APIConnectionError, APIError } from "openai";
import type { AssistantContentBlock, StopReason, Usage } from "../messages/index.js";
import type { AssembledRequest } from "../request/index.js";
import { namedServerProfile, PLACEHOLDER_API_KEY } from "./capabilities.js";
import { causeChain, classifyError, providerErrorFromFacts } from "./classify.js";
import type { ErrorFacts, ProviderError } from "./errors.js";
import {
  declaredWindow,
  OPENAI_COMPATIBLE_CAPABILITIES,
  OPENAI_SERVER_PROFILES,
  type OpenAIServerProfile,
  openAIServerProfile,
} from "./openai-profiles.js";
import { chatCompletionsRequest } from "./openai-request.js";
import { ChatStreamTranslator } from "./openai-stream.js";
import { runWithRetries, type Sleep, sleepWithSignal, throwIfAborted } from "./retry-loop.js";
import { DEFAULT_MAX_RETRIES } from "./retry-policy.js";
import {
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_STREAM_IDLE_TIMEOUT_MS,
  nonEmpty,
  type SdkProviderOptions,
} from "./sdk-provider.js";
import { StreamAccumulator, streamError } from "./stream-accumulator.js";
import type { CompletedMessage, Provider, ProviderCapabilities, ProviderEvent, StreamOptions } from "./types.js";

/** The environment variables this provider reads (the names OpenAI's own tools use). */
export const OPENAI_ENV = { baseURL: "OPENAI_BASE_URL", apiKey: "OPENAI_API_KEY" } as const;

export interface OpenAICompatibleProviderOptions extends SdkProviderOptions {
  /** Default: `OPENAI_BASE_URL`, else the profile's default (llama.cpp, vLLM, Ollama, LM Studio). */
  baseURL?: string;
  /** Default: `OPENAI_API_KEY`; without one a placeholder goes out (local servers ignore it). */
  apiKey?: string;
  /** Default: THREADLINE_SERVER_PROFILE, else `openai-compatible`. */
  profile?: OpenAIServerProfile;
  /** Per-feature declarations over the profile. Default none. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Where variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** The fetch the SDK uses (tests). Default: the global one. */
  fetch?: typeof fetch;
}

export class OpenAICompatibleProvider implements Provider {
  readonly name = "openai-compatible";
  readonly profile: OpenAIServerProfile;
  readonly baseURL: string;
  readonly capabilities: ProviderCapabilities;
  readonly fallbackModel: string | undefined;
  private readonly secrets: string[];
  private readonly sdk: OpenAI;
  private readonly maxRetries: number;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly idleTimeoutMs: number;
  private readonly placeholderKey: boolean;

  constructor(options: OpenAICompatibleProviderOptions = {}) {
    const env = options.env ?? process.env;
    this.profile = options.profile ?? openAIServerProfile(namedServerProfile(env));
    const info = OPENAI_SERVER_PROFILES[this.profile];
    const baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env[OPENAI_ENV.baseURL]) ?? info.defaultBaseURL;
    if (baseURL === undefined) {
      throw new Error(
        `--provider openai-compatible needs a server: pass --base-url URL (or set ${OPENAI_ENV.baseURL}), or name a THREADLINE_SERVER_PROFILE with a default (llama.cpp, vllm, ollama, lmstudio)`,
      );
    }
    this.baseURL = baseURL;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env[OPENAI_ENV.apiKey]);
    this.secrets = apiKey === undefined ? [] : [apiKey];
    this.placeholderKey = apiKey === undefined;
    this.capabilities = { ...OPENAI_COMPATIBLE_CAPABILITIES, ...options.capabilities };
    this.fallbackModel = options.fallbackModel;
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.sleep = options.sleep ?? sleepWithSignal;
    this.random = options.random ?? Math.random;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    this.sdk = new OpenAI({
      apiKey: apiKey ?? PLACEHOLDER_API_KEY,
      baseURL,
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      logLevel: "off",
      fetch: errorEnvelopeFetch(options.fetch ?? fetch),
    });
  }

  stream(request: AssembledRequest, options: StreamOptions = {}): AsyncIterable<ProviderEvent> {
    return runWithRetries(request, options, this.retrySettings(), (attempt) => this.streamAttempt(attempt, options));
  }

  /** A one-shot call is the stream collected (these servers answer both the same way). */
  async complete(request: AssembledRequest, options: StreamOptions = {}): Promise<CompletedMessage> {
    let blocks: AssistantContentBlock[] = [];
    let end: { id: string; model: string; stopReason: StopReason | null; usage: Usage } | undefined;
    for await (const event of this.stream(request, options)) {
      if (event.type === "retry") {
        blocks = [];
        options.onRetry?.(event);
      } else if (event.type === "block_end") blocks.push(event.block);
      else if (event.type === "message_end") {
        end = { id: event.messageId, model: event.model, stopReason: event.stopReason, usage: event.usage };
      }
    }
    if (end === undefined) throw streamError("the response ended without a finish reason");
    return { ...end, content: blocks };
  }

  /**
   * The context window the server declares for `model`, where its profile says it declares one (llama.cpp's
   * `/props`, vLLM's `/v1/models`, Ollama's `/api/show`); undefined when it declares none or cannot be asked.
   * Never a guess from the model's name.
   */
  async declaredContextWindow(model: string, options: { signal?: AbortSignal } = {}): Promise<number | undefined> {
    const declaration = OPENAI_SERVER_PROFILES[this.profile].windowDeclaration;
    const root = this.baseURL.replace(/\/+$/, "").replace(/\/v1$/, "");
    const ask = (): Promise<unknown> | undefined => {
      switch (declaration.kind) {
        case "llama.cpp-props":
          return this.sdk.get(`${root}/props`, options);
        case "vllm-models":
          return this.sdk.get("/models", options);
        case "ollama-show":
          return this.sdk.post(`${root}/api/show`, { body: { model }, ...options });
        case "none":
          return undefined;
        default: {
          const unknown: never = declaration;
          throw new Error(`unknown window declaration ${JSON.stringify(unknown)}`);
        }
      }
    };
    try {
      const answer = await ask();
      return answer === undefined ? undefined : declaredWindow(declaration, answer, model);
    } catch {
      return undefined;
    }
  }

  private retrySettings() {
    return {
      maxRetries: this.maxRetries,
      fallbackModel: this.fallbackModel,
      sleep: this.sleep,
      random: this.random,
      secrets: this.secrets,
      endpoint: this.baseURL,
      placeholderKey: this.placeholderKey,
    };
  }

  private async *streamAttempt(
    request: AssembledRequest,
    options: StreamOptions,
  ): AsyncGenerator<ProviderEvent, void, undefined> {
    throwIfAborted(options.signal);
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    let idleTimer: NodeJS.Timeout | undefined;
    let idleFired = false;
    const disarm = (): void => clearTimeout(idleTimer);
    const arm = (): void => {
      disarm();
      idleTimer = setTimeout(() => {
        idleFired = true;
        controller.abort();
      }, this.idleTimeoutMs);
    };
    let iterator: AsyncIterator<OpenAI.Chat.Completions.ChatCompletionChunk> | undefined;
    try {
      arm();
      const { data, request_id } = await this.sdk.chat.completions
        .create(chatCompletionsRequest(request.body), { signal: controller.signal })
        .withResponse()
        .catch((error: unknown) => {
          throw this.toProviderError(error);
        });
      const requestId = request_id ?? undefined;
      iterator = data[Symbol.asyncIterator]();
      const translator = new ChatStreamTranslator();
      const accumulator = new StreamAccumulator();
      const deliver = function* (events: ReturnType<ChatStreamTranslator["end"]>) {
        for (const event of events) {
          yield { type: "sse_passthrough", event } as const;
          for (const output of accumulator.push(event)) {
            const withId = output.type === "message_start" || output.type === "message_end";
            yield withId && requestId !== undefined ? { ...output, requestId } : output;
          }
        }
      };
      for (;;) {
        arm();
        const next = await iterator.next().catch((error: unknown) => {
          throw this.toProviderError(error);
        });
        disarm();
        if (next.done === true) break;
        yield* deliver(translator.push(next.value));
      }
      throwIfAborted(options.signal);
      if (idleFired) throw streamError(this.idleMessage());
      yield* deliver(translator.end());
      accumulator.finish();
    } catch (error) {
      if (idleFired && !(options.signal?.aborted ?? false)) throw streamError(this.idleMessage());
      throw error;
    } finally {
      disarm();
      options.signal?.removeEventListener("abort", onAbort);
      if (!controller.signal.aborted) controller.abort();
      await iterator?.return?.().catch(() => undefined);
    }
  }

  private idleMessage(): string {
    return `no response data for ${this.idleTimeoutMs} ms`;
  }

  /** An `openai` SDK error as a `ProviderError`, classified by the same table as every other provider's. */
  private toProviderError(error: unknown): ProviderError {
    if (error instanceof APIConnectionError) {
      const cause = error.cause instanceof Error ? `: ${causeChain(error.cause)}` : "";
      return providerErrorFromFacts(
        { message: `${error.message.replace(/\.$/, "")}${cause}`, network: true },
        {},
        this.secrets,
      );
    }
    if (!(error instanceof APIError) || error.name === "APIUserAbortError") return classifyError(error, this.secrets);
    const body = error.error as { message?: unknown; type?: unknown } | undefined;
    const facts: ErrorFacts = {
      message: typeof body?.message === "string" ? body.message : error.message,
    };
    if (typeof error.status === "number") facts.status = error.status;
    const type = typeof body?.type === "string" ? body.type : undefined;
    const code = typeof error.code === "string" ? error.code : undefined;
    // OpenAI puts the distinctive name in `code` (context_length_exceeded), llama.cpp in `type`.
    const errorType = code === "context_length_exceeded" ? code : (type ?? code);
    if (errorType !== undefined) facts.errorType = errorType;
    return providerErrorFromFacts(
      facts,
      {
        headers: error.headers,
        body: error.error,
        ...(typeof error.requestID === "string" ? { requestId: error.requestID } : {}),
      },
      this.secrets,
    );
  }
}

/**
 * A fetch that puts an error body without an `error` key (vLLM's older `{"object":"error","message":…}`, a proxy's
 * `{"detail":…}`) under `error`, where the `openai` SDK looks, so its wording reaches the classifier.
 */
function errorEnvelopeFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    if (response.ok) return response;
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = undefined;
    }
    const wrapped =
      typeof body === "object" && body !== null && "error" in body
        ? text
        : JSON.stringify({ error: { message: typeof body === "object" && body !== null ? messageOf(body) : text } });
    return new Response(wrapped, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}

function messageOf(body: object): string {
  const record = body as Record<string, unknown>;
  for (const key of ["message", "detail"]) if (typeof record[key] === "string") return record[key] as string;
  return JSON.stringify(body);
}
