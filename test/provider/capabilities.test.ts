/**
 * Capabilities are declared, never guessed from the host: profiles by name, switches over them, and a
 * server's own announcement (x-emulator-features) — driven over real HTTP against the emulator.
 */

import { CACHE_EDITING_FEATURE, EMULATOR_FEATURES_HEADER, startEmulator } from "@threadline/emulator";
import { describe, expect, it } from "vitest";
import { createUserEntry } from "../../src/messages/index.js";
import {
  AnthropicProvider,
  capabilitySwitches,
  DEFAULT_CAPABILITIES,
  deprecatedProfileSpellings,
  FEATURES_HEADER,
  CACHE_EDITING_FEATURE as PROVIDER_CACHE_EDITING,
  PROVIDER_PROFILES,
  parseFeatures,
  providerProfile,
} from "../../src/provider/index.js";
import { assembleRequest, emptyLatches } from "../../src/request/index.js";

describe("provider profiles", () => {
  it("names the first-party API anthropic and every other server anthropic-compatible, loopback included", () => {
    expect(providerProfile(undefined)).toBe("anthropic");
    expect(providerProfile("https://api.anthropic.com")).toBe("anthropic");
    expect(providerProfile("http://127.0.0.1:8080")).toBe("anthropic-compatible");
    expect(providerProfile("http://localhost:1234/v1")).toBe("anthropic-compatible");
    expect(providerProfile("https://proxy.example.com")).toBe("anthropic-compatible");
    expect(providerProfile("not a url")).toBe("anthropic-compatible");
    expect(DEFAULT_CAPABILITIES).toEqual(PROVIDER_PROFILES.anthropic);
    expect(PROVIDER_PROFILES["anthropic-compatible"]).toEqual({
      cacheEdits: false,
      contextManagement: false,
      betas: false,
      cacheTtls: [],
    });
  });

  it("the old spellings (THREADLINE_PROVIDER, the value compatible) still work, each with one notice line", () => {
    expect(providerProfile(undefined, { THREADLINE_PROVIDER: "compatible" })).toBe("anthropic-compatible");
    expect(providerProfile(undefined, { THREADLINE_PROVIDER: "emulator" })).toBe("emulator");
    expect(providerProfile(undefined, { THREADLINE_SERVER_PROFILE: "compatible" })).toBe("anthropic-compatible");
    // The new name wins over the old one when both are set.
    expect(
      providerProfile(undefined, { THREADLINE_SERVER_PROFILE: "anthropic", THREADLINE_PROVIDER: "emulator" }),
    ).toBe("anthropic");
    expect(deprecatedProfileSpellings({ THREADLINE_PROVIDER: "compatible" })).toEqual([
      "THREADLINE_PROVIDER is deprecated: use THREADLINE_SERVER_PROFILE (the server's capability profile; --provider picks the protocol)",
      "THREADLINE_PROVIDER=compatible is deprecated: use anthropic-compatible",
    ]);
    expect(deprecatedProfileSpellings({ THREADLINE_SERVER_PROFILE: "anthropic-compatible" })).toEqual([]);
    expect(deprecatedProfileSpellings({ THREADLINE_SERVER_PROFILE: "toString" })).toEqual([]);
  });

  it("THREADLINE_SERVER_PROFILE and the per-feature switches override; bad values are one precise error", () => {
    expect(providerProfile("http://127.0.0.1:1", { THREADLINE_SERVER_PROFILE: "emulator" })).toBe("emulator");
    expect(providerProfile(undefined, { THREADLINE_SERVER_PROFILE: "anthropic-compatible" })).toBe(
      "anthropic-compatible",
    );
    expect(() => providerProfile(undefined, { THREADLINE_SERVER_PROFILE: "llama" })).toThrow(
      'THREADLINE_SERVER_PROFILE must be one of anthropic|anthropic-compatible|emulator for a Messages API provider, got "llama"',
    );
    expect(capabilitySwitches({ THREADLINE_CONTEXT_MANAGEMENT: "off", THREADLINE_BETAS: "on" })).toEqual({
      contextManagement: false,
      betas: true,
    });
    expect(() => capabilitySwitches({ THREADLINE_BETAS: "yes" })).toThrow(
      /THREADLINE_BETAS must be one of auto\|on\|off/,
    );
    const provider = new AnthropicProvider({
      apiKey: "k",
      baseURL: "http://127.0.0.1:1",
      env: { THREADLINE_SERVER_PROFILE: "anthropic", THREADLINE_CONTEXT_MANAGEMENT: "off" },
      capabilities: { betas: false },
    });
    expect(provider.profile).toBe("anthropic");
    expect(provider.capabilities).toEqual({
      cacheEdits: false,
      contextManagement: false,
      betas: false,
      cacheTtls: ["5m", "1h"],
      // Cache diagnostics are generally available (docs/API-SURFACE.md, "Cache diagnostics").
      cacheDiagnostics: true,
      // The public API runs the web_search server tool (docs/API-SURFACE.md, "Server tools").
      webSearch: true,
      // …and counts tokens for free (`POST /v1/messages/count_tokens`; docs/CONTEXT-BUDGET.md, "Token counting").
      tokenCounting: true,
      // …and answers output_config.format (structured outputs; docs/TOOLS.md "Workflow").
      structuredOutputs: true,
    });
    // A compatible server runs no web search and counts no tokens unless declared.
    expect(PROVIDER_PROFILES["anthropic-compatible"].webSearch).toBeUndefined();
    expect(capabilitySwitches({ THREADLINE_WEB_SEARCH: "on" })).toEqual({ webSearch: true });
    expect(PROVIDER_PROFILES["anthropic-compatible"].tokenCounting).toBeUndefined();
    expect(capabilitySwitches({ THREADLINE_TOKEN_COUNTING: "on" })).toEqual({ tokenCounting: true });
    expect(capabilitySwitches({ THREADLINE_TOKEN_COUNTING: "off" })).toEqual({ tokenCounting: false });
    expect(PROVIDER_PROFILES["anthropic-compatible"].structuredOutputs).toBeUndefined();
    expect(capabilitySwitches({ THREADLINE_STRUCTURED_OUTPUTS: "on" })).toEqual({ structuredOutputs: true });
  });

  it("speaks the emulator's announcement (the provider may not import the emulator, so the names are twins)", () => {
    expect(FEATURES_HEADER).toBe(EMULATOR_FEATURES_HEADER);
    expect(PROVIDER_CACHE_EDITING).toBe(CACHE_EDITING_FEATURE);
  });

  it("parses announcements leniently and only keeps plausible names", () => {
    expect(parseFeatures("cache-editing, Context-Management,cache-editing")).toEqual([
      "cache-editing",
      "context-management",
    ]);
    expect(parseFeatures(null)).toEqual([]);
    expect(parseFeatures("a b,ok")).toEqual(["ok"]);
  });
});

