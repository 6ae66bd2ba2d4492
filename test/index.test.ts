import { describe, expect, it } from "vitest";
import { AnthropicProvider, QueryEngine, startEmulator } from "../src/index.js";
import { makeTempDir } from "../support/temp-dir.js";

describe("the public entry", () => {
  it("is enough to run a turn: QueryEngine + provider + emulator from one import", async () => {
    const emulator = await startEmulator({ scenario: ["Hello from the library."] });
    try {
      const engine = new QueryEngine({
        cwd: await makeTempDir("index"),
        provider: new AnthropicProvider({ baseURL: emulator.url, apiKey: "test-key-for-index" }),
        transcript: false,
        model: "claude-sonnet-4-6",
      });
      let last = "";
      for await (const event of engine.submitMessage("hi")) if (event.type === "turn_end") last = event.lastText;
      await engine.close();
      expect(last).toBe("Hello from the library.");
    } finally {
      await emulator.close();
    }
  });
});
