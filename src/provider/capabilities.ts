/**
 * What a provider endpoint supports beyond the public API.
 */
import type { ProviderCapabilities } from "./types.js";

/** The public API: context management yes, cache editing no. */
export const DEFAULT_CAPABILITIES: Readonly<ProviderCapabilities> = Object.freeze({
  cacheEdits: false,
  contextManagement: true,
});

const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * Capabilities guessed from the base URL: a loopback host is taken to be threadline's own emulator,
 * which accepts `cache_edits`; anything else gets `DEFAULT_CAPABILITIES`.
 */
export function detectCapabilities(baseURL: string | undefined): ProviderCapabilities {
  if (baseURL === undefined) return { ...DEFAULT_CAPABILITIES };
  let hostname: string;
  try {
    hostname = new URL(baseURL).hostname;
  } catch {
    return { ...DEFAULT_CAPABILITIES };
  }
  const loopback = LOOPBACK_HOSTS.has(hostname) || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  return { ...DEFAULT_CAPABILITIES, cacheEdits: loopback };
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
