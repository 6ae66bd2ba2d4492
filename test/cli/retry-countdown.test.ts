import { describe, expect, it } from "vitest";
import { httpRetryCause, RetryCountdown } from "../../src/cli/modes/print/retry-countdown.js";
import type { EngineEvent } from "../../src/loop/events.js";
import { createSystemEntry } from "../../src/messages/index.js";

function retryNotice(message: string, retryInMs: number, retryAttempt: number): EngineEvent {
  const context = { sessionId: "s", parentUuid: null, uuid: "00000000-0000-4000-8000-000000000001", now: new Date(0) };
  const entry = createSystemEntry(context, "api_error", message, { level: "warning", retryAttempt, retryInMs });
  return { type: "notice", level: "warning", message, entry };
}

describe("print mode's retry line", () => {
  it("names every retry's failure, connection retries too (a wait is never silent)", () => {
    const http = retryNotice("529 overloaded_error: Overloaded — retrying in 4200 ms (attempt 2)", 4200, 2);
    expect(httpRetryCause(http)).toBe("529 overloaded_error: Overloaded");
    const refused = retryNotice("Connection error.: connect ECONNREFUSED — retrying in 500 ms (attempt 1)", 500, 1);
    expect(httpRetryCause(refused)).toBe("Connection error.: connect ECONNREFUSED");
  });

  it("writes one line off a TTY, and a countdown it erases on a TTY", () => {
    const plain: string[] = [];
    new RetryCountdown({ write: (text: string) => plain.push(text) }).handle(
      retryNotice("429 rate_limit_error: slow down — retrying in 7000 ms (attempt 1)", 7000, 1),
    );
    expect(plain).toEqual(["threadline: 429 rate_limit_error: slow down — retrying in 7s (attempt 1)\n"]);
    const tty: string[] = [];
    const countdown = new RetryCountdown({ write: (text: string) => tty.push(text), isTTY: true });
    countdown.handle(retryNotice("503 api_error: unavailable — retrying in 3000 ms (attempt 4)", 3000, 4));
    expect(tty[0]).toBe("\r\x1b[2Kthreadline: 503 api_error: unavailable — retrying in 3s (attempt 4)");
    countdown.handle({ type: "turn_end" } as EngineEvent);
    expect(tty.at(-1)).toBe("\r\x1b[2K");
  });
});