const request = () =>
  assembleRequest({
    messages: [createUserEntry({ sessionId: "s", parentUuid: null }, "hi")],
    settings: {
      model: "claude-sonnet-4-5",
      systemPrompt: ["You help."],
      tools: [],
      cacheTtl: "1h",
    },
    latches: emptyLatches(),
    pins: [],
  }).request;

describe("announcements over HTTP", () => {
  it("a loopback server that announces nothing never gets cache editing or a beta header", async () => {
    const emulator = await startEmulator();
    try {
      const provider = new AnthropicProvider({ baseURL: emulator.url, apiKey: "k", env: {} });
      const assembled = request();
      expect(assembled.betas.length).toBeGreaterThan(0); // the 1h TTL wants one
      await provider.complete(assembled);
      expect(provider.capabilities).toEqual(PROVIDER_PROFILES["anthropic-compatible"]);
      expect(provider.announcedFeatures).toEqual([]);
      expect(emulator.requests[0]?.headers["anthropic-beta"]).toBeUndefined();
    } finally {
      await emulator.close();
    }
  });

  it("an emulator started with cacheEditing announces it, and the provider takes it for the session", async () => {
    const emulator = await startEmulator({ cacheEditing: true });
    try {
      const provider = new AnthropicProvider({ baseURL: emulator.url, apiKey: "k", env: {} });
      expect(provider.capabilities.cacheEdits).toBe(false);
      await provider.complete(request());
      expect(provider.announcedFeatures).toEqual(["cache-editing"]);
      expect(provider.capabilities.cacheEdits).toBe(true);
      // An explicit declaration wins over the announcement.
      const declined = new AnthropicProvider({
        baseURL: emulator.url,
        apiKey: "k",
        env: {},
        capabilities: { cacheEdits: false },
      });
      await declined.complete(request());
      expect(declined.announcedFeatures).toEqual(["cache-editing"]);
      expect(declined.capabilities.cacheEdits).toBe(false);
    } finally {
      await emulator.close();
    }
  });

  it("cache diagnostics are declared by the public API and the emulator (GA); tool changes only by a switch", () => {
    // Mutations caught: a profile that declared tool changes would send system messages unasked; a compatible
    // server that got diagnostics would be sent a field it never declared.
    const expected = { anthropic: true, "anthropic-compatible": false, emulator: true } as const;
    for (const profile of ["anthropic", "anthropic-compatible", "emulator"] as const) {
      const provider = new AnthropicProvider({ apiKey: "k", env: { THREADLINE_SERVER_PROFILE: profile } });
      expect(provider.capabilities.cacheDiagnostics ?? false).toBe(expected[profile]);
      expect(provider.capabilities.toolChanges ?? false).toBe(false);
    }
    const off = new AnthropicProvider({ apiKey: "k", env: { THREADLINE_CACHE_DIAGNOSTICS: "off" } });
    expect(off.capabilities.cacheDiagnostics).toBe(false);
    expect(capabilitySwitches({ THREADLINE_CACHE_DIAGNOSTICS: "on", THREADLINE_TOOL_CHANGES: "on" })).toEqual({
      cacheDiagnostics: true,
      toolChanges: true,
    });
    const declared = new AnthropicProvider({
      apiKey: "k",
      baseURL: "http://127.0.0.1:1",
      env: { THREADLINE_CACHE_DIAGNOSTICS: "on" },
    });
    expect(declared.capabilities.cacheDiagnostics).toBe(true);
  });
});
