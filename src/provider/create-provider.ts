/**
 * Which protocol and platform a session talks to (`--provider`), chosen like Claude Code chooses: an explicit
 * choice (`--provider`, the engine's `platform` option) wins; else `THREADLINE_USE_BEDROCK=1`,
 * `THREADLINE_USE_VERTEX=1` or `THREADLINE_USE_OPENAI_COMPATIBLE=1`; else the first-party API. What the chosen
 * server accepts beyond its protocol is its server profile (capabilities.ts, openai-profiles.ts), another name.
 */

import { AnthropicProvider } from "./anthropic.js";
import { resolveAwsAuth } from "./aws-credentials.js";
import { BedrockProvider } from "./bedrock.js";
import { namedServerProfile, requiresApiKey } from "./capabilities.js";
import { resolveGoogleAuth } from "./google-credentials.js";
import { OpenAICompatibleProvider } from "./openai-compatible.js";
import { OPENAI_SERVER_PROFILES, openAIServerProfile } from "./openai-profiles.js";
import type { PlatformName } from "./platform-profiles.js";
import type { SdkProviderOptions } from "./sdk-provider.js";
import type { Provider } from "./types.js";
import { VertexProvider } from "./vertex.js";
import { waitLimitsFromEnv } from "./wait-limits.js";

/** Set to 1 (or true) to use Amazon Bedrock. */
export const USE_BEDROCK_ENV = "THREADLINE_USE_BEDROCK";
/** Set to 1 (or true) to use Google Vertex AI. */
export const USE_VERTEX_ENV = "THREADLINE_USE_VERTEX";
/** Set to 1 (or true) to speak OpenAI's chat completions to `OPENAI_BASE_URL`. */
export const USE_OPENAI_COMPATIBLE_ENV = "THREADLINE_USE_OPENAI_COMPATIBLE";

/** What `--provider` picks: a protocol and platform (the Claude platforms, or any OpenAI-protocol server). */
export type ProviderName = PlatformName | "openai-compatible";

export const PROVIDER_NAMES: readonly ProviderName[] = ["anthropic", "bedrock", "vertex", "openai-compatible"];

type Env = Readonly<Record<string, string | undefined>>;

/** The provider the environment selects; Bedrock wins when both are set (as in Claude Code). Default "anthropic". */
export function platformFromEnv(env: Env): ProviderName {
  if (truthy(env[USE_BEDROCK_ENV])) return "bedrock";
  if (truthy(env[USE_VERTEX_ENV])) return "vertex";
  if (truthy(env[USE_OPENAI_COMPATIBLE_ENV])) return "openai-compatible";
  return "anthropic";
}

export interface CreateProviderOptions extends SdkProviderOptions {
  /** Default: `platformFromEnv(env)`. */
  platform?: ProviderName;
  /** The server (`--base-url`). Default: the provider's environment (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`). */
  baseURL?: string;
  /** Default: `process.env`. */
  env?: Env;
}

/** A provider for the chosen platform, configured from `env`. */
export function createProvider(options: CreateProviderOptions = {}): Provider {
  const { platform: chosen, env = process.env, baseURL, ...options_ } = options;
  // The environment's wait limits, under what the caller passed explicitly.
  const rest = { ...waitLimitsFromEnv(env), ...options_ };
  const platform = chosen ?? platformFromEnv(env);
  switch (platform) {
    case "anthropic":
      return new AnthropicProvider({ ...rest, env, ...(baseURL !== undefined ? { baseURL } : {}) });
    case "openai-compatible":
      return new OpenAICompatibleProvider({ ...rest, env, ...(baseURL !== undefined ? { baseURL } : {}) });
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
export function missingCredentials(platform: ProviderName, env: Env, baseURL?: string): string | undefined {
  const present = (name: string) => (env[name] ?? "") !== "";
  switch (platform) {
    case "anthropic":
      // A base URL naming another server (the emulator, a local model server) needs no key.
      return present("ANTHROPIC_API_KEY") ||
        present("ANTHROPIC_AUTH_TOKEN") ||
        !requiresApiKey(baseURL ?? env.ANTHROPIC_BASE_URL)
        ? undefined
        : "ANTHROPIC_API_KEY is not set. Set it (and ANTHROPIC_BASE_URL for another server), or run `threadline demo` to try it offline.";
    case "openai-compatible":
      // A local server needs no key; what it needs is an address (a profile's default counts).
      return baseURL !== undefined || present("OPENAI_BASE_URL") || openAIProfileHasDefault(env)
        ? undefined
        : "--provider openai-compatible needs a server: pass --base-url URL (or set OPENAI_BASE_URL).";
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

function openAIProfileHasDefault(env: Env): boolean {
  try {
    return OPENAI_SERVER_PROFILES[openAIServerProfile(namedServerProfile(env))].defaultBaseURL !== undefined;
  } catch {
    return false;
  }
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && ["1", "true", "yes"].includes(value.trim().toLowerCase());
}
