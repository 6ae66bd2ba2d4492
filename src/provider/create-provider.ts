/**
 * Which platform a session talks to, chosen like Claude Code chooses: an explicit choice (`--provider`,
 * the engine's `platform` option) wins; else `THREADLINE_USE_BEDROCK=1` or `THREADLINE_USE_VERTEX=1`;
 * else the first-party API.
 */

import { AnthropicProvider } from "./anthropic.js";
import { resolveAwsAuth } from "./aws-credentials.js";
import { BedrockProvider } from "./bedrock.js";
import { requiresApiKey } from "./capabilities.js";
import { resolveGoogleAuth } from "./google-credentials.js";
import type { PlatformName } from "./platform-profiles.js";
import type { SdkProviderOptions } from "./sdk-provider.js";
import type { Provider } from "./types.js";
import { VertexProvider } from "./vertex.js";
import { waitLimitsFromEnv } from "./wait-limits.js";

/** Set to 1 (or true) to use Amazon Bedrock. */
export const USE_BEDROCK_ENV = "THREADLINE_USE_BEDROCK";
/** Set to 1 (or true) to use Google Vertex AI. */
export const USE_VERTEX_ENV = "THREADLINE_USE_VERTEX";

type Env = Readonly<Record<string, string | undefined>>;

/** The platform the environment selects; Bedrock wins when both are set (as in Claude Code). Default "anthropic". */
export function platformFromEnv(env: Env): PlatformName {
  if (truthy(env[USE_BEDROCK_ENV])) return "bedrock";
  if (truthy(env[USE_VERTEX_ENV])) return "vertex";
  return "anthropic";
}

export interface CreateProviderOptions extends SdkProviderOptions {
  /** Default: `platformFromEnv(env)`. */
  platform?: PlatformName;
  /** Default: `process.env`. */
  env?: Env;
}

/** A provider for the chosen platform, configured from `env`. */
export function createProvider(options: CreateProviderOptions = {}): Provider {
  const { platform: chosen, env = process.env, ...options_ } = options;
  // The environment's wait limits, under what the caller passed explicitly.
  const rest = { ...waitLimitsFromEnv(env), ...options_ };
  const platform = chosen ?? platformFromEnv(env);
  switch (platform) {
    case "anthropic":
      return new AnthropicProvider({ ...rest, env });
    case "bedrock":
      return new BedrockProvider({ ...rest, env });
    case "vertex":
      return new VertexProvider({ ...rest, env });
    default: {
      const unknown: never = platform;
      throw new Error(`unknown platform ${String(unknown)}`);
    }
  }
}

/**
 * One line naming what `platform` is missing to make a request, decided without network access;
 * undefined when it has what it needs.
 */
export function missingCredentials(platform: PlatformName, env: Env): string | undefined {
  const present = (name: string) => (env[name] ?? "") !== "";
  switch (platform) {
    case "anthropic":
      // A base URL naming another server (the emulator, a local model server) needs no key.
      return present("ANTHROPIC_API_KEY") || present("ANTHROPIC_AUTH_TOKEN") || !requiresApiKey(env.ANTHROPIC_BASE_URL)
        ? undefined
        : "ANTHROPIC_API_KEY is not set. Set it (and ANTHROPIC_BASE_URL for another server), or run `threadline demo` to try it offline.";
    case "bedrock": {
      const auth = resolveAwsAuth(env);
      return auth.kind === "missing" ? auth.message : undefined;
    }
    case "vertex": {
      const auth = resolveGoogleAuth(env);
      if (auth.kind === "missing") return auth.message;
      if (!["ANTHROPIC_VERTEX_PROJECT_ID", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT"].some(present)) {
        return "Google Vertex AI: no project: set ANTHROPIC_VERTEX_PROJECT_ID";
      }
      return undefined;
    }
    default: {
      const unknown: never = platform;
      throw new Error(`unknown platform ${String(unknown)}`);
    }
  }
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}
