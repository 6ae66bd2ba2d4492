/**
 * Stage 3 of an iteration: send the request and record the answer as it streams. The provider's neutral
 * events pass on to the caller; each finished block becomes an assistant entry (tools start as their blocks
 * end); a retry supersedes what the failed attempt recorded; a fallback switches the session's model; the
 * usage and the cache check count once the stream has ended cleanly. A request that failed for good goes to
 * the recover stage.
 */

import { type BudgetLimits, reportedInputTokens } from "../../compaction/index.js";
import type { AssistantEntry } from "../../messages/index.js";
import { addResponseUsage } from "../../messages/index.js";
import type { ProviderEvent, StreamOptions } from "../../provider/index.js";
import { ProviderError } from "../../provider/index.js";
import type { MessagesRequest } from "../../request/index.js";
import { AssistantEntries } from "../assistant-entries.js";
import { learnFromCount } from "../budget/budget-learning.js";
import type { EngineEvent } from "../events.js";
import { type FailedRequest, failedRequestRecord } from "../recovery/failed-requests.js";
import {
  type Assembled,
  type AttemptState,
  newAttempt,
  type Recover,
  recordAnnouncements,
  restartAttempt,
  type Streamed,
  type TurnState,
} from "../turn-state.js";
import { requestFor } from "./request-settings.js";

/** Records one assistant entry of this attempt and returns its event. */
function recordEntry(turn: TurnState, attempt: AttemptState, entry: AssistantEntry): EngineEvent {
  turn.recorder.append(entry);
  attempt.entries.push(entry);
  const block = entry.message.content[0];
  if (block.type === "tool_use") {
    attempt.toolOwners.set(block.id, entry);
    attempt.executor.recorded(block.id);
  }
  if (block.type === "text") attempt.text += block.text;
  return { type: "assistant", entry };
}

/** Records an attempt the server refused or failed, beside the answered ones (docs/CONTEXT-BUDGET.md). */
function recordFailure(turn: TurnState, failed: FailedRequest): void {
  const { context } = turn;
  const record = failedRequestRecord(failed, context.sessionId, context.now());
  if (record !== undefined) turn.recorder.append(record);
}

/**
 * The provider's options: the request for its fallback model, assembled up front from the same pass
 * (the provider asks nothing of the loop mid-stream), when it has a fallback other than the model in use.
 */
function streamOptions(turn: TurnState, assembled: Assembled): StreamOptions {
  const { provider, signal, state } = turn.context;
  const fallback = provider.fallbackModel;
  if (fallback === undefined || fallback === state.model) return { signal };
  return { signal, fallbackRequest: requestFor(turn, assembled.compaction, fallback) };
}

/** The message's stop reason, its usage (and cost) and the cache check against it. */
function* applyMessageEnd(
  turn: TurnState,
  attempt: AttemptState,
  end: Extract<ProviderEvent, { type: "message_end" }>,
  limits: BudgetLimits,
  body: MessagesRequest,
): Generator<EngineEvent> {
  const detector = turn.context.cacheDetector;
  recordAnnouncements(turn);
  attempt.stopReason = end.stopReason;
  turn.answeredRequests++;
  addResponseUsage(turn.usage, end.usage, limits);
  // The server's count of this request teaches the calibration (docs/CONTEXT-BUDGET.md); a response is progress,
  // so the overflow chain is available again to the next request of this turn.
  yield* learnFromCount(turn, reportedInputTokens(end.usage), body);
  // An answer cut by a full window is no progress: the chain's steps stay used, so its recovery still ends.
  if (end.stopReason !== "model_context_window_exceeded") turn.promptTooLong.outcomes.clear();
  const cacheBreak = detector?.afterResponse(end.usage, undefined, end.cacheMiss);
  if (cacheBreak && detector) yield turn.recorder.notice("warning", detector.describe(cacheBreak));
}

/**
 * The stream was cut after complete tool_use blocks (the provider did not retry): the partial message stands
 * with its finished blocks (the one still streaming is dropped), its tools run and their results are recorded,
 * and the loop goes on as after a `tool_use` stop. Nothing is asked twice (docs/EXACTLY-ONCE.md).
 */
