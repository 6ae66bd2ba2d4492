/**
 * What the loop says and does for the stop reasons that are not a finished answer: `refusal`,
 * `model_context_window_exceeded`, and a `max_tokens` stop that cut a tool_use's input in half. A cut
 * tool_use never runs (its input would be `{}`, and a Write would be told "file_path: required field is
 * missing"); the output cap is escalated and the turn retried, as for a cut text answer.
 */
import { ProviderError } from "../../provider/index.js";

/** The tool_result recorded for a cut tool_use once escalation is used up (the tool did not run). */
export const CUT_TOOL_USE_RESULT =
  "The tool input was cut off by the output token limit, so the tool was not run. " +
  "Send it again in smaller pieces (for a large file: write a first part, then append with Edit).";

/** The notice and turn error for a refusal. */
export const REFUSAL_MESSAGE = "The model declined to continue this request (stop_reason: refusal).";

/** `model_context_window_exceeded` as the overflow the recovery chain handles. */
export function contextWindowExceeded(): ProviderError {
  return new ProviderError(
    "prompt_too_long",
    "The response stopped because the model's context window is full (stop_reason: model_context_window_exceeded).",
    { retryable: false },
  );
}
