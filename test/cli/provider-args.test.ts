import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";

describe("--provider", () => {
  it("takes anthropic, bedrock or vertex; absent leaves the choice to the environment", () => {
    expect(parseCliArgs(["--provider", "bedrock", "-p", "hi"]).provider).toBe("bedrock");
    expect(parseCliArgs(["--provider", "vertex"]).provider).toBe("vertex");
    expect(parseCliArgs(["-p", "hi"]).provider).toBeUndefined();
  });

  it("takes openai-compatible with --base-url, which must be an http(s) URL", () => {
    const parsed = parseCliArgs(["--provider", "openai-compatible", "--base-url", "http://127.0.0.1:8080/v1"]);
    expect(parsed.provider).toBe("openai-compatible");
    expect(parsed.baseURL).toBe("http://127.0.0.1:8080/v1");
    expect(() => parseCliArgs(["--base-url", "localhost:8080"])).toThrow(
      new UsageError('--base-url must be an http(s) URL, got "localhost:8080"'),
    );
  });

  it("says once for each old spelling of the server profile that it is deprecated", () => {
    expect(parseCliArgs(["-p", "hi"], { THREADLINE_PROVIDER: "compatible" }).notices).toEqual([
      "THREADLINE_PROVIDER is deprecated: use THREADLINE_SERVER_PROFILE (the server's capability profile; --provider picks the protocol)",
      "THREADLINE_PROVIDER=compatible is deprecated: use anthropic-compatible",
    ]);
    expect(parseCliArgs(["-p", "hi"], { THREADLINE_SERVER_PROFILE: "anthropic-compatible" }).notices).toEqual([]);
  });

  it("refuses anything else in one line naming the choices", () => {
    expect(() => parseCliArgs(["--provider", "azure"])).toThrow(
      new UsageError('--provider must be one of anthropic, bedrock, vertex, openai-compatible; got "azure"'),
    );
  });
});
