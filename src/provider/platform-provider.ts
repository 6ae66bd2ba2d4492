/**
 * The shared shape of the cloud-platform providers (Bedrock, Vertex): the SDK client is built on first
 * use (so a missing credential is one clear `auth` error at call time, never a probe at startup), and the
 * request bytes carry the platform's model id and `anthropic_version`. Everything else is `SdkProvider`'s.
 */
import type {
  MessageCreateParamsNonStreaming,
  MessageCreateParamsStreaming,
} from "@anthropic-ai/sdk/resources/messages";
import type { AssembledRequest } from "../request/index.js";
import { ProviderError } from "./errors.js";
import type { PlatformProfile } from "./platform-profiles.js";
import { type MessagesClient, type OutgoingRequest, SdkProvider, type SdkProviderOptions } from "./sdk-provider.js";

/** Either a client, or the one line saying what is missing to build one. */
export type ClientOrProblem = { kind: "client"; client: MessagesClient } | { kind: "missing"; message: string };

export abstract class PlatformProvider extends SdkProvider {
  abstract readonly profile: Readonly<PlatformProfile>;
  #client: Promise<ClientOrProblem> | undefined;

  protected constructor(options: SdkProviderOptions) {
    super(options);
  }

  /**
   * Builds the SDK client, or says what is missing. Called once, on the first request: the platform SDKs
   * take a second or more to load, which a first-party session must not pay at startup.
   */
  protected abstract buildClient(): Promise<ClientOrProblem>;

  /** The platform's id for a first-party (or already platform-shaped) model id. */
  abstract modelId(model: string): string;

  protected async client(): Promise<MessagesClient> {
    this.#client ??= this.buildClient();
    const built = await this.#client;
    if (built.kind === "missing") throw new ProviderError("auth", built.message, { retryable: false });
    return built.client;
  }

  protected streamingRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsStreaming> {
    return this.platformRequest(request, true) as OutgoingRequest<MessageCreateParamsStreaming>;
  }

  protected oneShotRequest(request: AssembledRequest): OutgoingRequest<MessageCreateParamsNonStreaming> {
    return this.platformRequest(request, false) as OutgoingRequest<MessageCreateParamsNonStreaming>;
  }

  // The platform SDKs parse the body and re-serialize it without `model` (it moves into the URL), so
  // the first-party byte-exact path buys nothing here; one serialization with the platform's fields does.
  private platformRequest(request: AssembledRequest, streaming: boolean): OutgoingRequest<unknown> {
    const { stream: _stream, ...rest } = request.body;
    const body = { ...rest, model: this.modelId(request.body.model), ...(streaming ? { stream: true } : {}) };
    const version = this.profile.bodyVersion;
    const json = JSON.stringify(version === undefined ? body : { anthropic_version: version, ...body });
    return { body, json };
  }
}
