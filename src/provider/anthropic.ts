/**
 * The Anthropic provider on the official `@anthropic-ai/sdk`. The SDK does HTTP and SSE framing; retries
 * are ours (`maxRetries: 0` on the client) so they can be observed, injected and superseded cleanly.
 */
import Anthropic from "@anthropic-ai/sdk";
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import { checkNever, createAssistantEntry } from "../messages/index.js";
import { serializeStreamingRequest } from "../request/serialize.js";
import type { AssembledRequest } from "../request/types.js";
import {
  capabilitySwitches,
  FEATURES_HEADER,
  PLACEHOLDER_API_KEY,
  PROVIDER_PROFILES,
  type ProviderProfile,
  parseFeatures,
  providerProfile,
  requiresApiKey,
  withAnnouncedFeatures,
} from "./capabilities.js";
import { completedMessageFrom } from "./completed-message.js";
import { runWithRetries, type Sleep, sleepWithSignal, throwIfAborted } from "./retry-loop.js";
import { DEFAULT_MAX_RETRIES } from "./retry-policy.js";
import { type AccumulatorOutput, StreamAccumulator, streamError } from "./stream-accumulator.js";
import {
  type CompletedMessage,
  type Provider,
  type ProviderCapabilities,
  ProviderError,
  type ProviderEvent,
  type RawStreamEvent,
  type StreamOptions,
} from "./types.js";

/** A stream that delivers no event for this long is abandoned and retried (the API pings well within it). */
export const DEFAULT_STREAM_IDLE_TIMEOUT_MS = 90_000;

