/**
 * The retry driver shared by `stream` and `complete`: runs attempts, classifies failures, waits, falls back.
 *
 * Every failed attempt that will be retried produces exactly one `retry` event: what that attempt streamed
 * is void (the loop records what it had made of it as superseded, instead of editing the timeline). When
 * the model changes after repeated overloads, a `fallback` event comes first and the retry that follows it
 * has `attempt: 0` and no delay: the retry budget starts afresh on the new model, with the caller's
 * `fallbackRequest`. Tools started on a superseded attempt's `block_end` are the loop's to cancel or discard.
 * A retry resends the same bytes: the request is a pure function of what the caller assembled.
 */

import type { AssembledRequest } from "../request/index.js";
import { serializeRequest } from "../request/index.js";
import { classifyError } from "./classify.js";
import { ProviderError } from "./errors.js";
import { DEFAULT_MAX_CONSECUTIVE_OVERLOADED, retryDelayMs } from "./retry-policy.js";
import type { ProviderEvent } from "./types.js";
import { DEFAULT_API_URL, DEFAULT_UNREACHABLE_BUDGET_MS, unreachableMessage, unreachableRow } from "./unreachable.js";

/** Waits `ms`; should reject early when `signal` aborts (the driver re-checks the signal either way). */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export interface RetrySettings {
  maxRetries: number;
  fallbackModel: string | undefined;
  sleep: Sleep;
  random: () => number;
  /** Strings redacted from every error message (API key, auth token). */
  secrets: readonly string[];
  /** The URL named when the endpoint cannot be reached. Default: `DEFAULT_API_URL`. */
  endpoint?: string;
  /** True when no key was configured and a placeholder went out (an auth failure then says to set one). */
  placeholderKey?: boolean;
}

export interface RetryCallOptions {
  signal?: AbortSignal;
  /** The request for the fallback model. Default: `request` with the model replaced. */
  fallbackRequest?: AssembledRequest;
}

/** One attempt: yields events, returns its result. */
export type Attempt<T> = (request: AssembledRequest) => AsyncGenerator<ProviderEvent, T, undefined>;

