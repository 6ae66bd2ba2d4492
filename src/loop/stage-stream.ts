/**
 * Stage 3 of an iteration: send the request and record the answer as it streams. Each finished block is
 * an assistant entry (tools start as their blocks finish); a retry supersedes what the failed attempt
 * recorded; the usage and the cache check come with the message's end.
 */
import type { ModelLimits } from "../messages/index.js";
import { ProviderError } from "../provider/types.js";
import { addUsage, type EngineEvent } from "./events.js";
import { type Assembled, requestFor } from "./stage-assemble.js";
import { type AttemptState, newAttempt, restartAttempt } from "./stage-tools.js";
import { recordAnnouncements, type TurnState } from "./turn-state.js";

/** How the stream ended: a complete response, or a failure the provider's retries could not mend. */
export type Streamed =
  | { type: "streamed"; attempt: AttemptState }
  | { type: "failed"; attempt: AttemptState; failure: ProviderError };

export async function* streamStage(
  turn: TurnState,
  assembled: Assembled,
  limits: ModelLimits,
): AsyncGenerator<EngineEvent, Streamed> {
  const { context, recorder } = turn;
  const { signal, state } = context;
  // Fingerprint, then make sure the transcript holds everything before the model is called.
  context.cacheDetector?.beforeRequest(assembled.request);
  yield { type: "request_start", request: assembled.request, iteration: turn.iterations };
  await recorder.flush();

  const attempt = newAttempt(turn);
  const rebuild = (model: string) => {
    state.model = model;
    return requestFor(turn, assembled.compaction, model);
  };
  const entryContext = () => recorder.context();
  try {
    for await (const event of context.provider.stream(assembled.request, { signal, entryContext, rebuild })) {
      switch (event.type) {
        case "stream_event":
          yield event;
          break;
        case "block_complete":
          // A tool_use whose input did not parse waits for the stop reason: cut by max_tokens, it never runs.
          if (event.block.type === "tool_use" && event.inputInvalid === true) attempt.heldTools.push(event.block);
          else if (event.block.type === "tool_use") attempt.executor.add(event.block);
          break;
        case "assistant_entry": {
          recorder.append(event.entry);
          attempt.entries.push(event.entry);
          const block = event.entry.message.content[0];
          if (block.type === "tool_use") attempt.toolOwners.set(block.id, event.entry);
          if (block.type === "text") attempt.text += block.text;
          yield { type: "assistant", entry: event.entry };
          break;
        }
        case "retry": {
          if (event.supersededUuids.length > 0) {
            recorder.system("stream_superseded", "Partial response superseded by a retry.", {
              supersededUuids: event.supersededUuids,
            });
          }
          // The retried attempt starts over: forget this attempt's blocks and cancel its tools.
          restartAttempt(turn, attempt);
          const message = `${event.error.message} — retrying in ${Math.round(event.delayMs)} ms (attempt ${event.attempt})`;
          yield recorder.notice("warning", message, "api_error", {
            retryAttempt: event.attempt,
            retryInMs: event.delayMs,
          });
          break;
        }
        case "fallback":
          yield recorder.notice("warning", `Model ${event.from} is overloaded; switched to ${event.to}.`);
          break;
        case "message_end": {
          recordAnnouncements(turn);
          attempt.stopReason = event.stopReason;
          addUsage(turn.usage, event.usage, {
            inputPerMTok: limits.inputPricePerMTok,
            outputPerMTok: limits.outputPricePerMTok,
          });
          const detector = context.cacheDetector;
          const cacheBreak = detector?.afterResponse(event.usage, undefined, event.cacheMiss);
          if (cacheBreak && detector) yield recorder.notice("warning", detector.describe(cacheBreak));
          break;
        }
      }
      for (const item of attempt.channel.drain()) if (item.type !== "_result") yield item;
    }
  } catch (error) {
    const failure = error instanceof ProviderError ? error : new ProviderError("connection", String(error));
    return { type: "failed", attempt, failure };
  }
  if (attempt.text) turn.lastText = attempt.text;
  return { type: "streamed", attempt };
}