/** Per-request timeout until response headers arrive (the SDK's own default). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 600_000;

export interface AnthropicProviderOptions {
  /** API key. Default: `ANTHROPIC_API_KEY`; for a non-Anthropic base URL without one, `PLACEHOLDER_API_KEY`. */
  apiKey?: string;
  /** Bearer token, used when there is no API key. Default: `ANTHROPIC_AUTH_TOKEN`. */
  authToken?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else the SDK's `https://api.anthropic.com`. */
  baseURL?: string;
  /** Model used after 3 consecutive overloads. Default: none (the call fails with a clear error). */
  fallbackModel?: string;
  /** Retries after the first attempt. Default: `DEFAULT_MAX_RETRIES` (10). */
  maxRetries?: number;
  /** Waits between retries. Default: a real timer that stops early on abort. */
  sleep?: Sleep;
  /** Jitter source in [0, 1). Default: `Math.random`. */
  random?: () => number;
  /**
   * Capability profile. Default: `THREADLINE_PROVIDER`, else `anthropic` without a base URL or for
   * api.anthropic.com and `compatible` for any other server (see capabilities.ts).
   */
  profile?: ProviderProfile;
  /** Per-feature declarations over the profile (they also win over announcements). Default none. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Time allowed until response headers. Default: `DEFAULT_REQUEST_TIMEOUT_MS`. */
  timeoutMs?: number;
  /** Longest silence inside a streaming body before it is retried. Default: `DEFAULT_STREAM_IDLE_TIMEOUT_MS`. */
  idleTimeoutMs?: number;
  /** Extra headers on every request. Default: none. */
  defaultHeaders?: Record<string, string>;
  /** Where `ANTHROPIC_*` variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

export class AnthropicProvider implements Provider {
  readonly name = "anthropic";
  /** The profile the capabilities started from. */
  readonly profile: ProviderProfile;
  #capabilities: ProviderCapabilities;
  #announced: string[] = [];
  readonly #declared: Partial<ProviderCapabilities>;
  /** The base URL requests go to (undefined: the SDK default). */
  readonly baseURL: string | undefined;
  private readonly client: Anthropic | null;
  private readonly secrets: string[];
  private readonly placeholderKey: boolean;
  private readonly maxRetries: number;
  private readonly fallbackModel: string | undefined;
  private readonly sleep: Sleep;
  private readonly random: () => number;
  private readonly timeoutMs: number;
  private readonly idleTimeoutMs: number;

  constructor(options: AnthropicProviderOptions = {}) {
    const env = options.env ?? process.env;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
    const authToken =
      apiKey === undefined ? (nonEmpty(options.authToken) ?? nonEmpty(env.ANTHROPIC_AUTH_TOKEN)) : undefined;
    this.baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_BASE_URL);
    this.secrets = [apiKey, authToken].filter((secret): secret is string => secret !== undefined);
    this.profile = options.profile ?? providerProfile(this.baseURL, env);
    this.#declared = { ...capabilitySwitches(env), ...options.capabilities };
    this.#capabilities = { ...PROVIDER_PROFILES[this.profile], ...this.#declared };
    this.maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
    this.fallbackModel = options.fallbackModel;
    this.sleep = options.sleep ?? sleepWithSignal;
    this.random = options.random ?? Math.random;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.idleTimeoutMs = options.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_TIMEOUT_MS;
    // A server other than Anthropic's needs no key: send a placeholder (it is not a secret, never scrubbed).
    const placeholder = this.secrets.length === 0 && !requiresApiKey(this.baseURL) ? PLACEHOLDER_API_KEY : undefined;
    this.placeholderKey = placeholder !== undefined;
    // Without a credential the SDK would go looking for profiles on disk; fail clearly at call time instead.
    this.client =
      this.secrets.length === 0 && placeholder === undefined
        ? null
        : new Anthropic({
            ...(apiKey !== undefined || placeholder !== undefined
              ? { apiKey: apiKey ?? placeholder }
              : { authToken: authToken ?? null }),
            ...(this.baseURL !== undefined ? { baseURL: this.baseURL } : {}),
            maxRetries: 0,
            timeout: this.timeoutMs,
            logLevel: "off",
            ...(options.defaultHeaders !== undefined ? { defaultHeaders: options.defaultHeaders } : {}),
          });
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

  private observe(response: Response): void {
    const features = parseFeatures(response.headers.get(FEATURES_HEADER));
    if (features.length > 0) this.adoptFeatures(features);
  }

  stream(request: AssembledRequest, options: StreamOptions): AsyncIterable<ProviderEvent> {
    return runWithRetries(request, options, this.retrySettings(), (attemptRequest, emitted) =>
      this.streamAttempt(attemptRequest, options, emitted),
    );
  }

  async complete(
    request: AssembledRequest,
    options: Omit<StreamOptions, "entryContext"> = {},
  ): Promise<CompletedMessage> {
    const run = runWithRetries(request, options, this.retrySettings(), (attemptRequest) =>
      this.completeAttempt(attemptRequest, options.signal),
    );
    for (;;) {
      const next = await run.next();
      if (next.done === true) return next.value;
    }
  }

  private retrySettings() {
    return {
      maxRetries: this.maxRetries,
      fallbackModel: this.fallbackModel,
      sleep: this.sleep,
      random: this.random,
      secrets: this.secrets,
      ...(this.baseURL !== undefined ? { endpoint: this.baseURL } : {}),
      placeholderKey: this.placeholderKey,
    };
  }

  private requireClient(): Anthropic {
    if (this.client === null) {
      throw new ProviderError("auth", "No API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).", {
        retryable: false,
      });
    }
    return this.client;
  }

  private async *streamAttempt(
    request: AssembledRequest,
    options: StreamOptions,
    emitted: string[],
  ): AsyncGenerator<ProviderEvent, void, undefined> {
    const client = this.requireClient();
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
      // The assembled bytes go out as they are (plus "stream":true): they are what the prompt cache keys on,
      // and the SDK need not serialize a megabyte-long body again. `body` stays for the SDK's own checks.
      const body = { ...request.body, stream: true } as unknown as MessageCreateParamsStreaming;
      const { data, request_id, response } = await client.messages
        .create(body, { signal: controller.signal, ...this.exactBody(streamingJson(request), request.betas) })
        .withResponse();
      this.observe(response);
      const requestId = request_id ?? undefined;
      iterator = data[Symbol.asyncIterator]();
      const accumulator = new StreamAccumulator();
      for (;;) {
        // The watchdog only runs while we wait on the network, never while the consumer holds an event.
        arm();
        const next = await iterator.next();
        disarm();
        if (next.done === true) break;
        const event = next.value as RawStreamEvent;
        yield { type: "stream_event", event };
        for (const output of accumulator.push(event)) {
          const providerEvent = toProviderEvent(output, options, requestId);
          if (providerEvent.type === "assistant_entry") emitted.push(providerEvent.entry.uuid);
          yield providerEvent;
        }
      }
      // The SDK ends the iteration quietly on abort; say why it ended.
      throwIfAborted(options.signal);
      if (idleFired) throw streamError(`no data for ${this.idleTimeoutMs} ms`);
      accumulator.finish();
    } catch (error) {
      if (idleFired && !(options.signal?.aborted ?? false)) throw streamError(`no data for ${this.idleTimeoutMs} ms`);
      throw error;
    } finally {
      disarm();
      options.signal?.removeEventListener("abort", onAbort);
      // Leaving early (consumer break, error) must cancel the HTTP request.
      if (!controller.signal.aborted) controller.abort();
      await iterator?.return?.().catch(() => undefined);
    }
  }

  // biome-ignore lint/correctness/useYield: an Attempt is a generator; a one-shot call has no events to yield.
  private async *completeAttempt(
    request: AssembledRequest,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderEvent, CompletedMessage, undefined> {
    const client = this.requireClient();
    throwIfAborted(signal);
    const { stream: _stream, ...rest } = request.body;
    const body = rest as unknown as MessageCreateParamsNonStreaming;
    const json = request.body.stream === undefined ? request.json : JSON.stringify(rest);
    const { data, response } = await client.messages
      .create(body, {
        ...(signal !== undefined ? { signal } : {}),
        ...this.exactBody(json, request.betas),
        timeout: this.timeoutMs,
      })
      .withResponse();
    this.observe(response);
    return completedMessageFrom(data);
  }

  /**
   * Request options that make the SDK send `json` byte for byte: a string body passes through unchanged when
   * a content-type header is set (the SDK's documented raw-body path). A server that takes no betas gets no
   * `anthropic-beta` header.
   */
  private exactBody(json: string, betas: readonly string[]): { body: string; headers: Record<string, string> } {
    const sent = this.#capabilities.betas === false ? [] : betas;
    return { body: json, headers: { "content-type": "application/json", ...betaHeaders(sent).headers } };
  }
}

