/**
 * The Amazon Bedrock provider on the official `@anthropic-ai/bedrock-sdk` (`AnthropicBedrock`): SigV4
 * signing and the event-stream framing are the SDK's; model ids follow `platform-models.ts`.
 */
import { type AwsAuth, awsCredentialChain, resolveAwsAuth } from "./aws-credentials.js";
import { bedrockInferencePrefix, bedrockModelId } from "./platform-models.js";
import { BEDROCK_PROFILE, platformCapabilities } from "./platform-profiles.js";
import { type ClientOrProblem, PlatformProvider } from "./platform-provider.js";
import { nonEmpty, type SdkProviderOptions } from "./sdk-provider.js";
import type { ProviderCapabilities } from "./types.js";

/** Region used when neither `AWS_REGION` nor `AWS_DEFAULT_REGION` names one (the SDK's default too). */
export const DEFAULT_AWS_REGION = "us-east-1";

export interface BedrockProviderOptions extends SdkProviderOptions {
  /** AWS region. Default: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `DEFAULT_AWS_REGION`. */
  region?: string;
  /** Default: `ANTHROPIC_BEDROCK_BASE_URL`, else `https://bedrock-runtime.{region}.amazonaws.com`. */
  baseURL?: string;
  /** Inference-profile prefix for first-party model ids (`us`, `eu`, `global`…); null for none. Default: from the region. */
  inferenceProfile?: string | null;
  /** Overrides of the profile's capabilities. Default: `BEDROCK_PROFILE`'s. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Credential source. Default: `resolveAwsAuth(env)`. */
  auth?: AwsAuth;
  /** Where `AWS_*` variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

export class BedrockProvider extends PlatformProvider {
  readonly name = "bedrock";
  readonly profile = BEDROCK_PROFILE;
  readonly region: string;
  readonly baseURL: string;
  protected readonly secrets: string[];
  private readonly prefix: string | null;
  private readonly auth: AwsAuth;
  private readonly env: Readonly<Record<string, string | undefined>>;

  constructor(options: BedrockProviderOptions = {}) {
    super(options);
    const env = options.env ?? process.env;
    this.env = env;
    this.region =
      nonEmpty(options.region) ?? nonEmpty(env.AWS_REGION) ?? nonEmpty(env.AWS_DEFAULT_REGION) ?? DEFAULT_AWS_REGION;
    this.baseURL =
      nonEmpty(options.baseURL) ??
      nonEmpty(env.ANTHROPIC_BEDROCK_BASE_URL) ??
      `https://bedrock-runtime.${this.region}.amazonaws.com`;
    this.prefix =
      options.inferenceProfile === undefined ? bedrockInferencePrefix(this.region) : options.inferenceProfile;
    this.initCapabilities(platformCapabilities(BEDROCK_PROFILE), { ...options.capabilities });
    this.auth = options.auth ?? resolveAwsAuth(env);
    this.secrets = secretsOf(this.auth);
  }

  modelId(model: string): string {
    return bedrockModelId(model, this.prefix);
  }

  protected async buildClient(): Promise<ClientOrProblem> {
    const auth = this.auth;
    if (auth.kind === "missing") return auth;
    const { AnthropicBedrock } = await import("@anthropic-ai/bedrock-sdk");
    const common = {
      awsRegion: this.region,
      baseURL: this.baseURL,
      maxRetries: 0,
      timeout: this.timeoutMs,
      logLevel: "off" as const,
    };
    switch (auth.kind) {
      case "bearer":
        return { kind: "client", client: new AnthropicBedrock({ ...common, apiKey: auth.token }) };
      case "static":
        return {
          kind: "client",
          client: new AnthropicBedrock({
            ...common,
            apiKey: null,
            awsAccessKey: auth.accessKeyId,
            awsSecretKey: auth.secretAccessKey,
            awsSessionToken: auth.sessionToken ?? null,
          }),
        };
      case "chain": {
        const source = auth.source;
        const env = this.env;
        return {
          kind: "client",
          client: new AnthropicBedrock({
            ...common,
            apiKey: null,
            providerChainResolver: () => awsCredentialChain(source, env),
          }),
        };
      }
      case "skip":
        return { kind: "client", client: new AnthropicBedrock({ ...common, apiKey: null, skipAuth: true }) };
      default: {
        const unknown: never = auth;
        throw new Error(`unknown AWS auth ${String(unknown)}`);
      }
    }
  }
}

function secretsOf(auth: AwsAuth): string[] {
  if (auth.kind === "bearer") return [auth.token];
  if (auth.kind === "static") {
    return [auth.secretAccessKey, ...(auth.sessionToken !== undefined ? [auth.sessionToken] : [])];
  }
  return [];
}
