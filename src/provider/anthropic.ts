/**
 * The first-party provider on the official `@anthropic-ai/sdk`. The request bytes go out exactly as
 * assembled (they are what the prompt cache keys on); retries, streaming and errors are `SdkProvider`'s.
 */
import Anthropic from "@anthropic-ai/sdk";
import type {
  MessageCountTokensParams,
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import { EFFORT_LEVELS, type EffortLevel } from "../messages/index.js";
import type { AssembledRequest } from "../request/index.js";
import { serializeStreamingRequest } from "../request/index.js";
import {
  capabilitySwitches,
  PLACEHOLDER_API_KEY,
  PROVIDER_PROFILES,
  type ProviderProfile,
  providerProfile,
  requiresApiKey,
} from "./capabilities.js";
import { classifyError } from "./classify.js";
import { ProviderError } from "./errors.js";
import {
  type MessagesClient,
  nonEmpty,
  type OutgoingRequest,
  SdkProvider,
  type SdkProviderOptions,
} from "./sdk-provider.js";
import type { ProviderCapabilities } from "./types.js";

export { DEFAULT_REQUEST_TIMEOUT_MS, DEFAULT_STREAM_IDLE_TIMEOUT_MS } from "./sdk-provider.js";

export interface AnthropicProviderOptions extends SdkProviderOptions {
  /** API key. Default: `ANTHROPIC_API_KEY`; for a non-Anthropic base URL without one, `PLACEHOLDER_API_KEY`. */
  apiKey?: string;
  /** Bearer token, used when there is no API key. Default: `ANTHROPIC_AUTH_TOKEN`. */
  authToken?: string;
  /** Default: `ANTHROPIC_BASE_URL`, else the SDK's `https://api.anthropic.com`. */
  baseURL?: string;
  /**
   * Server profile. Default: `THREADLINE_SERVER_PROFILE`, else `anthropic` without a base URL or for
   * api.anthropic.com and `anthropic-compatible` for any other server (see capabilities.ts).
   */
  profile?: ProviderProfile;
  /** Per-feature declarations over the profile (they also win over announcements). Default none. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Extra headers on every request. Default: none. */
  defaultHeaders?: Record<string, string>;
  /** Where `ANTHROPIC_*` variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

export class AnthropicProvider extends SdkProvider {
  readonly name = "anthropic";
  /** The profile the capabilities started from. */
  readonly profile: ProviderProfile;
  /** The base URL requests go to (undefined: the SDK default). */
  readonly baseURL: string | undefined;
  protected readonly secrets: string[];
  private readonly sdk: Anthropic | null;

  constructor(options: AnthropicProviderOptions = {}) {
    super(options);
    const env = options.env ?? process.env;
    const apiKey = nonEmpty(options.apiKey) ?? nonEmpty(env.ANTHROPIC_API_KEY);
    const authToken =
      apiKey === undefined ? (nonEmpty(options.authToken) ?? nonEmpty(env.ANTHROPIC_AUTH_TOKEN)) : undefined;
    this.baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_BASE_URL);
    this.secrets = [apiKey, authToken].filter((secret): secret is string => secret !== undefined);
    this.profile = options.profile ?? providerProfile(this.baseURL, env);
    this.initCapabilities(PROVIDER_PROFILES[this.profile], { ...capabilitySwitches(env), ...options.capabilities });
    // A server other than Anthropic's needs no key: send a placeholder (it is not a secret, never redacted).
    const placeholder = this.secrets.length === 0 && !requiresApiKey(this.baseURL) ? PLACEHOLDER_API_KEY : undefined;
    this.placeholderKey = placeholder !== undefined;
    if (this.baseURL !== undefined) this.endpoint = this.baseURL;
    // Without a credential the SDK would go looking for profiles on disk; fail clearly at call time instead.
    this.sdk =
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

  protected client(): MessagesClient {
    if (this.sdk === null) {
      throw new ProviderError("auth", "No API credentials: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).", {
        retryable: false,
      });
    }
    return this.sdk;
  }

  /**
   * `POST /v1/messages/count_tokens` with the fields of the request that endpoint takes (docs/CONTEXT-BUDGET.md,
   * "Token counting"): one attempt with a short timeout — a count is an aid, never worth a retry.
   */
  async countTokens(request: AssembledRequest, options: { signal?: AbortSignal } = {}): Promise<number> {
    const sdk = this.client() as Anthropic;
    const body = countTokensBody(request);
    const betas = this.capabilities.betas === false ? [] : request.betas;
    try {
      const counted = await sdk.messages.countTokens(body, {
        timeout: DEFAULT_COUNT_TOKENS_TIMEOUT_MS,
        ...(options.signal !== undefined ? { signal: options.signal } : {}),
        ...(betas.length > 0 ? { headers: { "anthropic-beta": betas.join(",") } } : {}),
      });
      return counted.input_tokens;
    } catch (error) {
      throw classifyError(error, this.secrets);
    }
  }

  /**
   * `GET /v1/models/{model}`'s `capabilities.effort` (docs/TOOLS.md, "Agent effort"): the levels whose support is
   * declared. One attempt per model, kept for the session; any failure (a server without the Models API, an
   * unknown model, `capabilities: null`) declares nothing, so no effort is sent.
   */
  effortLevels(model: string, options: { signal?: AbortSignal } = {}): Promise<readonly EffortLevel[]> {
    let known = this.#effortLevels.get(model);
    if (known === undefined) {
      known = this.#askEffortLevels(model, options.signal);
      this.#effortLevels.set(model, known);
    }
    return known;
  }

  readonly #effortLevels = new Map<string, Promise<readonly EffortLevel[]>>();

  async #askEffortLevels(model: string, signal: AbortSignal | undefined): Promise<readonly EffortLevel[]> {
    if (this.sdk === null) return [];
    try {
      const info = await this.sdk.models.retrieve(model, null, {
        timeout: DEFAULT_COUNT_TOKENS_TIMEOUT_MS,
        ...(signal !== undefined ? { signal } : {}),
      });
      return declaredEffortLevels(info.capabilities);
    } catch {
      return [];
    }
  }

  // The assembled bytes go out as they are (plus "stream":true): they are what the prompt cache keys on,
  // and the SDK need not serialize a megabyte-long body again. `body` stays for the SDK's own checks.
  protected streamingRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsStreaming> {
    const body = { ...request.body, stream: true } as unknown as MessageCreateParamsStreaming;
    return { body, json: streamingJson(request) };
  }

  protected oneShotRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsNonStreaming> {
    const { stream: _stream, ...rest } = request.body;
    const json = request.body.stream === undefined ? request.json : JSON.stringify(rest);
    return { body: rest as unknown as MessageCreateParamsNonStreaming, json };
  }
}

