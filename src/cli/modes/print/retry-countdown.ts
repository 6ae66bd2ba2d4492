/**
 * Print mode's view of retries on stderr: an HTTP failure that will be retried (429, 529, 5xx) shows
 * `threadline: 529 overloaded_error: Overloaded — retrying in 7s (attempt 2)`, counting down in place on a
 * TTY and as one line elsewhere. Every retry shows, with its reason: a cut or malformed stream, a stream that
 * stalls, a server that never answers, an unreachable endpoint.
 */
import { type EngineEvent, isResponseEvent } from "../../../loop/events.js";
import type { TextSink } from "../../terminal/text.js";

/** How often the countdown is redrawn on a TTY, milliseconds. */
export const DEFAULT_COUNTDOWN_TICK_MS = 1_000;

/**
 * The failure part of a retry notice ("529 overloaded_error: Overloaded", "stream error: no response data for
 * 90000 ms …", "Request timed out."), for every retry: a wait on a server is never silent (issue 53).
 */
export function httpRetryCause(event: EngineEvent): string | undefined {
  if (event.type !== "notice" || event.entry?.retryInMs === undefined) return undefined;
  return event.message.split(" — retrying")[0];
}

export class RetryCountdown {
  readonly #out: TextSink;
  readonly #tty: boolean;
  #timer: NodeJS.Timeout | undefined;

  constructor(out: TextSink) {
    this.#out = out;
    this.#tty = out.isTTY === true;
  }

  /** Call with every engine event: starts a countdown on an HTTP retry notice, clears it on anything else. */
  handle(event: EngineEvent): void {
    const cause = httpRetryCause(event);
    if (cause === undefined) {
      if (isResponseEvent(event) || event.type === "turn_end") this.stop();
      return;
    }
    this.stop();
    const delayMs = event.type === "notice" ? (event.entry?.retryInMs ?? 0) : 0;
    const attempt = event.type === "notice" ? event.entry?.retryAttempt : undefined;
    const suffix = attempt !== undefined && attempt > 0 ? ` (attempt ${attempt})` : "";
    const line = (seconds: number) => `threadline: ${cause} — retrying in ${seconds}s${suffix}`;
    if (!this.#tty) {
      this.#out.write(`${line(Math.ceil(delayMs / 1000))}\n`);
      return;
    }
    const endsAt = Date.now() + delayMs;
    const draw = () => {
      const left = Math.max(0, Math.ceil((endsAt - Date.now()) / 1000));
      this.#out.write(`\r\x1b[2K${line(left)}`);
      if (left === 0) this.stop();
    };
    draw();
    this.#timer = setInterval(draw, DEFAULT_COUNTDOWN_TICK_MS);
    this.#timer.unref();
  }

  /** Removes the countdown line (TTY) and stops its timer. */
  stop(): void {
    if (this.#timer === undefined) return;
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#out.write("\r\x1b[2K");
  }
}
