/**
 * `stop_reason: "model_context_window_exceeded"` (generally available): a request whose input plus `max_tokens`
 * exceeds the window is accepted, and generation stops where the window is full. Oracles: the emulator's own
 * count_tokens answer for the same body and the window it was started with (output = window - input). The
 * client's recovery from this stop is test/loop/stop-reasons.test.ts.
 */
import { type Emulator, startEmulator } from "@threadline/emulator";
import { afterEach, describe, expect, it } from "vitest";
import { body, post, textOfTokens } from "./helpers.js";

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

const WINDOW = 3_000;

describe("the emulator stops at the context window", () => {
  // Mutation caught: window-stop-ignored (the answer runs past the window to max_tokens).
  it("an answer longer than the window's room stops there with model_context_window_exceeded", async () => {
    emulator = await startEmulator({
      contextWindow: WINDOW,
      scenario: [textOfTokens(2_000)],
      sideRequestsWithoutTools: false,
    });
    const request = body({ max_tokens: 2_500, messages: [{ role: "user", content: textOfTokens(1_500) }] });
    const { max_tokens: _cap, ...counted } = request;
    const input = (await post(emulator, "/v1/messages/count_tokens", counted)).json.input_tokens as number;
    expect(input).toBeGreaterThanOrEqual(1_500);
    const answer = await post(emulator, "/v1/messages", request);
    expect(answer.status).toBe(200);
    expect(answer.json.stop_reason).toBe("model_context_window_exceeded");
    expect((answer.json.usage as { output_tokens: number }).output_tokens).toBe(WINDOW - input);
  });

  it("max_tokens still wins where it is the smaller limit", async () => {
    emulator = await startEmulator({
      contextWindow: WINDOW,
      scenario: [textOfTokens(1_000)],
      sideRequestsWithoutTools: false,
    });
    const capped = await post(emulator, "/v1/messages", body({ max_tokens: 500 }));
    expect(capped.json.stop_reason).toBe("max_tokens");
    expect((capped.json.usage as { output_tokens: number }).output_tokens).toBe(500);
  });
});
