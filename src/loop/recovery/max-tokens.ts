/**
 * What the decide stage (stage-decide.ts) does after a max_tokens stop: escalate the output cap once, then
 * append continuation prompts, then surface the stop.
 */
import { ESCALATED_MAX_TOKENS } from "../../messages/index.js";

/** How many "resume where you stopped" continuations a turn may append after max_tokens stops. */
export const DEFAULT_MAX_CONTINUATIONS = 3;

/** The meta message appended after a max_tokens stop once escalation is used up. */
export const CONTINUATION_PROMPT =
  "Output token limit hit. Resume directly where you stopped, with no apology and no recap. " +
  "Pick up mid-thought if that is where the cut happened, and break the remaining work into smaller pieces.";

export interface MaxTokensState {
  /** The max_tokens override now in force (undefined: the settings' default). */
  override: number | undefined;
  escalated: boolean;
  continuations: number;
}

export type MaxTokensDecision =
  | { action: "escalate"; maxTokens: number }
  | { action: "continue" }
  | { action: "surface"; message: string };

/**
 * After a max_tokens stop: with the default output cap in force, retry once at `ESCALATED_MAX_TOKENS`;
 * otherwise append up to `DEFAULT_MAX_CONTINUATIONS` continuation prompts; then surface the error.
 */
export function decideMaxTokens(state: MaxTokensState, defaultCapInForce: boolean): MaxTokensDecision {
  if (defaultCapInForce && !state.escalated) return { action: "escalate", maxTokens: ESCALATED_MAX_TOKENS };
  if (state.continuations < DEFAULT_MAX_CONTINUATIONS) return { action: "continue" };
  return {
    action: "surface",
    message: `The response hit the output token limit ${state.continuations + 1} times in a row; stopping.`,
  };
}
