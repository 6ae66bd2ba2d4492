import { describe, expect, it } from "vitest";
import { AnthropicProvider, DEFAULT_CAPABILITIES, detectCapabilities } from "../../src/provider/index.js";

describe("capabilities", () => {
  it("turns cache edits on only for loopback hosts", () => {
    expect(detectCapabilities("http://127.0.0.1:8080")).toEqual({ cacheEdits: true, contextManagement: true });
    expect(detectCapabilities("http://localhost:1234/v1")).toEqual({ cacheEdits: true, contextManagement: true });
    expect(detectCapabilities("https://api.anthropic.com")).toEqual(DEFAULT_CAPABILITIES);
    expect(detectCapabilities(undefined)).toEqual(DEFAULT_CAPABILITIES);
    expect(detectCapabilities("not a url")).toEqual(DEFAULT_CAPABILITIES);
  });

  it("lets the constructor override them", () => {
    const provider = new AnthropicProvider({
      apiKey: "k",
      baseURL: "http://127.0.0.1:1",
      capabilities: { cacheEdits: false },
      env: {},
    });
    expect(provider.capabilities).toEqual({ cacheEdits: false, contextManagement: true });
  });
});