/** Runs `attempt` until it succeeds, a failure is not retryable, or retries run out. */
export async function* runWithRetries<T>(
  request: AssembledRequest,
  options: RetryCallOptions,
  settings: RetrySettings,
  attempt: Attempt<T>,
): AsyncGenerator<ProviderEvent, T, undefined> {
  let current = request;
  let retries = 0;
  let consecutiveOverloaded = 0;
  let fellBack = false;
  // Unreachable endpoints (DNS, refused, bad port) get a few quick retries within a short budget.
  let unreachableRetries = 0;
  let unreachableWaitedMs = 0;
  for (;;) {
    throwIfAborted(options.signal);
    let failure: ProviderError;
    const run = { completedTools: 0 };
    try {
      return yield* watchTools(attempt(current), run);
    } catch (error) {
      failure = options.signal?.aborted ? abortedError() : classifyError(error, settings.secrets);
    }
    if (failure.kind === "aborted") throw failure;
    // A tool_use block that completed may already be running: resending the request would ask for it again
    // and run it twice. The cut attempt stands; the loop keeps its completed blocks (docs/EXACTLY-ONCE.md).
    if (run.completedTools > 0)
      throw new ProviderError(
        failure.kind,
        `${failure.message} (the stream was cut after ${run.completedTools} complete tool call${run.completedTools === 1 ? "" : "s"}; not retried)`,
        { ...failure.options, retryable: false, cutAfterTools: run.completedTools },
      );
    if (failure.kind === "auth" && settings.placeholderKey === true) {
      const url = settings.endpoint ?? DEFAULT_API_URL;
      throw new ProviderError("auth", `ANTHROPIC_API_KEY is not set and ${url} wants one (${failure.message})`, {
        ...failure.options,
      });
    }

    consecutiveOverloaded = failure.kind === "overloaded" ? consecutiveOverloaded + 1 : 0;
    if (consecutiveOverloaded >= DEFAULT_MAX_CONSECUTIVE_OVERLOADED) {
      const fallback = settings.fallbackModel;
      if (fallback === undefined || fellBack || fallback === current.body.model) {
        throw new ProviderError(
          "overloaded",
          `${failure.message} (overloaded ${consecutiveOverloaded} times in a row; ${
            fallback === undefined ? "no fallback model is configured" : `fallback model ${fallback} is overloaded too`
          })`,
          { ...failure.options, retryable: false },
        );
      }
      yield { type: "fallback", from: current.body.model, to: fallback };
      current = options.fallbackRequest ?? withModel(current, fallback);
      fellBack = true;
      consecutiveOverloaded = 0;
      retries = 0;
      yield { type: "retry", attempt: 0, delayMs: 0, error: failure };
      continue;
    }

    const unreachable = failure.options.status === undefined ? unreachableRow(failure.message) : undefined;
    if (unreachable !== undefined) {
      const nextDelayMs = retryDelayMs(unreachableRetries + 1, settings.random);
      const exhausted =
        unreachableRetries >= Math.min(unreachable.retries, settings.maxRetries) ||
        unreachableWaitedMs + nextDelayMs > DEFAULT_UNREACHABLE_BUDGET_MS;
      if (exhausted) {
        const url = settings.endpoint ?? DEFAULT_API_URL;
        throw new ProviderError("connection", unreachableMessage(url, unreachable, unreachableRetries), {
          ...failure.options,
          retryable: false,
        });
      }
      unreachableRetries++;
      unreachableWaitedMs += nextDelayMs;
      yield { type: "retry", attempt: unreachableRetries, delayMs: nextDelayMs, error: failure };
      await pause(settings, nextDelayMs, options.signal);
      continue;
    }

    if (!failure.retryable || retries >= settings.maxRetries) {
      if (retries === 0) throw failure;
      throw new ProviderError(failure.kind, `${failure.message} (gave up after ${retries} retries)`, failure.options);
    }
    retries++;
    const delayMs = retryDelayMs(retries, settings.random, failure.options.retryAfterMs);
    yield { type: "retry", attempt: retries, delayMs, error: failure };
    await pause(settings, delayMs, options.signal);
  }
}

/** Passes an attempt's events on, counting the complete tool_use blocks it delivered. */
async function* watchTools<T>(
  events: AsyncGenerator<ProviderEvent, T, undefined>,
  run: { completedTools: number },
): AsyncGenerator<ProviderEvent, T, undefined> {
  try {
    for (;;) {
      const next = await events.next();
      if (next.done === true) return next.value;
      const event = next.value;
      if (event.type === "block_end" && event.block.type === "tool_use") run.completedTools++;
      yield event;
    }
  } finally {
    // A consumer that stops early closes the attempt too (as `yield*` would).
    await events.return(undefined as T);
  }
}

/** Sleeps before a retry; an abort while waiting becomes the aborted error. */
async function pause(settings: RetrySettings, delayMs: number, signal: AbortSignal | undefined): Promise<void> {
  try {
    await settings.sleep(delayMs, signal);
  } catch (error) {
    if (signal?.aborted) throw abortedError();
    throw error;
  }
  throwIfAborted(signal);
}

/** The same request for another model (used when the caller gave no `fallbackRequest`). */
export function withModel(request: AssembledRequest, model: string): AssembledRequest {
  const body = { ...request.body, model };
  // The same serializer as assembly: cached message JSON is reused and the streaming variant stays linked.
  return { ...request, body, json: serializeRequest(body) };
}

/** The default `Sleep`: a timer that rejects as soon as `signal` aborts. */
export function sleepWithSignal(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortedError());
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortedError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export function abortedError(): ProviderError {
  return new ProviderError("aborted", "Request aborted.", { retryable: false });
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw abortedError();
}
