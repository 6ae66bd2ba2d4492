/**
 * Recovery policy for the loop: what to do after a max_tokens stop, and which provider errors become
 * synthetic API-error messages (so the next request strips what caused them).
 */
import {
  COMPACTION_TIERS,
  type CompactionInput,
  type OverflowFacts,
  type OverflowOutcome,
  type OverflowReason,
  RecordChain,
  type Tier,
} from "../compaction/index.js";
import { API_ERROR_TEXT, checkNever, ESCALATED_MAX_TOKENS, type TimelineEntry } from "../messages/index.js";
import type { ProviderError } from "../provider/index.js";

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

/** The synthetic API-error text recorded for a provider error, when the error names content to strip. */
export function syntheticErrorText(error: ProviderError): string | undefined {
  switch (error.kind) {
    case "image_too_large":
      return API_ERROR_TEXT.imageTooLarge;
    case "pdf_too_large":
      return API_ERROR_TEXT.pdfTooLarge;
    case "pdf_password_protected":
      return API_ERROR_TEXT.pdfPasswordProtected;
    case "pdf_invalid":
      return API_ERROR_TEXT.pdfInvalid;
    case "request_too_large":
      return API_ERROR_TEXT.requestTooLarge;
    case "prompt_too_long":
      return error.options.actualTokens !== undefined && error.options.maxTokens !== undefined
        ? `${API_ERROR_TEXT.promptTooLong}: ${error.options.actualTokens} tokens > ${error.options.maxTokens} maximum`
        : API_ERROR_TEXT.promptTooLong;
    default:
      return undefined;
  }
}

/** Errors whose synthetic message makes the next request smaller by stripping media, so one retry is worth it. */
export function isMediaError(error: ProviderError): boolean {
  return (
    error.kind === "image_too_large" ||
    error.kind === "pdf_too_large" ||
    error.kind === "pdf_password_protected" ||
    error.kind === "pdf_invalid" ||
    error.kind === "request_too_large"
  );
}

/** Which prompt-too-long recovery steps this turn has used (each runs at most once per turn). */
export interface PromptTooLongRecovery {
  /** What each tier's overflow step did this turn, by tier name. */
  readonly outcomes: Map<string, OverflowOutcome>;
}

/** A turn's recovery bookkeeping before any step ran. */
export function newPromptTooLongRecovery(): PromptTooLongRecovery {
  return { outcomes: new Map() };
}

export type PromptTooLongStep =
  | { action: "retry"; reason: OverflowReason; records: TimelineEntry[]; compacted: boolean }
  | { action: "surface"; message: string };

/** Whether a provider error means the prompt is over the window (or still too large after media stripping). */
export function isPromptTooLong(error: ProviderError, mediaRetried: boolean): boolean {
  return error.kind === "prompt_too_long" || (error.kind === "request_too_large" && mediaRetried);
}

function overflowFacts(error: ProviderError): OverflowFacts {
  const { actualTokens, maxTokens } = error.options;
  return {
    ...(actualTokens !== undefined ? { actualTokens } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
}

/**
 * The 413 / prompt-too-long chain: each tier's overflow step, in tier order (collapse drain: commit every
 * staged span, no model call → reactive compact), then a clear error. Each step runs at most once per turn and
 * only when its tier is on, so the chain always ends.
 */
export async function recoverFromPromptTooLong(
  input: CompactionInput,
  error: ProviderError,
  used: PromptTooLongRecovery,
  tiers: readonly Tier[] = COMPACTION_TIERS,
): Promise<PromptTooLongStep> {
  const failures: string[] = [];
  for (const tier of tiers) {
    const step = tier.overflow;
    if (step === undefined || !tier.enabled(input.settings) || used.outcomes.has(tier.name)) continue;
    if (step.available?.(input) === false) continue;
    const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
    const outcome = await step.relieve(input, chain, overflowFacts(error));
    used.outcomes.set(tier.name, outcome);
    switch (outcome.kind) {
      case "retry":
        return { action: "retry", reason: step.reason, records: chain.records, compacted: outcome.compacted };
      case "failed":
        failures.push(outcome.message);
        break;
      case "nothing":
        break;
      default:
        checkNever(outcome);
    }
  }
  const numbers =
    error.options.actualTokens !== undefined && error.options.maxTokens !== undefined
      ? ` (${error.options.actualTokens.toLocaleString("en-US")} tokens > ${error.options.maxTokens.toLocaleString("en-US")} maximum)`
      : "";
  // A step with nothing to offer (a drain with nothing staged) did not try to make it fit: it is not blamed.
  const tried = tiers
    .flatMap((tier) => {
      const outcome = used.outcomes.get(tier.name);
      return tier.overflow !== undefined && outcome !== undefined && outcome.kind !== "nothing"
        ? [tier.overflow.label]
        : [];
    })
    .join(" and ");
  return {
    action: "surface",
    message:
      `The conversation is too long for the model's context window${numbers}` +
      (tried !== "" ? `; ${tried} could not make it fit` : "") +
      failures.map((failure) => ` (${failure})`).join("") +
      ". Run /compact or /clear, or start a new session.",
  };
}
