/**
 * The part every SDK-backed provider shares: the retry loop, the idle watchdog, the stream accumulator and
 * error classification. A platform (first-party API, Bedrock, Vertex) contributes only its SDK client and
 * the exact request bytes it sends; everything a turn does with the answer is identical across platforms.
 * Retries are ours (`maxRetries: 0` on every client) so they can be observed, injected and superseded.
 */
import type Anthropic from "@anthropic-ai/sdk";
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import type { AssembledRequest } from "../request/index.js";
import { FEATURES_HEADER, parseFeatures, withAnnouncedFeatures } from "./capabilities.js";
import { classifyError } from "./classify.js";
import { completedMessageFrom } from "./completed-message.js";
import { ProviderError } from "./errors.js";
import { runWithRetries, type Sleep, sleepWithSignal, throwIfAborted } from "./retry-loop.js";
import { DEFAULT_MAX_RETRIES } from "./retry-policy.js";
import { StreamAccumulator, streamError } from "./stream-accumulator.js";
import type {
  CompletedMessage,
  Provider,
  ProviderCapabilities,
  ProviderEvent,
  RawStreamEvent,
  StreamOptions,
} from "./types.js";

/** A stream that delivers no event for this long is abandoned and retried (the API pings well within it). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000;

/** Per-request timeout until response headers arrive (the SDK's own default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

/** The slice of an SDK client a provider calls (`Anthropic`, `AnthropicBedrock` and `AnthropicVertex` all have it). */
export interface MessagesClient {
  messages: { create: Anthropic["messages"]["create"] };
}

/** Retry and timeout options every SDK-backed provider takes. */
export interface SdkProviderOptions {
  /** Model used after 3 consecutive overloads. Default: none (the call fails with a clear error). */
  fallbackModel?: string;
  /** Retries after the first attempt. Default: `DEFAULT_MAX_RETRIES` (10). */
  maxRetries?: number;
  /** Waits between retries. Default: a real timer that stops early on abort. */
  sleep?: Sleep;
  /** Jitter source in [0, 1). Default: `Math.random`. */
  random?: () => number;
  /** Time allowed until response headers. Default: `DEFAULT_REQUEST_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Longest silence inside a streaming body before it is retried. Default: `DEFAULT_STREAM_IDLE_TIMEOUT_MS`. */
  idleTimeoutMs?: number;
}

/** The request bytes one attempt sends, with the body object the SDK inspects (model, stream, max_tokens). */
export interface OutgoingRequest<Body> {
  body: Body;
  json: string;
}

export abstract class SdkProvider implements Provider {
  abstract readonly name: string;
  #capabilities: ProviderCapabilities = { cacheEdits: false, contextManagement: false };
  #announced: string[] = [];
  #declared: Partial<ProviderCapabilities> = {};
  /** Strings redacted from every error message (keys, tokens). */
  protected abstract readonly secrets: readonly string[];
  private readonly maxRetries: number;
  readonly fallbackModel: string | undefined;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  protected readonly timeoutMs: number;
  /** The URL an unreachable-endpoint error names. Default: the API's own (set by subclasses with a base URL). */
  protected endpoint: string | undefined;
  /** True when no key was configured and a placeholder went out (an auth failure then says to set one). */
  protected placeholderKey = false;
  private readonly idleTimeoutMs: number;

  protected constructor(options: SdkProviderOptions) {
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.fallbackModel = options.fallbackModel;
    this.sleep = options.sleep ?? sleepWithSignal;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
  }

  /**
   * The SDK client (a promise when the platform SDK is loaded on first use); throws a `ProviderError` of
   * kind `auth` naming what is missing when it cannot be built.
   */
  protected abstract client(): MessagesClient | Promise<MessagesClient>;

  /** The streaming request as this platform sends it. */
  protected abstract streamingRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsStreaming>;

  /** The one-shot (non-streaming) request as this platform sends it. */
  protected abstract oneShotRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsNonStreaming>;

  /**
   * Sets the starting capabilities: `base` (a profile) under `declared` (explicit per-feature declarations,
   * which also win over what the server announces later). Subclasses call it once from their constructor.
   */
  protected initCapabilities(base: Readonly<ProviderCapabilities>, declared: Partial<ProviderCapabilities>): void {
    this.#declared = { ...declared };
    this.#capabilities = withAnnouncedFeatures({ ...base, ...declared }, this.#announced, this.#declared);
  }

  /** What this server accepts now: the profile, declarations, and what it has announced. */
  get capabilities(): ProviderCapabilities {
    return this.#capabilities;
  }

  /** Features the server announced in `x-emulator-features` so far this session. */
  get announcedFeatures(): readonly string[] {
    return this.#announced;
  }

