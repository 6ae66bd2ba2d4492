/**
 * What a server supports beyond the core Messages API, declared — never guessed from its host. Two names, two
 * meanings: `--provider` (`PlatformName`) picks the wire protocol and platform a session speaks; the *server
 * profile* picks what that server accepts beyond the protocol's core. A Messages API provider starts from a named
 * server profile (chosen by THREADLINE_SERVER_PROFILE, else by whether the base URL is the first-party API),
 * per-feature switches override it, and a server may announce more on its responses
 * (`x-emulator-features: cache-editing`), which then holds for the rest of the session.
 */
import type { ProviderCapabilities } from "./types.js";

/**
 * A named set of capabilities of a server speaking the Anthropic Messages API. `anthropic-compatible` is any
 * other server speaking that protocol (llama-server's /v1/messages, a proxy); OpenAI-protocol servers have their
 * own profiles (openai-profiles.ts).
 */
export type ProviderProfile = "anthropic" | "anthropic-compatible" | "emulator";

export const PROVIDER_PROFILE_NAMES: readonly ProviderProfile[] = ["anthropic", "anthropic-compatible", "emulator"];

/** Each profile's capabilities. */
export const PROVIDER_PROFILES: Readonly<Record<ProviderProfile, Readonly<ProviderCapabilities>>> = Object.freeze({
  /** The first-party API: its public features (betas, context_management), no cache editing. */
  // 1-hour TTL: the pinned SDK's non-beta `CacheControlEphemeral` has `ttl?: "5m" | "1h"` (docs/API-CONTRACT.md).
  // Cache diagnostics: generally available, no beta (the SDK's `MessageCreateParams.diagnostics`; issue 55).
  anthropic: Object.freeze({
    cacheEdits: false,
    contextManagement: true,
    betas: true,
    cacheTtls: ["5m", "1h"] as const,
    cacheDiagnostics: true,
    webSearch: true,
    tokenCounting: true,
    structuredOutputs: true,
  }),
  /** Any other Messages API server: the core API only (no betas, no context_management, no cache edits). */
  "anthropic-compatible": Object.freeze({
    cacheEdits: false,
    contextManagement: false,
    betas: false,
    cacheTtls: [] as const,
  }),
  /** threadline's own emulator started with cache editing. */
  emulator: Object.freeze({
    cacheEdits: true,
    contextManagement: true,
    betas: true,
    cacheTtls: ["5m", "1h"] as const,
    cacheDiagnostics: true,
    webSearch: true,
    tokenCounting: true,
    structuredOutputs: true,
  }),
});

/** The public API's capabilities (the `anthropic` profile). */
export const DEFAULT_CAPABILITIES: Readonly<ProviderCapabilities> = PROVIDER_PROFILES.anthropic;

/** Hosts that are the first-party API. */
export const FIRST_PARTY_HOSTS: ReadonlySet<string> = new Set(["api.anthropic.com"]);

/** Environment variables that choose the server profile and switch single features. */
export const PROVIDER_ENV = {
  profile: "THREADLINE_SERVER_PROFILE",
  contextManagement: "THREADLINE_CONTEXT_MANAGEMENT",
  betas: "THREADLINE_BETAS",
  cacheDiagnostics: "THREADLINE_CACHE_DIAGNOSTICS",
  toolChanges: "THREADLINE_TOOL_CHANGES",
  serverCompaction: "THREADLINE_SERVER_COMPACTION",
  webSearch: "THREADLINE_WEB_SEARCH",
  tokenCounting: "THREADLINE_TOKEN_COUNTING",
  structuredOutputs: "THREADLINE_STRUCTURED_OUTPUTS",
} as const;

/** Response header in which a server announces extra features (comma-separated). */
export const FEATURES_HEADER = "x-emulator-features";
/** The announced feature that turns `cacheEdits` on. */
export const CACHE_EDITING_FEATURE = "cache-editing";

/** The old spelling of THREADLINE_SERVER_PROFILE (it read like `--provider`); still read, with a notice. */
export const DEPRECATED_PROFILE_ENV = "THREADLINE_PROVIDER";

/** Old profile values still accepted, with the name each now has. */
const DEPRECATED_PROFILE_VALUES: ReadonlyMap<string, ProviderProfile> = new Map([
  ["compatible", "anthropic-compatible"],
]);

/** The server profile the environment names, new spelling first; undefined when neither variable is set. */
export function namedServerProfile(env: Readonly<Record<string, string | undefined>>): string | undefined {
  for (const name of [PROVIDER_ENV.profile, DEPRECATED_PROFILE_ENV]) {
    const value = env[name];
    if (value !== undefined && value !== "") return DEPRECATED_PROFILE_VALUES.get(value) ?? value;
  }
  return undefined;
}

