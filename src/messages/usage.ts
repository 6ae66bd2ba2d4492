/**
 * Token totals summed over requests — a turn's, a session's, a subagent's — and the one way to add to them.
 * A response's API usage is priced on the way in with `pricing.ts`'s formula, so every total that carries a
 * cost carries the same one (docs/ARCHITECTURE.md, "Where things are measured").
 */
import type { Usage } from "./content.js";
import { billedUsage, costUsd, serverToolCostUsd, type TokenPrices } from "./pricing.js";

/** Tokens summed over requests: the API's usage fields, camel-cased, and how many requests they came from. */
export interface TokenUsage {
  /** Uncached input (the API's `input_tokens`). */
  inputTokens: number;
  outputTokens: number;
  cacheReadInputTokens: number;
  cacheCreationInputTokens: number;
  /** Model requests made (retries not counted). */
  requests: number;
}

/** Tokens and their cost in dollars: a turn's or a session's running total. */
export interface TurnUsage extends TokenUsage {
  costUsd: number;
}

export function emptyUsage(): TurnUsage {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cacheReadInputTokens: 0,
    cacheCreationInputTokens: 0,
    requests: 0,
    costUsd: 0,
  };
}

function isPriced(usage: TokenUsage): usage is TurnUsage {
  return typeof (usage as Partial<TurnUsage>).costUsd === "number";
}

/** Adds `more` into `total`; the cost too when both carry one. */
export function addUsage(total: TokenUsage, more: TokenUsage): void {
  total.inputTokens += more.inputTokens;
  total.outputTokens += more.outputTokens;
  total.cacheReadInputTokens += more.cacheReadInputTokens;
  total.cacheCreationInputTokens += more.cacheCreationInputTokens;
  total.requests += more.requests;
  if (isPriced(total) && isPriced(more)) total.costUsd += more.costUsd;
}

/** `a + b` as a new total. */
export function sumUsage(a: TurnUsage, b: TurnUsage): TurnUsage {
  const total = emptyUsage();
  addUsage(total, a);
  addUsage(total, b);
  return total;
}

/**
 * Adds one response's API usage (one request) into `total`; with `prices`, and a total that carries a cost,
 * its cost at those prices (cache writes split by TTL as the API bills them).
 */
export function addResponseUsage(total: TokenUsage, response: Usage, prices?: TokenPrices): void {
  // Server-side compaction bills each pass of usage.iterations, not only the top-level figures.
  const usage = billedUsage(response);
  const cacheRead = usage.cache_read_input_tokens ?? 0;
  const cacheWrite = usage.cache_creation_input_tokens ?? 0;
  const write1h = usage.cache_creation?.ephemeral_1h_input_tokens ?? 0;
  total.inputTokens += usage.input_tokens;
  total.outputTokens += usage.output_tokens;
  total.cacheReadInputTokens += cacheRead;
  total.cacheCreationInputTokens += cacheWrite;
  total.requests += 1;
  if (prices === undefined || !isPriced(total)) return;
  total.costUsd += costUsd(
    {
      inputTokens: usage.input_tokens,
      cacheReadTokens: cacheRead,
      cacheWrite5mTokens: cacheWrite - write1h,
      cacheWrite1hTokens: write1h,
      outputTokens: usage.output_tokens,
    },
    prices,
  );
  // Server web searches are billed per search besides the tokens (pricing.ts).
  total.costUsd += serverToolCostUsd(response);
}