  adoptFeatures(features: readonly string[]): void {
    const added = features.filter((feature) => !this.#announced.includes(feature));
    if (added.length === 0) return;
    this.#announced = [...this.#announced, ...added];
    this.#capabilities = withAnnouncedFeatures(this.#capabilities, this.#announced, this.#declared);
  }

  /**
   * Reads a response's feature announcement (`x-emulator-features`). Every platform's responses go through
   * here; only threadline's emulator sends the header, so elsewhere it changes nothing.
   */
  private observe(response: Response): void {
    const features = parseFeatures(response.headers.get(FEATURES_HEADER));
    if (features.length > 0) this.adoptFeatures(features);
  }

  stream(request: AssembledRequest, options: StreamOptions = {}): AsyncIterable<ProviderEvent> {
    return runWithRetries(request, options, this.retrySettings(), (attemptRequest) =>
      this.streamAttempt(attemptRequest, options),
    );
  }

  async complete(request: AssembledRequest, options: StreamOptions = {}): Promise<CompletedMessage> {
    const run = runWithRetries(request, options, this.retrySettings(), (attemptRequest) =>
      this.completeAttempt(attemptRequest, options.signal),
    );
    for (;;) {
      const next = await run.next();
      if (next.done === true) return next.value;
      if (next.value.type === "retry") options.onRetry?.(next.value);
    }
  }

  private retrySettings() {
    return {
      maxRetries: this.maxRetries,
      fallbackModel: this.fallbackModel,
      sleep: this.sleep,
      random: this.random,
      secrets: this.secrets,
      ...(this.endpoint !== undefined ? { endpoint: this.endpoint } : {}),
      placeholderKey: this.placeholderKey,
    };
  }

  private async *streamAttempt(
    request: AssembledRequest,
    options: StreamOptions,
  ): AsyncGenerator<ProviderEvent, void, undefined> {
    const client = await this.client();
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
    let iterator: AsyncIterator<unknown> | undefined;
    try {
      const outgoing = this.streamingRequest(request);
      const { data, request_id, response } = await client.messages
        .create(outgoing.body, { signal: controller.signal, ...this.exactBody(outgoing.json, request.betas) })
        .withResponse();
      this.observe(response);
      const requestId = request_id ?? undefined;
      iterator = data[Symbol.asyncIterator]();
      const accumulator = new StreamAccumulator();
      for (;;) {
        // The watchdog only runs while we wait on the network, never while the consumer holds an event. The SDK
        // drops `ping` events before they reach us, so a server that only pings still ends in a retry.
        arm();
        const next = await iterator.next();
        disarm();
        if (next.done === true) break;
        const event = next.value as RawStreamEvent;
        yield { type: "sse_passthrough", event };
        for (const output of accumulator.push(event)) {
          // The server's request id (a response header) goes with the message's start and end.
          const withId = output.type === "message_start" || output.type === "message_end";
          yield withId && requestId !== undefined ? { ...output, requestId } : output;
        }
      }
      // The SDK ends the iteration quietly on abort; say why it ended.
      throwIfAborted(options.signal);
      if (idleFired) throw streamError(this.idleMessage());
      accumulator.finish();
    } catch (error) {
      if (idleFired && !(options.signal?.aborted ?? false)) throw streamError(this.idleMessage());
      throw error;
    } finally {
      disarm();
      options.signal?.removeEventListener("abort", onAbort);
      // Leaving early (consumer break, error) must cancel the HTTP request.
      if (!controller.signal.aborted) controller.abort();
      await iterator?.return?.().catch(() => undefined);
    }
  }

  private idleMessage(): string {
    return `no response data for ${this.idleTimeoutMs} ms (keep-alive pings do not count)`;
  }

  // biome-ignore lint/correctness/useYield: an Attempt is a generator; a one-shot call has no events to yield.
  private async *completeAttempt(
    request: AssembledRequest,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderEvent, CompletedMessage, undefined> {
    const client = await this.client();
    throwIfAborted(signal);
    const outgoing = this.oneShotRequest(request);
    // `.asResponse()` and `maxRetries: 0`: the SDK (1.17 on) would otherwise send the POST again by itself when the
    // body is cut after a 2xx, repeating work the server already did (docs/EXACTLY-ONCE.md, "Side requests").
    const response = await client.messages
      .create(outgoing.body, {
        ...(signal !== undefined ? { signal } : {}),
        ...this.exactBody(outgoing.json, request.betas),
        timeout: this.timeoutMs,
        maxRetries: 0,
      })
      .asResponse();
    this.observe(response);
    let text: string;
    try {
      text = await response.text();
    } catch (error) {
      throw answeredButCut(request, error);
    }
    return completedMessageFrom(parseJson(text));
  }

  /**
   * Request options that make the SDK send `json` byte for byte: a string body passes through unchanged when
   * a content-type header is set (the SDK's documented raw-body path). Betas go in `anthropic-beta` (the
   * platform SDKs move them into the body where their wire shape wants them); a server that takes no betas
   * gets no `anthropic-beta` header.
   */
  private exactBody(json: string, betas: readonly string[]): { body: string; headers: Record<string, string> } {
    const sent = this.#capabilities.betas === false ? [] : betas;
    return { body: json, headers: { "content-type": "application/json", ...betaHeaders(sent).headers } };
  }
}

/**
 * A non-streaming response whose body was cut after the server answered 2xx: the server did the work. Sent again
 * only when that repeats nothing but tokens; a request carrying server tools (a web search, billed per search)
 * is not, so each search runs once and the caller gets one line instead of a second bill.
 */
export function answeredButCut(request: AssembledRequest, cause: unknown): ProviderError {
  const tools = (request.body as { tools?: ReadonlyArray<{ type?: unknown }> }).tools ?? [];
  const serverTools = tools.filter((tool) => typeof tool.type === "string" && tool.type !== "custom");
  if (serverTools.length === 0) return classifyError(cause);
  return new ProviderError(
    "connection",
    "The server answered but the connection dropped while its answer was read; not sent again, since its server " +
      `tools (${serverTools.map((tool) => String(tool.type)).join(", ")}) already ran and would run and be billed twice.`,
    { retryable: false },
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw streamError(`malformed message response: not JSON (${text.length} bytes)`);
  }
}

/** `anthropic-beta: a,b`, only when there are betas (an empty header is not the same as none). */
function betaHeaders(betas: readonly string[]): { headers?: Record<string, string> } {
  return betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {};
}

/** `value`, or undefined when it is unset or empty (an empty variable means "not set"). */
export function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