/** The levels a Models API `capabilities` value declares (`effort.supported` and each level's `supported`). */
export function declaredEffortLevels(capabilities: unknown): EffortLevel[] {
  if (typeof capabilities !== "object" || capabilities === null) return [];
  const effort = (capabilities as { effort?: unknown }).effort;
  if (typeof effort !== "object" || effort === null) return [];
  const declared = effort as Record<string, unknown>;
  const supported = (value: unknown): boolean =>
    typeof value === "object" && value !== null && (value as { supported?: unknown }).supported === true;
  if (declared.supported !== true) return [];
  return EFFORT_LEVELS.filter((level) => supported(declared[level]));
}

/** How long a count may take before the request goes out without it: 10 s. */
export const DEFAULT_COUNT_TOKENS_TIMEOUT_MS = 10_000;

/** The fields of a Messages request that `count_tokens` takes (the others — max_tokens, stream, metadata — it refuses). */
const COUNT_TOKENS_FIELDS = ["model", "messages", "system", "tools", "tool_choice", "thinking", "context_management"];

function countTokensBody(request: AssembledRequest): MessageCountTokensParams {
  const source = request.body as unknown as Record<string, unknown>;
  const body: Record<string, unknown> = {};
  for (const field of COUNT_TOKENS_FIELDS) if (source[field] !== undefined) body[field] = source[field];
  return body as unknown as MessageCountTokensParams;
}

/** `JSON.stringify({ ...request.body, stream: true })`, from the assembled bytes when the body has no stream key. */
export function streamingJson(request: AssembledRequest): string {
  return serializeStreamingRequest(request.body, request.json);
}
