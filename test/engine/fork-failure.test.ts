/** The engine's ForkRunner tells compaction why a forked request failed, in compaction's own terms. */
import { describe, expect, it } from "vitest";
import { forkFailure } from "../../src/engine/forked-agent.js";
import { ProviderError } from "../../src/provider/errors.js";

describe("forkFailure", () => {
  it("reads a prompt-too-long refusal with the server's numbers, or without them", () => {
    const withNumbers = new ProviderError("prompt_too_long", "prompt is too long: 75000 tokens > 70000 maximum", {
      actualTokens: 75_000,
      maxTokens: 70_000,
    });
    expect(forkFailure(withNumbers)).toEqual({ kind: "prompt_too_long", actualTokens: 75_000, maxTokens: 70_000 });
    expect(forkFailure(new ProviderError("prompt_too_long", "prompt is too long"))).toEqual({
      kind: "prompt_too_long",
    });
  });

  it("calls every other failure final", () => {
    expect(forkFailure(new ProviderError("overloaded", "Overloaded", { retryable: true }))).toEqual({ kind: "other" });
    expect(forkFailure(new ProviderError("request_too_large", "Request too large"))).toEqual({ kind: "other" });
    expect(forkFailure(new Error("prompt is too long: 75000 tokens > 70000 maximum"))).toEqual({ kind: "other" });
    expect(forkFailure("prompt_too_long")).toEqual({ kind: "other" });
  });
});
