/**
 * The Google Vertex AI provider on the official `@anthropic-ai/vertex-sdk` (`AnthropicVertex`): the
 * `:streamRawPredict` routing and Google OAuth are the SDK's; model ids follow `platform-models.ts`.
 */
import type { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { type GoogleAuthChoice, resolveGoogleAuth } from "./google-credentials.js";
import { vertexModelId } from "./platform-models.js";
import { platformCapabilities, VERTEX_PROFILE } from "./platform-profiles.js";
import { type ClientOrProblem, PlatformProvider } from "./platform-provider.js";
import { nonEmpty, type SdkProviderOptions } from "./sdk-provider.js";
import type { ProviderCapabilities } from "./types.js";

/** Region used when `CLOUD_ML_REGION` is unset (Claude Code's default as well). */
export const DEFAULT_VERTEX_REGION = "us-east5";

/** The SDK's `authClient` option type (google-auth-library's `AuthClient`). */
type VertexAuthClient = NonNullable<NonNullable<ConstructorParameters<typeof AnthropicVertex>[0]>["authClient"]>;

export interface VertexProviderOptions extends SdkProviderOptions {
  /** Vertex region (`us-east5`, `europe-west1`, `global`…). Default: `CLOUD_ML_REGION`, else `DEFAULT_VERTEX_REGION`. */
  region?: string;
  /** Google Cloud project. Default: `ANTHROPIC_VERTEX_PROJECT_ID`, else `GOOGLE_CLOUD_PROJECT`, else `GCLOUD_PROJECT`. */
  projectId?: string;
  /** Default: `ANTHROPIC_VERTEX_BASE_URL`, else the SDK's regional `…aiplatform.googleapis.com/v1`. */
  baseURL?: string;
  /** Overrides of the profile's capabilities. Default: `VERTEX_PROFILE`'s. */
  capabilities?: Partial<ProviderCapabilities>;
  /** Credential source. Default: `resolveGoogleAuth(env)`. */
  auth?: GoogleAuthChoice;
  /** Where the variables are read from. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

export class VertexProvider extends PlatformProvider {
  readonly name = "vertex";
  readonly profile = VERTEX_PROFILE;
  readonly region: string;
  readonly projectId: string | undefined;
  readonly baseURL: string | undefined;
  protected readonly secrets: string[];
  private readonly auth: GoogleAuthChoice;

  constructor(options: VertexProviderOptions = {}) {
    super(options);
    const env = options.env ?? process.env;
    this.region = nonEmpty(options.region) ?? nonEmpty(env.CLOUD_ML_REGION) ?? DEFAULT_VERTEX_REGION;
    this.projectId =
      nonEmpty(options.projectId) ??
      nonEmpty(env.ANTHROPIC_VERTEX_PROJECT_ID) ??
      nonEmpty(env.GOOGLE_CLOUD_PROJECT) ??
      nonEmpty(env.GCLOUD_PROJECT);
    this.baseURL = nonEmpty(options.baseURL) ?? nonEmpty(env.ANTHROPIC_VERTEX_BASE_URL);
    this.initCapabilities(platformCapabilities(VERTEX_PROFILE), { ...options.capabilities });
    this.auth = options.auth ?? resolveGoogleAuth(env);
    this.secrets = this.auth.kind === "token" ? [this.auth.token] : [];
  }

  modelId(model: string): string {
    return vertexModelId(model);
  }

  protected async buildClient(): Promise<ClientOrProblem> {
    const auth = this.auth;
    if (auth.kind === "missing") return auth;
    const { AnthropicVertex } = await import("@anthropic-ai/vertex-sdk");
    // Without a project the SDK would ask the credentials, which may mean the metadata server.
    if (this.projectId === undefined) {
      return { kind: "missing", message: "Google Vertex AI: no project: set ANTHROPIC_VERTEX_PROJECT_ID" };
    }
    const common = {
      region: this.region,
      projectId: this.projectId,
      // The SDK reads ANTHROPIC_VERTEX_BASE_URL from process.env when this is undefined; pass what we resolved.
      baseURL: this.baseURL ?? defaultVertexBaseURL(this.region),
      maxRetries: 0,
      timeout: this.timeoutMs,
      logLevel: "off" as const,
    };
    switch (auth.kind) {
      case "token":
        return {
          kind: "client",
          client: new AnthropicVertex({
            ...common,
            authClient: headerAuth({ authorization: `Bearer ${auth.token}` }, this.projectId),
          }),
        };
      case "skip":
        return {
          kind: "client",
          client: new AnthropicVertex({ ...common, authClient: headerAuth({}, this.projectId) }),
        };
      case "adc":
        // The SDK builds a GoogleAuth with the cloud-platform scope and Application Default Credentials.
        return { kind: "client", client: new AnthropicVertex(common) };
      default: {
        const unknown: never = auth;
        throw new Error(`unknown Google auth ${String(unknown)}`);
      }
    }
  }
}

/**
 * An auth client with fixed headers. The SDK calls only `getRequestHeaders()` and reads `projectId`, so
 * this is all a ready token (or a gateway that adds its own) needs; no token endpoint, no metadata server.
 */
function headerAuth(headers: Record<string, string>, projectId: string): VertexAuthClient {
  const client = { projectId, getRequestHeaders: async () => new Headers(headers) };
  return client as unknown as VertexAuthClient;
}

/** The SDK's own default endpoint for a region (computed here so the SDK never falls back to process.env). */
function defaultVertexBaseURL(region: string): string {
  switch (region) {
    case "global":
      return "https://aiplatform.googleapis.com/v1";
    case "us":
      return "https://aiplatform.us.rep.googleapis.com/v1";
    case "eu":
      return "https://aiplatform.eu.rep.googleapis.com/v1";
    default:
      return `https://${region}-aiplatform.googleapis.com/v1`;
  }
}
