import { describe, expect, it } from "vitest";
import { parseCliArgs, UsageError } from "../../src/cli/args.js";

describe("--provider", () => {
  it("takes anthropic, bedrock or vertex; absent leaves the choice to the environment", () => {
    expect(parseCliArgs(["--provider", "bedrock", "-p", "hi"]).provider).toBe("bedrock");
    expect(parseCliArgs(["--provider", "vertex"]).provider).toBe("vertex");
    expect(parseCliArgs(["-p", "hi"]).provider).toBeUndefined();
  });

  it("refuses anything else in one line naming the choices", () => {
    expect(() => parseCliArgs(["--provider", "azure"])).toThrow(
      new UsageError('--provider must be one of anthropic, bedrock, vertex; got "azure"'),
    );
  });
});