/** One line for each old spelling the environment still uses (THREADLINE_PROVIDER, the value `compatible`). */
export function deprecatedProfileSpellings(env: Readonly<Record<string, string | undefined>>): string[] {
  const lines: string[] = [];
  const old = env[DEPRECATED_PROFILE_ENV];
  if (old !== undefined && old !== "") {
    lines.push(
      `${DEPRECATED_PROFILE_ENV} is deprecated: use ${PROVIDER_ENV.profile} (the server's capability profile; --provider picks the protocol)`,
    );
  }
  for (const name of [PROVIDER_ENV.profile, DEPRECATED_PROFILE_ENV]) {
    const value = env[name] ?? "";
    const renamed = DEPRECATED_PROFILE_VALUES.get(value);
    if (renamed !== undefined) lines.push(`${name}=${value} is deprecated: use ${renamed}`);
  }
  return lines;
}

/**
 * The profile for a Messages API provider: THREADLINE_SERVER_PROFILE (or the deprecated THREADLINE_PROVIDER) when
 * set (an unknown value throws); otherwise `anthropic` when there is no base URL or it is the first-party host,
 * and `anthropic-compatible` for any other server (loopback included).
 */
export function providerProfile(
  baseURL: string | undefined,
  env: Readonly<Record<string, string | undefined>> = {},
): ProviderProfile {
  const named = namedServerProfile(env);
  if (named !== undefined) {
    if ((PROVIDER_PROFILE_NAMES as readonly string[]).includes(named)) return named as ProviderProfile;
    throw new Error(
      `${PROVIDER_ENV.profile} must be one of ${PROVIDER_PROFILE_NAMES.join("|")} for a Messages API provider, got ${JSON.stringify(named)}`,
    );
  }
  if (baseURL === undefined) return "anthropic";
  try {
    return FIRST_PARTY_HOSTS.has(new URL(baseURL).hostname) ? "anthropic" : "anthropic-compatible";
  } catch {
    return "anthropic-compatible";
  }
}

/** `on`/`off` switches from the environment (THREADLINE_CONTEXT_MANAGEMENT, THREADLINE_BETAS); others throw. */
export function capabilitySwitches(env: Readonly<Record<string, string | undefined>>): Partial<ProviderCapabilities> {
  const out: Partial<ProviderCapabilities> = {};
  const read = (name: string): boolean | undefined => {
    const value = env[name];
    if (value === undefined || value === "" || value === "auto") return undefined;
    if (value === "on") return true;
    if (value === "off") return false;
    throw new Error(`${name} must be one of auto|on|off, got ${JSON.stringify(value)}`);
  };
  const contextManagement = read(PROVIDER_ENV.contextManagement);
  if (contextManagement !== undefined) out.contextManagement = contextManagement;
  const betas = read(PROVIDER_ENV.betas);
  if (betas !== undefined) out.betas = betas;
  const cacheDiagnostics = read(PROVIDER_ENV.cacheDiagnostics);
  if (cacheDiagnostics !== undefined) out.cacheDiagnostics = cacheDiagnostics;
  const toolChanges = read(PROVIDER_ENV.toolChanges);
  if (toolChanges !== undefined) out.toolChanges = toolChanges;
  const serverCompaction = read(PROVIDER_ENV.serverCompaction);
  if (serverCompaction !== undefined) out.serverCompaction = serverCompaction;
  const webSearch = read(PROVIDER_ENV.webSearch);
  if (webSearch !== undefined) out.webSearch = webSearch;
  const tokenCounting = read(PROVIDER_ENV.tokenCounting);
  if (tokenCounting !== undefined) out.tokenCounting = tokenCounting;
  const structuredOutputs = read(PROVIDER_ENV.structuredOutputs);
  if (structuredOutputs !== undefined) out.structuredOutputs = structuredOutputs;
  return out;
}

/** The announced feature names in a `x-emulator-features` value (lower-cased, de-duplicated, in order). */
export function parseFeatures(value: string | null | undefined): string[] {
  if (value === null || value === undefined) return [];
  const names = value
    .split(",")
    .map((name) => name.trim().toLowerCase())
    .filter((name) => /^[a-z0-9-]{1,64}$/.test(name));
  return [...new Set(names)];
}

/**
 * `capabilities` with what `features` announce switched on, except where `pinned` (an explicit declaration)
 * says otherwise. Announcements only ever add.
 */
export function withAnnouncedFeatures(
  capabilities: ProviderCapabilities,
  features: readonly string[],
  pinned: Partial<ProviderCapabilities>,
): ProviderCapabilities {
  const out = { ...capabilities };
  if (features.includes(CACHE_EDITING_FEATURE) && pinned.cacheEdits === undefined) out.cacheEdits = true;
  return out;
}

/** The key sent to a non-Anthropic server when none is configured (such servers ignore it; never a secret). */
export const PLACEHOLDER_API_KEY = "threadline-no-key";

/**
 * Whether requests to `baseURL` need a real credential: the default endpoint and any `*.anthropic.com` host
 * do; another server (the emulator, a local proxy or model server) is sent `PLACEHOLDER_API_KEY` instead.
 */
export function requiresApiKey(baseURL: string | undefined): boolean {
  if (baseURL === undefined || baseURL.trim() === "") return true;
  try {
    const hostname = new URL(baseURL).hostname.toLowerCase();
    return hostname === "anthropic.com" || hostname.endsWith(".anthropic.com");
  } catch {
    return true;
  }
}