function toProviderEvent(
  output: AccumulatorOutput,
  options: StreamOptions,
  requestId: string | undefined,
): ProviderEvent {
  switch (output.type) {
    case "block_complete":
      return output;
    case "entry": {
      const entry = createAssistantEntry(options.entryContext(), output.block, {
        messageId: output.messageId,
        model: output.model,
        ...(output.final !== null ? { stopReason: output.final.stopReason, usage: output.final.usage } : {}),
        ...(requestId !== undefined ? { requestId } : {}),
      });
      if (output.final?.stopSequence != null) entry.message.stop_sequence = output.final.stopSequence;
      return { type: "assistant_entry", entry };
    }
    case "warning":
      return {
        type: "stream_event",
        event: {
          type: "warning",
          message: output.message,
          ...(output.index !== undefined ? { index: output.index } : {}),
        },
      };
    case "message_end":
      return {
        type: "message_end",
        messageId: output.messageId,
        model: output.model,
        stopReason: output.stopReason,
        usage: output.usage,
        ...(requestId !== undefined ? { requestId } : {}),
        ...(output.cacheMiss !== undefined ? { cacheMiss: output.cacheMiss } : {}),
      };
    default:
      return checkNever(output);
  }
}

/** `anthropic-beta: a,b`, only when there are betas (an empty header is not the same as none). */
/** `JSON.stringify({ ...request.body, stream: true })`, from the assembled bytes when the body has no stream key. */
export function streamingJson(request: AssembledRequest): string {
  return serializeStreamingRequest(request.body, request.json);
}

function betaHeaders(betas: readonly string[]): { headers?: Record<string, string> } {
  return betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {};
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === "" ? undefined : value;
}