function* keepCutMessage(
  turn: TurnState,
  attempt: AttemptState,
  entries: AssistantEntries,
  failure: ProviderError,
): Generator<EngineEvent> {
  for (const entry of entries.cut()) yield recordEntry(turn, attempt, entry);
  attempt.stopReason = "tool_use";
  yield turn.recorder.notice(
    "warning",
    `${failure.message}: the complete tool calls are kept and answered; the rest of that response is lost.`,
    "api_error",
  );
}

/** How the stream ended: a complete response, or a failure the provider's retries could not mend (to recover). */
export async function* streamStage(
  turn: TurnState,
  assembled: Assembled,
  limits: BudgetLimits,
): AsyncGenerator<EngineEvent, Streamed | Recover> {
  const { context, recorder } = turn;
  const { state } = context;
  // Fingerprint, then make sure the transcript holds everything before the model is called.
  context.cacheDetector?.beforeRequest(assembled.request);
  yield { type: "request_start", request: assembled.request, iteration: turn.iterations };
  await recorder.flush();

  const attempt = newAttempt(turn);
  const entries = new AssistantEntries(() => recorder.context());
  let end: Extract<ProviderEvent, { type: "message_end" }> | undefined;
  // The model the current attempt went to (a fallback switches it for the attempts after).
  let sentModel = assembled.request.body.model;
  let nextModel = sentModel;
  try {
    for await (const event of context.provider.stream(assembled.request, streamOptions(turn, assembled))) {
      for (const entry of entries.push(event)) yield recordEntry(turn, attempt, entry);
      switch (event.type) {
        case "block_end":
          // A tool_use whose input did not parse waits for the stop reason: cut by max_tokens, it never runs.
          if (event.block.type === "tool_use" && event.inputInvalid === true) attempt.heldTools.push(event.block);
          // Read-only calls start now; a call with side effects starts once its tool_use entry is on disk.
          else if (event.block.type === "tool_use") attempt.executor.add(event.block, true);
          yield event;
          break;
        case "message_end":
          end = event;
          yield event;
          break;
        case "retry": {
          recordFailure(turn, { purpose: "turn", model: sentModel, error: event.error, retried: true });
          sentModel = nextModel;
          // The retried attempt starts over: what it recorded is superseded, its tools are cancelled.
          if (attempt.entries.length > 0)
            recorder.system("stream_superseded", "Partial response superseded by a retry.", {
              supersededUuids: attempt.entries.map((entry) => entry.uuid),
            });
          restartAttempt(turn, attempt);
          end = undefined;
          const message = `${event.error.message} — retrying in ${Math.round(event.delayMs)} ms (attempt ${event.attempt})`;
          yield recorder.notice("warning", message, "api_error", {
            retryAttempt: event.attempt,
            retryInMs: event.delayMs,
          });
          break;
        }
        case "fallback":
          state.model = event.to;
          nextModel = event.to;
          yield recorder.notice("warning", `Model ${event.from} is overloaded; switched to ${event.to}.`);
          break;
        default:
          yield event;
      }
      for (const item of attempt.channel.drain()) if (item.type !== "_result") yield item;
    }
    // The stream ended cleanly: the message's stop reason and usage count now (a failed attempt's never do).
    if (end !== undefined) yield* applyMessageEnd(turn, attempt, end, limits, assembled.request.body);
    for (const item of attempt.channel.drain()) if (item.type !== "_result") yield item;
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError("connection", String(error));
    recordFailure(turn, { purpose: "turn", model: sentModel, error: failure, retried: false });
    if (failure.options.cutAfterTools === undefined || context.signal.aborted)
      return { type: "recover", cause: "failed", attempt, failure, request: assembled.request };
    yield* keepCutMessage(turn, attempt, entries, failure);
  }
  if (attempt.text) turn.lastText = attempt.text;
  return { type: "streamed", attempt };
}
