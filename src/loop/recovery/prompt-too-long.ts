/**
 * What the recover stage (stage-recover.ts) asks when a request is refused: which provider errors become
 * synthetic API-error messages (so the next request strips what caused them), and the prompt-too-long chain.
 * What to do after a max_tokens stop is max-tokens.ts.
 */
import {
  COMPACTION_TIERS,
  type CompactionInput,
  cutOverflowStep,
  dropOverflowStep,
  type OverflowFacts,
  type OverflowOutcome,
  type OverflowReason,
  RecordChain,
  type Tier,
} from "../../compaction/index.js";
import { API_ERROR_TEXT, checkNever, type TimelineEntry } from "../../messages/index.js";
import type { ProviderError } from "../../provider/index.js";

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

/** The error's numbers in estimate units (÷ `ratio`, the server's count per estimated token), as the steps budget. */
function overflowFacts(error: ProviderError, ratio: number): OverflowFacts {
  const { actualTokens, maxTokens } = error.options;
  const scale = (tokens: number) => (ratio === 1 ? tokens : Math.floor(tokens / ratio));
  return {
    ...(actualTokens !== undefined ? { actualTokens: scale(actualTokens) } : {}),
    ...(maxTokens !== undefined ? { maxTokens: scale(maxTokens) } : {}),
  };
}

/**
 * The chain's last step, after every tier's: drop the oldest rounds behind a marker (no model call). It is
 * compaction's own fallback, so it runs only while autocompact is on (with every tier off, nothing is dropped).
 */
const DROP_STEP: Tier = {
  name: "drop-oldest-rounds",
  enabled: (settings) => settings.autocompact,
  run: () => ({}),
  overflow: dropOverflowStep,
};

/**
 * After the drop, cut the biggest tool results to fit (a result bigger than the window, with no summary to be
 * had: docs/CONTEXT-BUDGET.md). Compaction's fallback too, so only while autocompact is on.
 */
const CUT_STEP: Tier = {
  name: "cut-biggest-results",
  enabled: (settings) => settings.autocompact,
  run: () => ({}),
  overflow: cutOverflowStep,
};

/**
 * The 413 / prompt-too-long chain (docs/ARCHITECTURE.md "Overflow chain"): each tier's overflow step, in tier
 * order (microcompact: clear old tool results, no model call → collapse drain: commit every staged span →
 * reactive compact), then dropping the oldest rounds behind a marker, then a clear error. A step that fails (a
 * summary that came back empty, a tool call, an error) moves on to the next. Each step runs at most once per
 * turn and only when its tier is on, so the chain always ends.
 */
export async function recoverFromPromptTooLong(
  input: CompactionInput,
  error: ProviderError,
  used: PromptTooLongRecovery,
  tiers: readonly Tier[] = COMPACTION_TIERS,
  /** The server's count per estimated token, when `error` is the server's own (its numbers are its tokens). Default 1. */
  ratio = 1,
): Promise<PromptTooLongStep> {
  const failures: string[] = [];
  const steps = [...tiers, DROP_STEP, CUT_STEP];
  for (const tier of steps) {
    const step = tier.overflow;
    if (step === undefined || !tier.enabled(input.settings) || used.outcomes.has(tier.name)) continue;
    if (step.available?.(input) === false) continue;
    const chain = new RecordChain(input.sessionId, input.parentUuid, input.now);
    const outcome = await step.relieve(input, chain, overflowFacts(error, ratio));
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
  const tried = steps
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
